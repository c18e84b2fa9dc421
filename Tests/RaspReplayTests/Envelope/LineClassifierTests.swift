import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// The envelope stage on its own: each line made into its item — blank, too long, bad, an
/// event, dropped by its format, or, for a format whose lines hold batches, one item an
/// event — with the time a merge orders it by.
@Suite struct LineClassifierTests {
  /// What `classifier` makes of each line: `number kind`, with the time when there is one.
  private func classify(
    _ lines: [String], with classifier: inout LineClassifier, tooLong: Set<Int> = []
  ) -> [String] {
    let table = classifier.mapped?.table
    var problems: [ReplayProblem] = []
    var arena = ByteArena()
    var found: [String] = []
    // Each item is described while its line's bytes are there, as a batch keeps them.
    for (index, bytes) in lines.map({ Array($0.utf8) }).enumerated() {
      bytes.withUnsafeBufferPointer { bytes in
        var items: [ReplayItem] = []
        let number = index + 1
        if classifier.readsSpecially, classifier.readsSpecially(bytes) {
          classifier.classifySpecially(
            bytes, number: number, isTooLong: tooLong.contains(number), problems: &problems,
            arena: &arena
          ) { items.append($0) }
        } else {
          items.append(
            classifier.classify(
              bytes, number: number, isTooLong: tooLong.contains(number), problems: &problems))
        }
        for item in items {
          var kind: String
          switch item.kind {
          case .blank: kind = "blank"
          case .dropped: kind = "dropped"
          case .emptyBatch: kind = "emptyBatch"
          case .event(let envelope):
            kind = "event \(envelope.mappedType.flatMap { table?.string($0) } ?? envelope.type)"
          case .decoded, .passedOver: kind = "decoded"
          case .problem(let index):
            switch problems[index] {
            case .invalid(let error): kind = "invalid: \(error)"
            case .readFailure(let message): kind = "readFailure: \(message)"
            }
          case .notice: kind = "notice"
          }
          if item.membership != .ownLine { kind += " (\(item.membership))" }
          if let time = item.time { kind += " at \(time)" }
          found.append("\(item.lineNumber) \(kind)")
        }
      }
    }
    return found
  }

  @Test func makesEachLineItsItem() {
    var classifier = LineClassifier(input: 0, tracksTime: false, assumesPayloadEnd: true)
    let found = classify(
      [
        #"{"type":"geo.heading","ts":"2026-11-22T09:30:00Z","payload":{"heading":1}}"#,
        " \t ",
        "",
        "x",
        #"{"type":"nav.pop"}"#,
        "",
      ], with: &classifier, tooLong: [6])
    #expect(
      found == [
        "1 event geo.heading", "2 blank", "3 blank",
        "4 invalid: invalid literal 'x': strings must be in double quotes",
        "5 event nav.pop",
        "6 invalid: line is longer than the limit of \(JSONLimits.maximumLineLength) bytes",
      ])
  }

  @Test func aLineWithoutTimeIsOrderedAtTheTimeBeforeItWhenTimesAreTracked() {
    var classifier = LineClassifier(input: 2, tracksTime: true, assumesPayloadEnd: true)
    let found = classify(
      [
        #"{"type":"nav.pop"}"#,
        #"{"type":"nav.pop","ts":"2026-11-22T09:30:00Z"}"#,
        #"{"type":"nav.pop"}"#,
        "bad",
        #"{"type":"nav.pop","ts":1795339801}"#,
        "",
      ], with: &classifier)
    #expect(
      found == [
        "1 event nav.pop",
        "2 event nav.pop at 2026-11-22T09:30:00Z",
        "3 event nav.pop at 2026-11-22T09:30:00Z",
        "4 invalid: invalid literal 'bad': strings must be in double quotes "
          + "at 2026-11-22T09:30:00Z",
        "5 event nav.pop at 2026-11-22T09:30:01Z",
        "6 blank at 2026-11-22T09:30:01Z",
      ])
  }

  @Test func aFormatsDroppedTypesAreDropped() throws {
    var classifier = LineClassifier(input: 0, tracksTime: false, assumesPayloadEnd: true)
    let format = try #require(LogFormat.preset(named: "fsa"))
    classifier.mapped = MappedEnvelopeReader(table: TypeTable(format: format))
    let found = classify(
      [#"{"type":"@@INIT"}"#, #"{"type":"nav/pop"}"#, #"{"type":"ADD_TODO"}"#],
      with: &classifier)
    #expect(found[0] == "1 dropped")
    #expect(found[1] == "2 event nav.pop")
    #expect(found[2].hasPrefix("3 invalid: "))
    #expect(found[2].contains("'ADD_TODO' has no '/' between a domain and an event"))
  }

  @Test func aBatchLineIsAnItemAnEventAndAnEmptyOneIsNoEvent() throws {
    var classifier = LineClassifier(input: 0, tracksTime: false, assumesPayloadEnd: true)
    let format = try #require(LogFormat.preset(named: "cloudevents"))
    classifier.mapped = MappedEnvelopeReader(table: TypeTable(format: format))
    let event = { (type: String) in
      #"{"specversion":"1.0","type":"\#(type)","source":"s","id":"1","data":{"heading":1}}"#
    }
    // Only a line that is an array is read as a batch.
    #expect(classifier.readsSpecially)
    #expect(Array("[]".utf8).withUnsafeBufferPointer { classifier.readsSpecially($0) })
    #expect(
      !Array(event("io.geo.heading").utf8).withUnsafeBufferPointer {
        classifier.readsSpecially($0)
      })
    let found = classify(
      [
        "[\(event("io.geo.heading")),\(event("io.nav.pop"))]", event("io.nav.pop"), " [ ] ",
      ], with: &classifier)
    #expect(
      found == [
        "1 event geo.heading (firstOfLine)", "1 event nav.pop (laterInLine)",
        "2 event nav.pop", "3 emptyBatch",
      ])
  }
}
