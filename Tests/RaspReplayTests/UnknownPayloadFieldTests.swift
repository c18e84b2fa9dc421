import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// A payload field that the event's type does not define (`acuracy` in a `geo.location`):
/// outside `--strict` the event is applied, counted, and the first event of each type and
/// field is kept for a warning; under `--strict` it is a bad line. Schemas that take other
/// fields (a REST response), spec domains (whose fields are what their operations read) and
/// whole records a map takes for the payload are not checked outside `--strict`.
@Suite struct UnknownPayloadFieldTests {
  /// The statistics of a replay of `lines`, and the bad lines' messages.
  private func replay(
    _ lines: [String], domains: [any RaspDomain] = [GeoDomain(), NavDomain()],
    _ configure: (inout ReplayConfiguration) -> Void = { _ in }
  ) -> (statistics: ReplayStatistics, skipped: [String]) {
    var configuration = ReplayConfiguration(domains: domains)
    configuration.errorMode = .skip
    configure(&configuration)
    let input = ReplayInput(
      name: "a.jsonl",
      source: .memory(JSONMemorySource(Array(lines.joined(separator: "\n").utf8))))
    var replay = Replay(configuration: configuration, inputs: [input])
    var output: [UInt8] = []
    var skipped: [String] = []
    var statistics = ReplayStatistics()
    while let outcome = replay.next(appendingTo: &output) {
      switch outcome {
      case .skipped(let diagnostic): skipped.append("\(diagnostic)")
      case .end(let summary): statistics = summary.statistics
      default: break
      }
    }
    return (statistics, skipped)
  }

  static let typo =
    #"{"type":"geo.location","payload":{"latitude":1,"longitude":2,"acuracy":3}}"#
  static let note = #"{"type":"geo.heading","device":"d1","payload":{"heading":1,"note":"x"}}"#
  static let altitude =
    #"{"type":"geo.location","payload":{"altitude":9,"latitude":1,"longitude":2}}"#

