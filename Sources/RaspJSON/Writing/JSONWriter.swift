/// Writes canonical JSON: compact, keys sorted, strings escaped per RFC 8259, numbers shortest.
///
/// The writer appends UTF-8 to ``bytes``. Its output is canonical — the same value always
/// gives the same bytes, on every run and machine — so snapshots can be compared with `diff`
/// and pinned in golden files:
/// - no whitespace; object members in ``JSONObject`` key order (code point order, as `jq -S`);
/// - strings escape `"`, `\`, and control characters (`\n`, `\t`, … or `\u00XX`, and `\u007f`
///   for DEL); every other character is written as UTF-8;
/// - integers are written exactly; other numbers in the shortest form that reads back as the
///   same double (`0.1`, `1e-05`, `1.5e+300`); `-0` and integral doubles below 2⁵³ print as
///   integers; NaN and infinities, which JSON cannot express, print as `null`.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.write(["heading": 271.5, "name": "N\n"])
/// print(String(decoding: writer.bytes, as: UTF8.self))   // {"heading":271.5,"name":"N\n"}
/// ```
public struct JSONWriter {
  /// The UTF-8 text written so far.
  public var bytes: [UInt8]

  /// Creates a writer with room for `capacity` bytes.
  ///
  /// ```swift
  /// var writer = JSONWriter(capacity: 1 << 16)
  /// ```
  ///
  /// - Parameter capacity: The number of bytes to reserve.
  public init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// Removes what was written, keeping the storage for reuse.
  ///
  /// ```swift
  /// writer.removeAll()
  /// ```
  @inlinable
  public mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
  }

  /// Writes a value.
  ///
  /// ```swift
  /// writer.write([1, "two", nil])   // [1,"two",null]
  /// ```
  ///
  /// - Parameter value: The value.
  public mutating func write(_ value: JSONValue) {
    switch value {
    case .null: writeNull()
    case .bool(let flag): writeBool(flag)
    case .number(let number): writeNumber(number)
    case .string(let text): writeString(text)
    case .array(let elements):
      bytes.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        write(element)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let object):
      bytes.append(UInt8(ascii: "{"))
      for (index, member) in object.members.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        writeString(member.key)
        bytes.append(UInt8(ascii: ":"))
        write(member.value)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// Writes `null`.
  ///
  /// ```swift
  /// writer.writeNull()   // null
  /// ```
  @inlinable
  public mutating func writeNull() {
    writeRaw("null")
  }

  /// Writes `true` or `false`.
  ///
  /// ```swift
  /// writer.writeBool(true)   // true
  /// ```
  ///
  /// - Parameter flag: The boolean.
  @inlinable
  public mutating func writeBool(_ flag: Bool) {
    if flag { writeRaw("true") } else { writeRaw("false") }
  }

  /// Writes a number in canonical form.
  ///
  /// ```swift
  /// writer.writeNumber(JSONNumber(3.0))   // 3
  /// ```
  ///
  /// - Parameter number: The number.
  @inlinable
  public mutating func writeNumber(_ number: JSONNumber) {
    switch number.storage {
    case .integer(let value): writeInteger(value)
    case .double(let value): writeNumber(value)
    case .wide(let high, let low): writeRaw(String(Int128(high) << 64 | Int128(low)).utf8)
    }
  }

  /// Writes a double in the shortest form that reads back as the same value.
  ///
  /// ```swift
  /// writer.writeNumber(0.1)      // 0.1
  /// writer.writeNumber(1e-5)     // 1e-05
  /// writer.writeNumber(42.0)     // 42
  /// ```
  ///
  /// - Parameter value: The double; NaN and infinities are written as `null`.
  @inlinable
  public mutating func writeNumber(_ value: Double) {
    guard value.isFinite else {
      writeNull()
      return
    }
    if value.magnitude < 9_007_199_254_740_992 {
      let integer = Int64(value)
      if Double(integer) == value {
        writeInteger(integer)
        return
      }
    }
    if writeShortDecimal(value) { return }
    let text = value.description
    if text.hasSuffix(".0") {
      bytes.append(contentsOf: text.utf8.dropLast(2))
    } else {
      bytes.append(contentsOf: text.utf8)
    }
  }

  /// Writes `value` with the fewest fraction digits (at most nine) that read back as exactly
  /// `value`, in plain notation, for magnitudes where the shortest round-trip form is plain
  /// (10⁻⁴ to 10¹⁵); returns `false`, writing nothing, when there is no such short form
  /// (``shortDecimal(_:)``, which ``JSONComposer`` shares).
  ///
  /// This is the common case for sensor readings and coordinates, and it is several times
  /// faster than formatting through `Double.description`, which gives the same digits.
  @inlinable
  mutating func writeShortDecimal(_ value: Double) -> Bool {
    guard let (units, fractionDigits) = Self.shortDecimal(value) else { return false }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
      guard let start = buffer.baseAddress else { return }
      let count = Self.render(
        units: units, fractionDigits: fractionDigits, negative: value < 0, into: start)
      bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    }
    return true
  }

  /// Writes an integer exactly.
  ///
  /// ```swift
  /// writer.writeInteger(-42)   // -42
  /// ```
  ///
  /// - Parameter value: The integer.
  @inlinable
  public mutating func writeInteger(_ value: Int64) {
    if value >= 0, value < 10 {
      bytes.append(UInt8(truncatingIfNeeded: value) &+ UInt8(ascii: "0"))
      return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { buffer in
      guard let start = buffer.baseAddress else { return }
      let count = Self.render(integer: value, into: start)
      bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    }
  }

  /// Writes bytes as they are, for text already known to be valid JSON.
  ///
  /// ```swift
  /// writer.writeRaw("{")
  /// ```
  ///
  /// - Parameter text: The text.
  @inlinable
  public mutating func writeRaw(_ text: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Writes bytes as they are, for text already known to be valid JSON.
  ///
  /// ```swift
  /// writer.writeRaw(cachedDomainBytes)
  /// ```
  ///
  /// - Parameter raw: The bytes.
  @inlinable
  public mutating func writeRaw(_ raw: some Collection<UInt8>) {
    bytes.append(contentsOf: raw)
  }

  /// Writes `"key":`, escaping the key.
  ///
  /// ```swift
  /// writer.writeKey("heading")   // "heading":
  /// ```
  ///
  /// - Parameter key: The member's key.
  @inlinable
  public mutating func writeKey(_ key: String) {
    writeString(key)
    bytes.append(UInt8(ascii: ":"))
  }
}
