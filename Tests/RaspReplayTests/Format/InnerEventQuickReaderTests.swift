import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// The quick reader of Kafka messages reads exactly what the map's reader reads — the same
/// event bytes, envelope, time, source and origin, the same errors — on every message shape
/// and event below, and takes the common shapes itself.
@Suite struct InnerEventQuickReaderTests {
  private static let kcat = LogFormat.preset(named: "kcat")

  /// Events as JSON text, each to be held in a message's payload string.
  private static let events = [
    #"{"type":"geo.heading","payload":{"heading":90}}"#,
    #"{"ts":"2026-11-22T09:30:00.005Z","source":"ui","type":"nav.push","payload":{"screen":"o"}}"#,
    #"{"type":"geo.heading","ts":1795336200.25,"payload":{"heading":1}}"#,
    #"{"type":"geo.heading","ts":1795336200250,"payload":{"heading":1}}"#,
    #"{"type":"geo.heading","ts":null,"payload":{"heading":1}}"#,
    #"{"type":"geo.heading","source":null,"payload":{"heading":1}}"#,
    #"{"type":"nav.push","payload":{"screen":"a\"b"}}"#,
    #"{"type":"nav.push","payload":{"screen":"a/b"}}"#,
    #"{"type":"nav.push","payload":{"screen":"é"}}"#,
    #"{"type":"nav.push","payload":{"screen":"\u00e9"}}"#,
    #"{"type":"geo.heading","payload":{"heading":1},}"#,
    "not json",
    #"{"type":"geo.heading","type":"geo.heading","payload":{}}"#,
    #"{ "type": "geo.heading", "payload": {"heading": 3} }"#,
    #"{"type":"heading","payload":{}}"#,
    #"{"type":"geo.heading","payload":{"heading":1}} x"#,
    #"{"type":"geo.heading","extra":{"a":1},"payload":{"heading":4}}"#,
    "{\n\"type\":\"geo.heading\",\n\"payload\":{\"heading\":5}\n}",
    #"{"type":"unknown.thing","payload":{"x":[1,2]}}"#,
    #"{"type":"geo.heading","source":"compass","payload":{"heading":2}}"#,
    "",
    #"{"type":"geo.heading","ts":"not a time","payload":{}}"#,
    #"{"type":"geo.heading","payload":"heading"}"#,
    #"{"type":"geo.heading","payload":{"heading":1}"#,
    #"{"type":"geo.heading\u0000","payload":{}}"#,
  ]

  /// Message shapes, `P` standing for the payload string.
  private static let messages = [
    #"{"topic":"t","partition":0,"offset":1,"tstype":"create","ts":1795339800250,"broker":1,"#
      + #""key":"k","payload":P}"#,
    #"{"payload":P,"topic":"t","ts":1795339800250}"#,
    #"{"topic":"t","ts":1795339800250,"key":null,"payload":P,"headers":["h","v"]}"#,
    #"{"topic":"t","payload":P}"#,
    #"{"ts":1795339800250,"payload":P}"#,
    #"{"topic":"t","ts":"1795339800250","payload":P}"#,
    #"{"topic":"t","ts":1795339800250,"ts":1,"payload":P}"#,
    #"{"topic":"t","ts":1795339800250,"payload":P,"ok":true}"#,
    #"{"topic":7,"payload":P}"#,
    #"{"topic":"t","payload":P,"key":"a\"b"}"#,
    #"{"topic":"t","ts":1.7953398002505e12,"payload":P}"#,
    #"{"topic":"t","ts":-1,"payload":P}"#,
    #"{"topic":"t","payload":P,"payload":P}"#,
    #"{"topic":"t","payload":P} "#,
    #"{"topic":"t","payload":P,"#,
    #"{"topic":"t","payload":P,"x":{"a":1,"a":2}}"#,
    #"{"topic":"t","payload":P,"x":tru}"#,
    #"{"topic":"t","payload":P,"x":01}"#,
  ]

