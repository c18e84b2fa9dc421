import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// The quick envelope parser reads a line exactly as the careful one does, or leaves it to it:
/// lines with members besides the envelope's (an app's `userId`, a device) included.
@Suite struct EnvelopeQuickParsingTests {
  /// The envelope's parts, or the error.
  private func describe(_ parse: () throws(RaspEventError) -> Envelope) -> String {
    do throws(RaspEventError) {
      let envelope = try parse()
      return "type \(envelope.type) payload \(envelope.payloadOffset ?? -1) "
        + "ts \(envelope.context.timestamp.map { "\($0)" } ?? "-") "
        + "at \(String(describing: envelope.context.timestampRange)) "
        + "source \(envelope.context.source ?? "-")"
    } catch {
      return "error at \(error.offset ?? -1): \(error)"
    }
  }

  private static let base =
    #""type":"geo.heading","ts":"2026-11-22T09:30:00Z","payload":{"heading":1}"#

  /// Lines, and whether the quick parser reads each itself.
  private static let lines: [(line: String, isQuick: Bool)] = [
    (#"{"device":"d42",\#(base)}"#, true),
    (#"{\#(base),"device":"d42"}"#, true),
    (#"{"n":-1.5,"t":true,"f":false,"z":null,\#(base)}"#, false),  // four others: careful
    (#"{"n":-1.5,"t":true,"z":null,\#(base)}"#, true),
    (#"{"a":[1,{"b":2}],"o":{"k":"v"},\#(base)}"#, true),
    (#"{"a":1,"a":2,\#(base)}"#, false),  // a duplicate: the careful reader says so
    (#"{"a":1,\#(base),"a":2}"#, false),
    (#"{"o":{"k":1,"k":2},\#(base)}"#, false),
    (#"{"tipe":"x",\#(base)}"#, true),  // a key as long as 'type' that is not it
    (#"{"tz":"x","sourcf":1,"payloads":2,\#(base)}"#, true),
    (#"{"e":1e3,\#(base)}"#, false),  // an exponent
    (#"{"e":1\#(String(repeating: "0", count: 400)),\#(base)}"#, false),  // out of range
    (#"{"e":1\#(String(repeating: "0", count: 99)),\#(base)}"#, true),
    (#"{"e":01,\#(base)}"#, false),  // not JSON
    (#"{"e":"caf\u00e9",\#(base)}"#, false),  // an escape
    (#"{"e":"café",\#(base)}"#, false),  // not ASCII
    (#"{"e":tru,\#(base)}"#, false),
    (#"{"e":[1,],\#(base)}"#, false),
    (#"{"e":"x"}"#, false),  // no type
    (#"{"e":1, \#(base)}"#, false),  // whitespace
  ]

  @Test func readsOtherMembersAsTheCarefulReaderDoes() {
    for (line, isQuick) in Self.lines {
      Array(line.utf8).withUnsafeBufferPointer { bytes in
        var memo = RaspTimestamp.Memo()
        let quick = Envelope.parseQuickly(bytes, memo: &memo)
        #expect((quick != nil) == isQuick, "\(line)")
        let careful = describe { () throws(RaspEventError) in try Envelope.parseCarefully(bytes) }
        if let quick {
          #expect(describe { quick } == careful, "\(line)")
        }
        // Whichever reads it, the line's envelope is the careful reader's.
        #expect(describe { () throws(RaspEventError) in try Envelope.parse(bytes) } == careful)
      }
    }
  }
}
