extension JSONScanner {
  /// Reads a number, exact when it is an integer that fits in 64 bits.
  ///
  /// Integers without a fraction or exponent are kept exact; every other number is converted to
  /// the nearest `Double`, correctly rounded.
  ///
  /// ```swift
  /// let n = try scanner.readNumber()   // 9007199254740993, exactly
  /// ```
  ///
  /// - Returns: The number.
  /// - Throws: ``JSONError`` for malformed numbers, `NaN` or `Infinity`, and numbers beyond the
  ///   range of a double.
  @inlinable
  @inline(__always)
  public mutating func readNumber() throws(JSONError) -> JSONNumber {
    skipWhitespace()
    let start = position
    var index = position
    var negative = false
    if index < input.count, input[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    guard index < input.count else {
      if negative {
        throw JSONError(offset: start, reason: .invalidNumber("expected a digit after '-'"))
      }
      throw unexpectedEnd(expected: "a number")
    }
    var first = input[index]
    guard JSONScanner.isDigit(first) else {
      if negative, JSONScanner.isWordByte(first) {
        position = index
        throw invalidValueStart(negative: true)
      }
      if negative {
        throw JSONError(offset: start, reason: .invalidNumber("expected a digit after '-'"))
      }
      throw expectedValue("a number")
    }
    // Integer part.
    var mantissa: UInt64 = 0
    var significantDigits = 0
    var droppedDigits = 0
    if first == UInt8(ascii: "0") {
      index += 1
      if index < input.count, JSONScanner.isDigit(input[index]) {
        throw JSONError(offset: start, reason: .invalidNumber("leading zeros are not allowed"))
      }
    } else {
      while index < input.count {
        first = input[index]
        guard JSONScanner.isDigit(first) else { break }
        if significantDigits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(first &- UInt8(ascii: "0"))
          significantDigits += 1
        } else {
          droppedDigits += 1
        }
        index += 1
      }
    }
    var exponent = droppedDigits
    var isInteger = true
    var inexact = false
    // Fraction.
    if index < input.count, input[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard index < input.count, JSONScanner.isDigit(input[index]) else {
        throw JSONError(offset: start, reason: .invalidNumber("expected a digit after '.'"))
      }
      while index < input.count {
        let byte = input[index]
        guard JSONScanner.isDigit(byte) else { break }
        if significantDigits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
          if mantissa != 0 { significantDigits += 1 }
          exponent -= 1
        } else if byte != UInt8(ascii: "0") {
          inexact = true
        }
        index += 1
      }
    }
    // Exponent.
    if index < input.count, input[index] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      index += 1
      var exponentNegative = false
      if index < input.count, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-")
      {
        exponentNegative = input[index] == UInt8(ascii: "-")
        index += 1
      }
      guard index < input.count, JSONScanner.isDigit(input[index]) else {
        throw JSONError(offset: start, reason: .invalidNumber("expected a digit in the exponent"))
      }
      var written = 0
      while index < input.count, JSONScanner.isDigit(input[index]) {
        if written < 100_000 { written = written * 10 + Int(input[index] - UInt8(ascii: "0")) }
        index += 1
      }
      exponent += exponentNegative ? -written : written
    }
    position = index
    if isInteger, droppedDigits == 0 {
      if negative {
        if mantissa <= UInt64(Int64.max) { return JSONNumber(-Int64(mantissa)) }
        if mantissa == UInt64(Int64.max) + 1 { return JSONNumber(Int64.min) }
      } else if mantissa <= UInt64(Int64.max) {
        return JSONNumber(Int64(mantissa))
      }
    }
    if !inexact, droppedDigits == 0, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
      var value = Double(mantissa)
      if exponent < 0 {
        value /= JSONScanner.powerOfTen(-exponent)
      } else {
        value *= JSONScanner.powerOfTen(exponent)
      }
      return JSONNumber(negative ? -value : value)
    }
    return try slowNumber(from: start, to: index)
  }

  /// The number at `start` as ``readNumber()`` reads it, as a `Double`, and the offset after
  /// it, when it is plain: an optional `-`, digits without a leading zero, an optional
  /// fraction, no exponent, at most 15 digits in all; `nil` for anything else.
  ///
  /// Such a number is a double exactly divided by an exact power of ten, one rounding: what
  /// the scanner computes too, in a loop of a few instructions a digit with nothing else to
  /// decide, for the values loggers write most (`52.519925`, `139.9`, `200`).
  ///
  /// ```swift
  /// JSONScanner.plainDecimal(in: bytes, from: 11)   // (139.9, 16) for `{"heading":139.9}`
  /// ```
  @inlinable
  @inline(__always)
  package static func plainDecimal(in line: UnsafeBufferPointer<UInt8>, from start: Int)
    -> (value: Double, end: Int)?
  {
    let count = line.count
    guard start < count else { return nil }
    let negative = line[start] == UInt8(ascii: "-")
    let integerStart = negative ? start &+ 1 : start
    var index = integerStart
    var mantissa: UInt64 = 0
    while index < count {
      let digit = line[index] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      mantissa = mantissa &* 10 &+ UInt64(digit)
      index &+= 1
    }
    let integerDigits = index &- integerStart
    guard integerDigits > 0, integerDigits == 1 || line[integerStart] != UInt8(ascii: "0")
    else { return nil }
    var fractionDigits = 0
    if index < count, line[index] == UInt8(ascii: ".") {
      index &+= 1
      let fractionStart = index
      while index < count {
        let digit = line[index] &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        mantissa = mantissa &* 10 &+ UInt64(digit)
        index &+= 1
      }
      fractionDigits = index &- fractionStart
      guard fractionDigits > 0 else { return nil }
    }
    guard integerDigits &+ fractionDigits <= 15,
      index == count || line[index] | 0x20 != UInt8(ascii: "e")
    else { return nil }
    if fractionDigits == 0 {
      // As an integer: `-0` is 0.
      let integer = Int64(mantissa)
      return (Double(negative ? 0 &- integer : integer), index)
    }
    let value = Double(mantissa) / powerOfTen(fractionDigits)
    return (negative ? -value : value, index)
  }

  /// Reads a number as a `Double`.
  ///
  /// ```swift
  /// let heading = try scanner.readDouble()   // 271.5
  /// ```
  ///
  /// - Returns: The number, rounded to the nearest double if need be.
  /// - Throws: ``JSONError`` as ``readNumber()`` does.
  @inlinable
  @inline(__always)
  public mutating func readDouble() throws(JSONError) -> Double {
    try readNumber().doubleValue
  }

  @usableFromInline
  mutating func slowNumber(from start: Int, to end: Int) throws(JSONError) -> JSONNumber {
    let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<end]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw JSONError(offset: start, reason: .numberOutOfRange(text))
    }
    return Self.wholeNumber(text) ?? JSONNumber(value)
  }

  /// The number `text` denotes when it is a whole number within 128 bits written without an
  /// exponent, its fraction only zeros if it has one (`12345678901234567890`,
  /// `9007199254740993.0`), kept exactly; `nil` otherwise.
  @usableFromInline
  static func wholeNumber(_ text: String) -> JSONNumber? {
    let bytes = Array(text.utf8)
    guard !bytes.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) else { return nil }
    let point = bytes.firstIndex(of: UInt8(ascii: ".")) ?? bytes.count
    guard bytes[point...].dropFirst().allSatisfy({ $0 == UInt8(ascii: "0") }) else { return nil }
    return Int128(String(decoding: bytes[..<point], as: UTF8.self)).map(JSONNumber.init)
  }

  @inlinable
  static func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  @inlinable
  static func powerOfTen(_ exponent: Int) -> Double {
    switch exponent {
    case 0: return 1e0
    case 1: return 1e1
    case 2: return 1e2
    case 3: return 1e3
    case 4: return 1e4
    case 5: return 1e5
    case 6: return 1e6
    case 7: return 1e7
    case 8: return 1e8
    case 9: return 1e9
    case 10: return 1e10
    case 11: return 1e11
    case 12: return 1e12
    case 13: return 1e13
    case 14: return 1e14
    case 15: return 1e15
    case 16: return 1e16
    case 17: return 1e17
    case 18: return 1e18
    case 19: return 1e19
    case 20: return 1e20
    case 21: return 1e21
    default: return 1e22
    }
  }
}