  /// The JSON string that holds `text`, escaping `/` too when asked.
  private static func string(_ text: String, escapingSlashes: Bool = false) -> String {
    var quoted = "\""
    for character in text.unicodeScalars {
      switch character {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case "\n": quoted += "\\n"
      case "/" where escapingSlashes: quoted += "\\/"
      default: quoted.unicodeScalars.append(character)
      }
    }
    return quoted + "\""
  }

  private static func message(_ shape: String, _ event: String, escapingSlashes: Bool = false)
    -> String
  {
    shape.replacingOccurrences(
      of: "P", with: string(event, escapingSlashes: escapingSlashes))
  }

  /// Everything the classifier gives for `line`: each item's kind, envelope, time and origin,
  /// or its problem.
  private func describe(_ line: String, quickly: Bool) throws -> [String] {
    try describe(Array(line.utf8), quickly: quickly)
  }

  private func describe(_ bytes: [UInt8], quickly: Bool) throws -> [String] {
    let table = TypeTable(format: try #require(Self.kcat))
    var classifier = LineClassifier(input: 0, tracksTime: true, assumesPayloadEnd: false)
    classifier.readsInnerQuickly = quickly
    classifier.mapped = MappedEnvelopeReader(table: table)
    #expect((classifier.innerQuick != nil) == quickly)
    var arena = ByteArena()
    defer { arena.release() }
    var problems: [ReplayProblem] = []
    return bytes.withUnsafeBufferPointer { buffer in
      var items: [ReplayItem] = []
      classifier.classifySpecially(
        buffer, number: 1, isTooLong: false, problems: &problems, arena: &arena
      ) { items.append($0) }
      return items.map { item in
        var text = ""
        switch item.kind {
        case .event(let envelope):
          let context = envelope.context
          let type = envelope.mappedType.map { table.canonical($0).bytes }
          text =
            "event \(type.map { String(decoding: $0, as: UTF8.self) } ?? "?") "
            + "type \(envelope.typeStart)..<\(envelope.typeEnd) payload \(envelope.payloadStart) "
            + "ts \(context.timestamp?.description ?? "-") "
            + "at \(String(describing: context.timestampRange)) "
            + "value \(context.timestampValue.map { "\($0)" } ?? "-") "
            + "source \(context.source ?? "-") \(String(describing: context.sourceString)) "
            + "event at \(context.eventOffset ?? -1) "
            + "bytes \(String(decoding: envelope.line, as: UTF8.self))"
        case .problem(let index):
          switch problems[index] {
          case .invalid(let error): text = "problem at \(error.offset ?? -1): \(error)"
          case .readFailure(let message): text = "read failure \(message)"
          }
        case .dropped: text = "dropped"
        default: text = "other"
        }
        if item.originIndex >= 0 {
          let origin = classifier.origins[Int(item.originIndex)]
          text += " origin \(origin.place) \(origin.start) \(origin.length) \(origin.rawLength)"
        }
        text += " time \(item.time?.description ?? "-")"
        return text
      }
    }
  }

  /// Whether the quick reader itself takes the line.
  private func isReadQuickly(_ line: String) throws -> Bool {
    try isReadQuickly(Array(line.utf8))
  }

  private func isReadQuickly(_ bytes: [UInt8]) throws -> Bool {
    let format = try #require(Self.kcat)
    var quick = try #require(InnerEventQuickReader(table: TypeTable(format: format)))
    var arena = ByteArena()
    defer { arena.release() }
    var memo = RaspTimestamp.Memo()
    return bytes.withUnsafeBufferPointer { buffer in
      quick.read(buffer, arena: &arena, memo: &memo) != nil
    }
  }

  @Test func readsEveryMessageAsTheMapsReaderDoes() throws {
    var lines = Self.messages.flatMap { shape in
      Self.events.flatMap { event in
        [Self.message(shape, event), Self.message(shape, event, escapingSlashes: true)]
      }
    }
    lines += [#"{"topic":"t","payload":null}"#, #"{"topic":"t"}"#, "[1]", #"{"payload":7}"#]
    var quick = 0
    for line in lines {
      #expect(try describe(line, quickly: true) == describe(line, quickly: false), "\(line)")
      if try isReadQuickly(line) { quick += 1 }
    }
    // Counted by hand from the tables above: the message shapes 0-4, 7 and 11 are plain
    // (the others have a time in a string, a duplicate key, a source that is a number, an
    // escape, an exponent, a bad member or trailing bytes), and the events 0-2, 6-9, 16
    // (another member), 18 and 19 are what the quick envelope parser reads (the others have a
    // null, `\n`, whitespace, an escape in the type, a bad time or a mistake); each is written
    // with and without `\/`.
    #expect(quick == 7 * 10 * 2)
  }

  @Test func takesTheShapesProducersWrite() throws {
    let taken = [
      Self.message(Self.messages[0], Self.events[0]),
      Self.message(Self.messages[1], Self.events[1]),
      Self.message(Self.messages[2], Self.events[2], escapingSlashes: true),
      Self.message(Self.messages[3], Self.events[6]),
      Self.message(Self.messages[4], Self.events[9]),
      Self.message(Self.messages[7], Self.events[18]),
      Self.message(Self.messages[0], Self.events[8]),  // UTF-8 text, checked
    ]
    for line in taken { #expect(try isReadQuickly(line), "\(line)") }
    let left = [
      Self.message(Self.messages[0], Self.events[17]),  // `\n`
      Self.message(Self.messages[5], Self.events[0]),  // a time in a string
      Self.message(Self.messages[6], Self.events[0]),  // a duplicate key
      Self.message(Self.messages[9], Self.events[0]),  // an escape in another string
      Self.message(Self.messages[0], Self.events[4]),  // a null time
      #"{"topic":"t","payload":null}"#,
    ]
    for line in left { #expect(try !isReadQuickly(line), "\(line)") }
  }

  @Test func readsIllFormedUTF8AsTheMapsReaderDoes() throws {
    let shape = Array(
      Self.message(Self.messages[0], #"{"type":"nav.push","payload":{"screen":"S"}}"#).utf8)
    let marker = try #require(shape.firstIndex(of: UInt8(ascii: "S")))
    // A stray continuation byte, an overlong '/', a surrogate, a sequence cut short by the
    // quote, a code point past U+10FFFF; a well-formed 'é' and '😀', which are read quickly.
    let texts: [(bytes: [UInt8], isWellFormed: Bool)] = [
      ([0x80], false), ([0xC0, 0xAF], false), ([0xED, 0xA0, 0x80], false), ([0xE2, 0x82], false),
      ([0xF4, 0x90, 0x80, 0x80], false), ([0xC3, 0xA9], true), ([0xF0, 0x9F, 0x98, 0x80], true),
    ]
    for text in texts {
      var line = shape
      line.replaceSubrange(marker...marker, with: text.bytes)
      #expect(try describe(line, quickly: true) == describe(line, quickly: false), "\(text)")
      #expect(try isReadQuickly(line) == text.isWellFormed, "\(text)")
    }
  }

  @Test func isMadeOnlyForEventsInRaspsOwnFormatAtTheTopLevel() throws {
    func quickReader(_ map: String) throws -> InnerEventQuickReader? {
      InnerEventQuickReader(
        table: TypeTable(format: try LogFormat(mapFile: Array(map.utf8), name: "m")))
    }
    #expect(try quickReader(#"{"inner":"payload","time":"ts","timeUnit":"ms"}"#) != nil)
    #expect(try quickReader(#"{"inner":"payload"}"#) != nil)
    #expect(try quickReader(#"{"inner":"payload","innerFormat":"fsa"}"#) == nil)
    #expect(try quickReader(#"{"inner":"value.json"}"#) == nil)
    #expect(try quickReader(#"{"inner":"payload","time":"meta.ts","timeUnit":"ms"}"#) == nil)
    #expect(try quickReader(#"{"inner":"payload","time":"ts|time","timeUnit":"ms"}"#) == nil)
    #expect(try quickReader(#"{"inner":"payload","source":"a.b"}"#) == nil)
    #expect(try quickReader(#"{"type":"{type}"}"#) == nil)
  }
}
