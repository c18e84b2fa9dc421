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

  /// Lines in the order the recorder writes, each read in that order, and lines one byte away
  /// from them: read in that order, key by key, or carefully, the envelope is the careful
  /// reader's.
  @Test func readsTheRecordedOrderAsTheCarefulReaderDoes() {
    let recorded = [
      #"{"ts":"2026-11-22T09:30:00.005Z","source":"ui","type":"nav.push","#
        + #""payload":{"screen":"orders"}}"#,
      #"{"ts":"2026-11-22T09:30:00.428Z","source":"ui","type":"nav.pop"}"#,
      // A shorter time, whose line has a quote where a usual time's would end.
      #"{"ts":"2026-11-22T09:30:00.5Z","source":"ui","type":"nav.pop"}"#,
      #"{"ts":"2026-11-22T09:30:00+01:00","source":"compass","type":"geo.heading","#
        + #""payload":{"heading":139.9},"x":1}"#,
    ]
    let replacements = Array(#"{}",:.Z0 "#.utf8) + [0xC3]
    for (index, line) in recorded.enumerated() {
      let bytes = Array(line.utf8)
      bytes.withUnsafeBufferPointer { buffer in
        var memo = RaspTimestamp.Memo()
        let read = Envelope.parseInRecordedOrder(buffer, memo: &memo, assumingPayloadEnd: false)
        // The last has a member after the payload: read key by key.
        #expect((read != nil) == (index < 3), "\(line)")
      }
      var variants = [bytes]
      for offset in bytes.indices {
        var without = bytes
        without.remove(at: offset)
        variants.append(without)
        for byte in replacements where byte != bytes[offset] {
          var changed = bytes
          changed[offset] = byte
          variants.append(changed)
        }
      }
      for variant in variants {
        variant.withUnsafeBufferPointer { buffer in
          let careful = describe { () throws(RaspEventError) in
            try Envelope.parseCarefully(buffer)
          }
          for assuming in [false, true] {
            var memo = RaspTimestamp.Memo()
            // An assumed payload's end is confirmed when the payload is read.
            if let read = Envelope.parseInRecordedOrder(
              buffer, memo: &memo, assumingPayloadEnd: assuming),
              !assuming || (try? read.checkPayload()) != nil
            {
              #expect(describe { read } == careful, "\(String(decoding: variant, as: UTF8.self))")
            }
          }
        }
      }
    }
  }
}
