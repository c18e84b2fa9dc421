import RaspJSON
import Testing

@testable import RaspReplay

/// One part of an event's type as the router compares it: its length and first eight bytes
/// as one integer (loaded at once where the line has eight bytes there, byte by byte near the
/// line's end), the rest byte by byte; and a type written with escapes, by its text.
@Suite struct EventTypePartTests {
  /// The first eight bytes of `text` as a little-endian integer, zeros past its end: what
  /// ``EventTypePart/nameKey`` must give, computed another way.
  private func head(_ text: String) -> UInt64 {
    Array(text.utf8.prefix(8)).enumerated().reduce(0) { $0 | UInt64($1.1) << (8 * $1.0) }
  }

  /// Runs `body` on the part at `range` of `line`'s bytes.
  private func withPart<T>(
    _ line: String, _ range: Range<Int>, _ body: (EventTypePart) -> T
  ) -> T {
    Array(line.utf8).withUnsafeBufferPointer { bytes in
      body(EventTypePart(line: bytes, start: range.lowerBound, end: range.upperBound))
    }
  }

  @Test(arguments: [
    // A part with the line's rest after it, and parts that end the line, where fewer than
    // eight bytes are left to load.
    (#"{"type":"geo.heading"}"#, 9..<12, "geo"),
    (#"{"type":"geo.heading"}"#, 13..<20, "heading"),
    ("geo.heading", 4..<11, "heading"),
    ("lifecycle.x", 0..<9, "lifecycle"),
    ("a.b", 2..<3, "b"),
    ("abcdefgh", 0..<8, "abcdefgh"),
    ("x.abcdefghij", 2..<12, "abcdefghij"),
    (#"{"type":"longdomainname.e"}"#, 9..<23, "longdomainname"),
  ])
  func aPartsKeyIsItsLengthAndFirstEightBytes(line: String, range: Range<Int>, part: String) {
    let key = withPart(line, range) { $0.nameKey }
    #expect(key?.count == part.utf8.count)
    #expect(key?.head == head(part))
    #expect(withPart(line, range) { $0.string } == part)
    #expect(withPart(line, range) { $0.equals(Array(part.utf8)) })
    #expect(!withPart(line, range) { $0.equals(Array((part + "x").utf8)) })
    #expect(!withPart(line, range) { $0.equals(Array(part.utf8.dropLast())) })
  }

  @Test func comparesTheBytesAfterTheFirstEight() {
    let line = #"{"type":"longdomainname.e"}"#
    func tail(_ text: String) -> Bool {
      Array(text.utf8).withUnsafeBufferPointer { tail in
        withPart(line, 9..<23) { $0.tailEquals(tail) }
      }
    }
    #expect(tail("inname"))
    #expect(!tail("innamf"))
    #expect(!tail("jnname"))
    // A part of eight bytes or fewer has no tail to compare.
    #expect(
      Array("".utf8).withUnsafeBufferPointer { empty in
        withPart(line, 9..<17) { $0.tailEquals(empty) }
      })
  }

  @Test func aTypeWrittenWithEscapesIsComparedByItsText() throws {
    let line = #"{"type":"g\u0065o.h\u0065ading"}"#
    try Array(line.utf8).withUnsafeBufferPointer { bytes in
      let type = JSONRawString(start: 9, end: line.utf8.count - 2, hasEscapes: true)
      let domain = EventTypePart(line: bytes, escapedType: type, isDomain: true)
      let name = EventTypePart(line: bytes, escapedType: type, isDomain: false)
      #expect(domain.nameKey == nil)
      #expect(name.nameKey == nil)
      #expect(domain.string == "geo")
      #expect(name.string == "heading")
      #expect(domain.equals(Array("geo".utf8)))
      #expect(!domain.equals(Array("ge".utf8)))
      #expect(name.equals(Array("heading".utf8)))
    }
  }
}
