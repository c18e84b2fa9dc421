import Testing
import RaspReplay
import RaspDomains
import RaspJSON

@Suite struct RaspEventContextTests {
  private func context<T>(_ line: String, _ body: (RaspEventContext) -> T) throws -> T {
    let bytes = Array(line.utf8)
    let result: Result<T, RaspEventError> = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(RaspEventError) in body(try Envelope.parse(buffer).context) }
    }
    return try result.get()
  }

  @Test func keepsTheTimestampAsTheLogWroteIt() throws {
    #expect(
      try context(#"{"type":"a.b","ts":"2026-11-22T09:30:00.000+01:00"}"#) { $0.timestampValue }
        == .string("2026-11-22T09:30:00.000+01:00"))
    #expect(try context(#"{"type":"a.b","ts":1795336200}"#) { $0.timestampValue } == 1795336200)
    #expect(try context(#"{"type":"a.b","ts":null}"#) { $0.timestampValue } == nil)
    #expect(try context(#"{"type":"a.b"}"#) { $0.timestampValue } == nil)
  }

  @Test func readsTheSource() throws {
    #expect(try context(#"{"type":"a.b","source":"gps\u0031"}"#) { $0.source } == "gps1")
    #expect(try context(#"{"type":"a.b"}"#) { $0.source } == nil)
  }

  @Test func noneHasNeitherTimeNorSource() {
    #expect(RaspEventContext.none.timestamp == nil)
    #expect(RaspEventContext.none.timestampValue == nil)
    #expect(RaspEventContext.none.source == nil)
  }
}
