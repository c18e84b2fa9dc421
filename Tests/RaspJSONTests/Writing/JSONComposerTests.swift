import RaspTestSupport
import Testing

@testable import RaspJSON

/// What a composer writes is what the writer writes, byte for byte.
@Suite struct JSONComposerTests {
  /// The writer's bytes for `value`.
  private func written(_ value: Double) -> [UInt8] {
    var writer = JSONWriter()
    writer.writeNumber(value)
    return writer.bytes
  }

  /// The composer's bytes for `value`, appended after `{`.
  private func composed(_ value: Double) -> [UInt8] {
    var writer = JSONWriter()
    writer.writeRaw("{")
    writer.writeComposed(maximumCount: 40) { $0.writeNumber(value) }
    return Array(writer.bytes.dropFirst())
  }

  @Test func writesNumbersAsTheWriterDoes() {
    var values: [Double] = [
      0, -0.0, 1, -1, 9, 10, 271.5, 139.9, 52.520002, -13.405003, 0.1, 1e-4, 9.99e-5, 1e-5,
      1e15, 1e15 - 1, 123_456_789.123_456_789, 9_007_199_254_740_991, 9_007_199_254_740_992,
      -9_007_199_254_740_992, -9_007_199_254_740_994, 1.5e300, -2.2250738585072014e-308,
      .greatestFiniteMagnitude,
      -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .nan, .infinity, -.infinity, 0.3, 2.0 / 3,
    ]
    // Random bit patterns, and random short decimals as sensors give.
    var generator = SplitMix64(seed: 38)
    for _ in 0..<20_000 {
      values.append(Double(bitPattern: generator.next()))
      let units = Double(Int64(generator.next() % 2_000_000_000) - 1_000_000_000)
      values.append(units / Double([1, 10, 100, 1000, 1_000_000][Int(generator.next() % 5)]))
    }
    for value in values {
      #expect(composed(value) == written(value), "\(value)")
    }
  }

  @Test func writesStringsAsTheWriterDoes() {
    // Every length up to 40, so that the bytes to escape fall at every place of an eight-byte
    // word and of the tail after the last whole word; of bytes the writer escapes, bytes just
    // beside them (space, `!`, `#`, `[`, `]`, `~`), and the bytes of longer characters.
    let pieces = [
      "a", "Z", " ", "!", "#", "[", "]", "~", "\"", "\\", "\u{7F}", "\u{0}", "\u{1}", "\u{1F}",
      "\n", "\r", "\t", "\u{8}", "\u{C}", "é", "日", "🧭", "\u{80}", "\u{FF}",
    ]
    let letters = ["a", "b", "c", "d", "e", "f", "g", "h"]
    var generator = SplitMix64(seed: 40)
    var texts = ["", "plain ascii text of some length", String(repeating: "\u{1}", count: 33)]
    for length in 0...40 {
      for _ in 0..<60 {
        var text = ""
        for _ in 0..<length {
          // Mostly plain letters, as names are, so that whole clean words occur.
          let draw = Int(generator.next() % 64)
          text += draw < 40 ? letters[draw % letters.count] : pieces[draw % pieces.count]
        }
        texts.append(text)
      }
    }
    for text in texts {
      var expected = JSONWriter()
      expected.writeString(text)
      var writer = JSONWriter()
      writer.writeComposed(maximumCount: JSONComposer.maximumCount(ofString: text)) {
        $0.writeString(text)
      }
      #expect(writer.bytes == expected.bytes, "\(Array(text.utf8))")
    }
  }

  @Test func readsTheLastBytesOfATextAsOneWordPaddedWithSpaces() {
    // Texts of every length to 20, each tail of 2 to 7 bytes: the word holds those bytes
    // first, then spaces, whether it was read as one word or as two overlapping pieces.
    var generator = SplitMix64(seed: 7)
    for length in 2...20 {
      let text = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      for rest in 2...min(7, length) where length < 8 ? rest == length : true {
        var expected = Array(text.suffix(rest))
        expected += [UInt8](repeating: UInt8(ascii: " "), count: 8 - rest)
        let word = text.withUnsafeBytes {
          JSONComposer.tailWord($0.baseAddress!, length: length, rest: rest)
        }
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
        #expect(bytes == expected, "length \(length), rest \(rest)")
      }
    }
  }

  @Test func rendersDecimalsAndIntegersAsTheirDigits() {
    // The digits Swift's own integer description gives, the point put in by hand.
    var generator = SplitMix64(seed: 26)
    var cases: [(UInt64, Int)] = [(0, 1), (5, 1), (5, 9), (10, 1), (99, 2), (100, 2)]
    for _ in 0..<5_000 {
      let units = generator.next() % 2_251_799_813_685_248 >> (generator.next() % 50)
      cases.append((units, Int(generator.next() % 9) + 1))
    }
    for (units, fractionDigits) in cases {
      for negative in [false, true] {
        var digits = String(units)
        if digits.count <= fractionDigits {
          digits = String(repeating: "0", count: fractionDigits + 1 - digits.count) + digits
        }
        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -fractionDigits))
        let expected = (negative ? "-" : "") + digits
        var room = [UInt8](repeating: 0, count: 32)
        let count = room.withUnsafeMutableBufferPointer {
          JSONWriter.render(
            units: units, fractionDigits: fractionDigits, negative: negative,
            into: $0.baseAddress!)
        }
        #expect(String(decoding: room.prefix(count), as: UTF8.self) == expected)
      }
    }
    var integers: [Int64] = [0, 9, 10, -1, -10, 99, 100, .max, .min]
    for _ in 0..<5_000 {
      integers.append(Int64(bitPattern: generator.next()) >> (generator.next() % 63))
    }
    for integer in integers {
      var room = [UInt8](repeating: 0, count: 21)
      let count = room.withUnsafeMutableBufferPointer {
        JSONWriter.render(integer: integer, into: $0.baseAddress!)
      }
      #expect(String(decoding: room.prefix(count), as: UTF8.self) == String(integer))
    }
  }

  @Test func findsTheBytesToEscapeInAWord() {
    // Each byte value at each of the eight places, among bytes that need no escape.
    for place in 0..<8 {
      for value in 0...255 {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
        bytes[place] = UInt8(value)
        let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        let escaped = value < 0x20 || value == 0x22 || value == 0x5C || value == 0x7F
        #expect(JSONComposer.needsEscape(word) == escaped, "\(value) at \(place)")
      }
    }
  }

  @Test func writesRawTextAndNull() {
    var writer = JSONWriter()
    writer.writeComposed(maximumCount: 32) { json in
      json.writeRaw("{\"a\":")
      json.writeNull()
      json.writeRaw("}")
    }
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a":null}"#)
  }
}
