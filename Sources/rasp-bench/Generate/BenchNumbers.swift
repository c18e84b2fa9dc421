/// Writes the generator's numbers: fixed-point decimals held as whole numbers, so that no
/// floating-point formatting can differ between machines.
enum BenchNumbers {
  /// Appends `value / 10^fractionDigits` in its shortest decimal form: `2715` with one digit is
  /// `271.5`, `2710` is `271`, `52520100` with six digits is `52.5201`.
  ///
  /// ```swift
  /// BenchNumbers.appendDecimal(-1_250_000, fractionDigits: 6, to: &bytes)   // -1.25
  /// ```
  ///
  /// - Parameters:
  ///   - value: The number, scaled.
  ///   - fractionDigits: How many of its last digits are decimals.
  ///   - bytes: Where to write.
  static func appendDecimal(_ value: Int, fractionDigits: Int, to bytes: inout [UInt8]) {
    var scale = 1
    for _ in 0..<fractionDigits { scale *= 10 }
    if value < 0 { bytes.append(0x2D) }
    let magnitude = value.magnitude
    appendWhole(magnitude / UInt(scale), to: &bytes)
    var fraction = magnitude % UInt(scale)
    guard fraction != 0 else { return }
    var digits = fractionDigits
    while fraction % 10 == 0 {
      fraction /= 10
      digits -= 1
    }
    bytes.append(0x2E)
    var buffer: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
      0, 0, 0, 0, 0, 0, 0, 0, 0
    )
    withUnsafeMutableBytes(of: &buffer) { digitsBuffer in
      for index in stride(from: digits - 1, through: 0, by: -1) {
        digitsBuffer[index] = UInt8(truncatingIfNeeded: 0x30 + fraction % 10)
        fraction /= 10
      }
      bytes.append(contentsOf: digitsBuffer.prefix(digits))
    }
  }

  /// Appends a whole number in decimal.
  static func appendWhole(_ value: UInt, to bytes: inout [UInt8]) {
    // The digits from the last, at the end of room for the most a UInt has.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var rest = value
      var start = digits.count
      repeat {
        start -= 1
        digits[start] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
        rest /= 10
      } while rest != 0
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }
}