  @Test func eachTypeAndFieldIsNamedOnceAtItsFirstEventAndEveryEventCounted() {
    let result = replay([Self.typo, Self.note, Self.typo, Self.altitude, Self.note])
    #expect(result.skipped.isEmpty)
    #expect(result.statistics.applied == 5)
    #expect(result.statistics.withUnknownField == 5)
    // Columns counted by hand: the key's opening quote.
    #expect(
      result.statistics.unknownFields == [
        .init(
          type: "geo.location", field: "payload.acuracy", inputName: "a.jsonl", line: 1,
          column: 62, nearest: "payload.accuracy"),
        .init(
          type: "geo.heading", field: "payload.note", inputName: "a.jsonl", line: 2, column: 60,
          nearest: nil),
        .init(
          type: "geo.location", field: "payload.altitude", inputName: "a.jsonl", line: 4,
          column: 35, nearest: "payload.latitude"),
      ])
    #expect(
      result.statistics.summary
        == "rasp: 5 lines read: 5 applied (5 events' unknown payload fields ignored), "
        + "0 skipped, 0 ignored, 0 blank\n")
    #expect(
      result.statistics.unknownFieldWarning(
        result.statistics.unknownFields[0], at: "a.jsonl:1:62")
        == "rasp: warning: unknown field 'payload.acuracy' of 'geo.location' ignored, first at "
        + "a.jsonl:1:62 (did you mean 'payload.accuracy'?); --strict makes this an error\n")
  }

  @Test func underStrictItIsABadLine() {
    let result = replay([Self.typo, Self.note]) { $0.isStrict = true }
    #expect(result.statistics.applied == 0)
    #expect(result.statistics.withUnknownField == 0)
    #expect(result.statistics.unknownFields.isEmpty)
    #expect(
      result.skipped == [
        "a.jsonl:1:62: unknown field 'payload.acuracy'; did you mean 'payload.accuracy'?",
        "a.jsonl:2:60: unknown field 'payload.note'",
      ])
  }

  @Test func aLineNotAppliedIsNotCounted() {
    // The unknown field comes with a missing required one: a bad line, only that.
    let result = replay([#"{"type":"geo.location","payload":{"latitud":1,"longitude":2}}"#])
    #expect(result.statistics.skipped == 1)
    #expect(result.statistics.withUnknownField == 0)
    #expect(result.statistics.unknownFields.isEmpty)
  }

  @Test func theKeyOfAKeyedReplayIsAField() throws {
    let result = replay([Self.note.replacing(#""note":"x""#, with: #""deviceId":"d1""#)]) {
      $0.keyPath = try? JSONPath("payload.deviceId")
    }
    #expect(result.statistics.withUnknownField == 0)
  }

  @Test func schemasThatTakeOtherFieldsAreNotChecked() throws {
    // A REST response's resource has members of its own beside its links.
    let response =
      #"{"type":"rest.response","payload":{"status":"paid","total":3,"links":{"self":"/o"}}}"#
    let rest = replay([response], domains: [RestDomain()])
    #expect(rest.statistics.applied == 1)
    #expect(rest.statistics.withUnknownField == 0)
    // A spec's event has the fields its operations read; a payload has others.
    let spec = try RaspSpec(
      parsing: Array(
        #"""
        {"domains": [{"name": "cart", "initial": {"items": []}, "events": [
          {"name": "add", "ops": [{"op": "append", "path": "items", "from": "payload.sku"}]}]}]}
        """#.utf8))
    let line = #"{"type":"cart.add","payload":{"sku":"A1","price":3}}"#
    let cart = replay([line], domains: spec.domains)
    #expect(cart.statistics.applied == 1)
    #expect(cart.statistics.withUnknownField == 0)
    // --strict still refuses it, as before.
    let strict = replay([line], domains: spec.domains) { $0.isStrict = true }
    #expect(strict.skipped == ["a.jsonl:1:42: unknown field 'payload.price'"])
  }

  @Test func aWholeRecordTakenForThePayloadIsNotChecked() throws {
    // A map whose payload is the whole record: its other members are the envelope's.
    let map = #"{"format": "fix", "type": "geo.location", "payload": ".", "time": "t"}"#
    let format = try LogFormat(mapFile: Array(map.utf8), name: "fix.map.json")
    let result = replay([#"{"latitude":1,"longitude":2,"t":"2026-11-22T09:00:00Z"}"#]) {
      $0.format = format
    }
    #expect(result.statistics.applied == 1)
    #expect(result.statistics.withUnknownField == 0)
  }

  /// The quick look at a payload's keys agrees with the keys a parser finds, for payloads of
  /// every shape: nested values, strings with quotes, brackets and commas, whitespace.
  @Test(arguments: [
    (#"{"heading":1}"#, true),
    (#"{}"#, true),
    (#"{ "heading" : 1 , "accuracy" : null } "#, true),
    (#"{"heading":"a,\"}b]","accuracy":[1,{"x":"}"}]}"#, true),
    (#"{"heading":{"deep":[1,2,{"accuracy":3}]},"note":1}"#, false),
    (#"{"heading":1,"headin":2}"#, false),
    (#"{"head\u0069ng":1}"#, false),  // escaped: the careful scan decides (and finds it known)
    (#"{"heading":1"#, false),
    (#"{"heading":"#, false),
    (#"[1]"#, false),
  ])
  func theQuickLookAtTheKeys(_ payload: String, _ expected: Bool) throws {
    let fields = PayloadFieldNames(["heading", "accuracy"])
    let bytes = Array(payload.utf8)
    let quick = bytes.withUnsafeBufferPointer { fields.holdsAll(in: $0, at: 0) }
    #expect(quick == expected, "\(payload)")
    // Where the quick look says yes, a parser finds only fields.
    if quick, let keys = try JSONNode.read(bytes).members?.map(\.key) {
      #expect(keys.allSatisfy(fields.names.contains))
    }
  }
}
