/// A short piece of canonical JSON composed on the stack, which a ``JSONWriter`` appends in one
/// go (``JSONWriter/writeComposed(maximumCount:_:)``).
///
/// Each of the writer's appends to its array costs a check of the array's uniqueness and
/// capacity besides the copy, several times what writing a few bytes does. A domain whose JSON
/// has a known largest size — geo's four numbers and their keys — composes it here and pays for
/// one append. What it writes is the writer's bytes exactly: numbers take the same steps
/// (`JSONComposerTests` compares them).
///
/// ```swift
/// writer.writeComposed(maximumCount: 64) { json in
///   json.writeRaw("{\"heading\":")
///   json.writeNumber(271.5)
///   json.writeRaw("}")
/// }
/// ```
@usableFromInline package struct JSONComposer {
  /// The buffer, of ``capacity`` bytes.
  @usableFromInline let base: UnsafeMutablePointer<UInt8>
  /// How many bytes the buffer holds.
  @usableFromInline let capacity: Int
  /// How many bytes were written.
  @usableFromInline var count = 0

  @inlinable
  init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
    self.base = base
    self.capacity = capacity
  }

  /// Writes bytes as they are, for text already known to be valid JSON.
  ///
  /// - Parameter text: The text.
  @inlinable
  @inline(__always)
  package mutating func writeRaw(_ text: StaticString) {
    let length = text.utf8CodeUnitCount
    precondition(count + length <= capacity, "JSONComposer: more than its maximum count")
    (base + count).update(from: text.utf8Start, count: length)
    count += length
  }

  /// Writes `null`.
  @inlinable
  @inline(__always)
  package mutating func writeNull() {
    writeRaw("null")
  }

  /// Writes a double as the writer's `writeNumber(_:)` does: NaN and infinities as `null`,
  /// integral values below 2⁵³ as integers, then the shortest round-trip form.
  ///
  /// At most 26 bytes.
  ///
  /// - Parameter value: The double.
  @inlinable
  @inline(__always)
  package mutating func writeNumber(_ value: Double) {
    guard value.isFinite else {
      writeNull()
      return
    }
    precondition(count + 32 <= capacity, "JSONComposer: more than its maximum count")
    if value.magnitude < 9_007_199_254_740_992 {
      let integer = Int64(value)
      if Double(integer) == value {
        count += JSONWriter.render(integer: integer, into: base + count)
        return
      }
    }
    if let (units, fractionDigits) = JSONWriter.shortDecimal(value) {
      count += JSONWriter.render(
        units: units, fractionDigits: fractionDigits, negative: value < 0, into: base + count)
      return
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    for byte in text.utf8 {
      base[count] = byte
      count += 1
    }
  }
}

extension JSONComposer {
  /// How many bytes ``writeString(_:)`` writes at most for `text`: six for each of its bytes
  /// (`\u001f`), and the quotes.
  @inlinable
  package static func maximumCount(ofString text: String) -> Int {
    6 * text.utf8.count + 2
  }

  /// Writes a string in double quotes, escaped as the writer's `writeString(_:)` does: `"`,
  /// `\`, control characters and DEL; every other character as UTF-8.
  ///
  /// At most ``maximumCount(ofString:)`` bytes.
  ///
  /// - Parameter text: The string.
  @inlinable
  package mutating func writeString(_ text: String) {
    precondition(
      count + Self.maximumCount(ofString: text) <= capacity,
      "JSONComposer: more than its maximum count")
    let written: Void? = text.utf8.withContiguousStorageIfAvailable { writeString(utf8: $0) }
    if written == nil {
      var text = text
      text.withUTF8 { writeString(utf8: $0) }
    }
  }

  /// Writes an object's key as the writer's `writeKey(_:)` does: the string, then `:`.
  ///
  /// At most ``maximumCount(ofString:)`` + 1 bytes.
  ///
  /// - Parameter key: The key.
  @inlinable
  package mutating func writeKey(_ key: String) {
    writeString(key)
    writeRaw(":")
  }

