import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// An event as rasp read it (``Envelope/writtenAsRead(typeName:)``): rasp's own format,
/// whatever the log's, with only the members the event has.
@Suite struct EnvelopeAsReadTests {
  private func asRead(_ line: String, typeName: String) throws -> String {
    let bytes = Array(line.utf8)
    return try bytes.withUnsafeBufferPointer { buffer in
      String(decoding: try Envelope.parse(buffer).writtenAsRead(typeName: typeName), as: UTF8.self)
    }
  }

  @Test func theRoutedTypeTheTimeAndThePayloadAsWritten() throws {
    #expect(
      try asRead(
        #"{"source":"c","type":"geo.heading","ts":"2026-01-05T10:00:00Z","#
          + #""payload":{ "heading" : 1 }}"#,
        typeName: "geo.heading")
        == #"{"payload":{ "heading" : 1 },"ts":"2026-01-05T10:00:00Z","type":"geo.heading"}"#)
  }

  @Test func withoutTheMembersTheEventDoesNotHave() throws {
    #expect(try asRead(#"{"type":"nav.pop"}"#, typeName: "nav.pop") == #"{"type":"nav.pop"}"#)
    #expect(
      try asRead(#"{"type":"Nav.Pop","payload":{"a":[1]}}"#, typeName: "nav.pop")
        == #"{"payload":{"a":[1]},"type":"nav.pop"}"#)
  }
}
