import Testing
import RaspDomains
import RaspJSON

@Suite struct RaspEventErrorTests {
  @Test func describesEveryReason() {
    let reasons: [(RaspEventError.Reason, String)] = [
      (.notAnObject(found: "an array"), "an event must be a JSON object, found an array"),
      (.missingField("payload.screen"), "missing required field 'payload.screen'"),
      (
        .wrongType(field: "payload.tab", expected: "a string", found: "null"),
        "field 'payload.tab' must be a string, found null"
      ),
      (
        .invalidValue(field: "payload.key", reason: "must not be empty"),
        "invalid value for field 'payload.key': must not be empty"
      ),
      (.duplicateField("ts"), "duplicate field 'ts'"),
      (.unknownType("geo.altitude"), "unknown event type 'geo.altitude'"),
      (
        .rejected("cannot pop: the navigation stack is empty"),
        "event rejected: cannot pop: the navigation stack is empty"
      ),
    ]
    for (reason, message) in reasons {
      #expect("\(RaspEventError(offset: nil, reason: reason))" == message)
    }
  }

  @Test func shortensALongUnknownType() {
    let type = "geo." + String(repeating: "x", count: 100)
    #expect(
      "\(RaspEventError(offset: 0, reason: .unknownType(type)))"
        == "unknown event type 'geo.\(String(repeating: "x", count: 36))… (104 characters)'")
  }

  @Test func wrapsSyntaxErrorsWithTheirOffset() {
    let error = RaspEventError(JSONError(offset: 3, reason: .nulByte))
    #expect(error.offset == 3)
  }
}