  /// Writes UTF-8 text in double quotes, escaped; the room was checked.
  ///
  /// Eight bytes at a time while none of them needs an escape (``needsEscape(_:)``), one at a
  /// time where one does.
  @inlinable
  mutating func writeString(utf8: UnsafeBufferPointer<UInt8>) {
    base[count] = UInt8(ascii: "\"")
    count += 1
    let length = utf8.count
    var index = 0
    if let start = utf8.baseAddress {
      let source = UnsafeRawPointer(start)
      while index &+ 8 <= length {
        let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        if Self.needsEscape(word) {
          for _ in 0..<8 { write(start[index]); index &+= 1 }
        } else {
          UnsafeMutableRawPointer(base + count).storeBytes(of: word, as: UInt64.self)
          count &+= 8
          index &+= 8
        }
      }
      // The last bytes, fewer than eight, as one word when none of them needs an escape: the
      // word is stored whole and the closing quote written over what lies past them.
      let rest = length &- index
      if rest > 1, count &+ 8 <= capacity {
        let word = Self.tailWord(source, length: length, rest: rest)
        if !Self.needsEscape(word) {
          UnsafeMutableRawPointer(base + count).storeBytes(of: word, as: UInt64.self)
          count &+= rest
          index = length
        }
      }
      while index < length {
        write(start[index])
        index &+= 1
      }
    }
    base[count] = UInt8(ascii: "\"")
    count += 1
  }

  /// The last `rest` bytes of the `length` at `source`, `rest` between 2 and 7, as the low
  /// bytes of a word (little-endian) whose other bytes are spaces, which need no escape; read
  /// without a byte outside the text: one word ending at its end when the text is eight bytes
  /// or longer, else two overlapping halves, quarters or pairs.
  @inlinable
  @inline(__always)
  static func tailWord(_ source: UnsafeRawPointer, length: Int, rest: Int) -> UInt64 {
    let bits = UInt64(truncatingIfNeeded: 8 &* rest)
    let spaces: UInt64 = 0x2020_2020_2020_2020 << bits
    if length >= 8 {
      let last = source.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
      return last >> (64 &- bits) | spaces
    }
    // The text is `rest` bytes long: its first and last bytes in two loads that overlap.
    if rest >= 4 {
      let low = UInt64(source.loadUnaligned(as: UInt32.self))
      let high = UInt64(source.loadUnaligned(fromByteOffset: rest &- 4, as: UInt32.self))
      return low | high << (bits &- 32) | spaces
    }
    let low = UInt64(source.loadUnaligned(as: UInt16.self))
    let high = UInt64(source.loadUnaligned(fromByteOffset: rest &- 2, as: UInt16.self))
    return low | high << (bits &- 16) | spaces
  }

  /// Writes one byte of a string: as it is, or escaped.
  @inlinable
  @inline(__always)
  mutating func write(_ byte: UInt8) {
    guard JSONWriter.isEscaped(byte) else {
      base[count] = byte
      count &+= 1
      return
    }
    writeEscaped(byte)
  }

  /// Whether any of the eight bytes of `word` is written escaped: a control character, `"`,
  /// `\` or DEL. Exact, without false answers either way: the writer's flags
  /// (``JSONWriter/escapeFlags(_:)``) are only unreliable above the first byte they flag.
  @inlinable
  @inline(__always)
  static func needsEscape(_ word: UInt64) -> Bool {
    JSONWriter.escapeFlags(word) != 0
  }

  /// Writes a byte of a string that must be escaped, as the writer escapes it.
  @inlinable
  @inline(never)
  mutating func writeEscaped(_ byte: UInt8) {
    base[count] = UInt8(ascii: "\\")
    count += 1
    if let letter = JSONWriter.escapeLetter(byte) {
      append(letter)
      return
    }
    let digits: StaticString = "0123456789abcdef"
    append(UInt8(ascii: "u"))
    append(UInt8(ascii: "0"))
    append(UInt8(ascii: "0"))
    append(digits.utf8Start[Int(byte >> 4)])
    append(digits.utf8Start[Int(byte & 0x0F)])
  }

  @inlinable
  @inline(__always)
  mutating func append(_ byte: UInt8) {
    base[count] = byte
    count += 1
  }
}

