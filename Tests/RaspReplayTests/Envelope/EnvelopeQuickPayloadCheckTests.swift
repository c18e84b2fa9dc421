import RaspJSON
import Testing

@testable import RaspReplay

/// The quick check of a payload accepts only payloads the scanner's full check accepts, ending
/// where it ends, and gives the plain payloads loggers write to neither.
@Suite struct EnvelopeQuickPayloadCheckTests {
  /// Payloads of the shapes loggers write, each read by the quick check itself.
  private static let plain = [
    #"{}"#,
    #"{"heading":139.9}"#,
    #"{"latitude":52.520002,"longitude":-13.405003,"accuracy":5}"#,
    #"{"rel":"payment","href":"/orders/1000/payment"}"#,
    #"{"status":200,"links":{"self":{"href":"/orders/9587"},"edit":"/orders/9587/edit"}}"#,
    #"{"a":[],"b":[1,"x",true,false,null,{"c":0}],"d":{},"e":-0.5,"f":"\#u{7F}"}"#,
    #"{"a":"","b":"","c":"","d":"","e":"","f":"","g":"","h":""}"#,
    #"{"k":1,"kk":2,"kkk":{"k":1}}"#,
  ]

  /// Where the scanner's full check ends the value at `start`, or `nil` when it refuses it.
  private func fullEnd(_ line: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
    var scanner = JSONScanner(line, position: start)
    scanner.depth = 1
    guard (try? scanner.skipValue()) != nil else { return nil }
    return scanner.position
  }

  /// Checks one payload in a line: what the quick check accepts, the full check accepts too,
  /// ending at the same byte; returns whether the quick check read it.
  @discardableResult
  private func check(_ payload: [UInt8], sourceLocation: SourceLocation = #_sourceLocation)
    -> Bool
  {
    let line = Array(#"{"type":"geo.heading","payload":"#.utf8) + payload + [UInt8(ascii: "}")]
    let start = 32
    return line.withUnsafeBufferPointer { bytes in
      guard let quick = Envelope.quickPayloadEnd(in: bytes, at: start) else { return false }
      #expect(
        fullEnd(bytes, at: start) == quick, "\(String(decoding: payload, as: UTF8.self))",
        sourceLocation: sourceLocation)
      return true
    }
  }

  @Test func readsThePlainPayloadsLoggersWrite() {
    for payload in Self.plain {
      #expect(check(Array(payload.utf8)), "\(payload)")
    }
  }

  @Test func leavesOtherPayloadsToTheFullCheck() {
    let others = [
      #"{"a":1,"a":2}"#,  // a duplicate key: the scanner names it
      #"{"a":{"b":1,"b":1}}"#,
      #"{"a":1e5}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":-}"#, #"{"a":.5}"#,
      #"{"a":"\n"}"#, #"{"a":"é"}"#, #"{"a\u0041":1}"#,
      #"{ "a":1}"#, #"{"a" :1}"#, #"{"a":1,}"#, #"{"a":[1,]}"#, #"{"a":tru}"#, #"{"a":nul}"#,
      #"{"a":[1}"#, #"{"a":[[[[[[[[[1]]]]]]]]]}"#,
      #"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9}"#,
      #"{"a":1\#(String(repeating: "0", count: 300))}"#,
    ]
    for payload in others {
      #expect(!check(Array(payload.utf8)), "\(payload)")
    }
  }

  /// Every payload one byte away from a plain one — a byte replaced by one that matters to
  /// JSON, or taken out — is accepted by the quick check only as the full check accepts it.
  @Test func acceptsNoMistakeTheFullCheckRefuses() {
    let replacements: [UInt8] = Array(#""\,:{}[]0159.-+eEtfnulx "#.utf8) + [0x01, 0x7F, 0xC3]
    var quickly = 0
    for payload in Self.plain {
      let bytes = Array(payload.utf8)
      for index in bytes.indices {
        var without = bytes
        without.remove(at: index)
        if check(without) { quickly += 1 }
        for byte in replacements where byte != bytes[index] {
          var changed = bytes
          changed[index] = byte
          if check(changed) { quickly += 1 }
        }
      }
    }
    // Many of the changed payloads are still plain JSON, and read quickly.
    #expect(quickly > 500)
  }
}
