import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// How an envelope knows where its type's two parts are (``Envelope/TypeSpelling``): the dot's
/// place in a plain type, an escaped type read by unescaping, a type a map file made by its
/// number — each kept in one number, and read back as it was written.
@Suite struct EnvelopeTypeSpellingTests {
  /// The spelling and the two parts of the type of `line`, read by the envelope parser.
  private func spelling(_ line: String) throws -> (Envelope.TypeSpelling, String, String) {
    let bytes = Array(line.utf8)
    return try bytes.withUnsafeBufferPointer { buffer in
      let envelope = try Envelope.parse(buffer)
      return (envelope.typeSpelling, envelope.domain.string, envelope.name.string)
    }
  }

  @Test func aPlainTypeIsSplitAtItsDot() throws {
    let line = #"{"type":"geo.heading","payload":{"heading":1}}"#
    // The oracle: the offset of the first "." inside the type string, found by hand.
    let dot = try #require(Array(line.utf8).firstIndex(of: UInt8(ascii: ".")))
    let (spelling, domain, name) = try spelling(line)
    #expect(spelling == .dotted(at: dot))
    #expect(domain == "geo")
    #expect(name == "heading")
  }

  @Test func anEscapedTypeIsReadByUnescaping() throws {
    let (spelling, domain, name) = try spelling(#"{"type":"geo\u002eheading"}"#)
    #expect(spelling == .escaped)
    #expect(domain == "geo")
    #expect(name == "heading")
  }

  @Test func aMappedTypeKeepsItsNumberAndNoDot() {
    let bytes = Array(#"{"kind":"x"}"#.utf8)
    for number: Int32 in [0, 1, 41, Int32.max - 2] {
      let envelope = bytes.withUnsafeBufferPointer { buffer in
        Envelope(
          line: buffer, mappedType: number, typeRange: 8..<11, payloadOffset: nil,
          timestamp: nil, timestampRange: nil, source: nil)
      }
      #expect(envelope.typeSpelling == .mapped(number))
      #expect(envelope.mappedType == number)
    }
  }

  @Test func eachSpellingIsReadBackFromItsCode() {
    let spellings: [Envelope.TypeSpelling] = [
      .dotted(at: 0), .dotted(at: 12), .dotted(at: Int(Int32.max)), .escaped, .mapped(0),
      .mapped(7), .mapped(Int32.max - 2),
    ]
    for spelling in spellings {
      #expect(Envelope.TypeSpelling(code: Envelope.TypeSpelling.code(of: spelling)) == spelling)
    }
    // Distinct spellings never share a code.
    let codes = spellings.map(Envelope.TypeSpelling.code(of:))
    #expect(Set(codes).count == codes.count)
  }
}