extension JSONWriter {
  /// Writes what `body` composes, at most `maximumCount` bytes, in one append.
  ///
  /// ```swift
  /// writer.writeComposed(maximumCount: 64) { $0.writeNumber(heading) }
  /// ```
  ///
  /// - Parameters:
  ///   - maximumCount: The most bytes `body` writes; writing more is a programming error.
  ///   - body: What writes the JSON.
  @inlinable
  package mutating func writeComposed(
    maximumCount: Int, _ body: (inout JSONComposer) -> Void
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumCount) { buffer in
      var composer = JSONComposer(base: buffer.baseAddress!, capacity: maximumCount)
      body(&composer)
      bytes.append(
        contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: composer.count))
    }
  }

  /// The digits of the shortest plain form of `value` with at most nine fraction digits that
  /// reads back as exactly `value` — `value` is `units / 10^fractionDigits`, its sign aside —
  /// for magnitudes where the shortest round-trip form is plain (10⁻⁴ to 10¹⁵); `nil` when
  /// there is no such short form.
  @inlinable
  static func shortDecimal(_ value: Double) -> (units: UInt64, fractionDigits: Int)? {
    guard value.magnitude >= 1e-4, value.magnitude < 1e15 else { return nil }
    // Adding and subtracting 1.5 × 2⁵² rounds a double below 2⁵¹ to an integer, half to even,
    // in two additions rather than a call to `round`. A tie here can only misjudge a value that
    // the exact check below then rejects, so the rounding mode does not matter.
    let roundingShift = 6_755_399_441_055_744.0
    var scale = 1.0
    for digits in 1...9 {
      scale *= 10
      let product = value * scale
      guard product.magnitude < 2_251_799_813_685_248 else { return nil }
      let scaled = (product + roundingShift) - roundingShift
      guard scaled / scale == value else { continue }
      return (Int64(scaled).magnitude, digits)
    }
    return nil
  }

  /// Writes `units / 10^fractionDigits` in plain decimal notation at `start`, and returns how
  /// many bytes it wrote: at most 26, but the 32 bytes from `start` must be room to write.
  ///
  /// The digits are written from the last, two at a time, into a buffer on the stack, then
  /// copied as 32 bytes, a copy of known size that needs no call.
  @inlinable
  static func render(
    units: UInt64, fractionDigits: Int, negative: Bool, into start: UnsafeMutablePointer<UInt8>
  ) -> Int {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
      let end = buffer.baseAddress! + 32
      var count = 0
      var rest = units
      while count &+ 2 <= fractionDigits {
        count &+= 2
        rest = writePair(of: rest, at: end - count)
      }
      if count < fractionDigits {
        count &+= 1
        (end - count).pointee = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
        rest /= 10
      }
      count &+= 1
      (end - count).pointee = UInt8(ascii: ".")
      count &+= writeDigits(of: rest, before: end - count)
      if negative {
        count &+= 1
        (end - count).pointee = UInt8(ascii: "-")
      }
      UnsafeMutableRawPointer(start).copyMemory(from: end - count, byteCount: 32)
      return count
    }
  }

  /// Writes an integer exactly at `start`, and returns how many bytes it wrote: at most 20.
  @inlinable
  static func render(integer value: Int64, into start: UnsafeMutablePointer<UInt8>) -> Int {
    if value >= 0, value < 10 {
      start.pointee = UInt8(truncatingIfNeeded: value) &+ UInt8(ascii: "0")
      return 1
    }
    let magnitude = value.magnitude
    let sign = value < 0 ? 1 : 0
    let count = sign &+ digitCount(of: magnitude)
    _ = writeDigits(of: magnitude, before: start + count)
    if value < 0 { start.pointee = UInt8(ascii: "-") }
    return count
  }

  /// How many decimal digits `value` has: 1 for 0.
  @inlinable
  @inline(__always)
  static func digitCount(of value: UInt64) -> Int {
    var count = 1
    var rest = value
    while rest >= 100 {
      count &+= 2
      rest /= 100
    }
    return rest >= 10 ? count &+ 1 : count
  }

  /// Writes the decimal digits of `value` (at least one) so that they end just before `end`,
  /// two at a time, and returns how many it wrote.
  @inlinable
  @inline(__always)
  static func writeDigits(of value: UInt64, before end: UnsafeMutablePointer<UInt8>) -> Int {
    var rest = value
    var count = 0
    while rest >= 100 {
      count &+= 2
      rest = writePair(of: rest, at: end - count)
    }
    if rest >= 10 {
      count &+= 2
      _ = writePair(of: rest, at: end - count)
    } else {
      count &+= 1
      (end - count).pointee = UInt8(truncatingIfNeeded: rest) &+ UInt8(ascii: "0")
    }
    return count
  }

  /// Writes the last two decimal digits of `value` at `place`, and returns what is left of it
  /// (`value / 100`): one division for two digits.
  @inlinable
  @inline(__always)
  static func writePair(of value: UInt64, at place: UnsafeMutablePointer<UInt8>) -> UInt64 {
    let rest = value / 100
    let pair = Int(truncatingIfNeeded: value &- rest &* 100)
    let pairs: StaticString = """
      0001020304050607080910111213141516171819202122232425262728293031323334353637383940\
      4142434445464748495051525354555657585960616263646566676869707172737475767778798081\
      828384858687888990919293949596979899
      """
    let digits = UnsafeRawPointer(pairs.utf8Start).loadUnaligned(
      fromByteOffset: 2 &* pair, as: UInt16.self)
    UnsafeMutableRawPointer(place).storeBytes(of: digits, as: UInt16.self)
    return rest
  }
}
