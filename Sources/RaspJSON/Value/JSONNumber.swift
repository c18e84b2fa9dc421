/// A JSON number, kept exact when it is a whole number written without an exponent.
///
/// JSON does not distinguish integers from fractions, but logs do: an identifier such as
/// `9007199254740993`, or an unsigned 64-bit one such as `12345678901234567890`, must survive a
/// round trip, which a `Double` cannot promise. A number written without an exponent whose
/// fraction, if any, is only zeros is stored as an integer: in `Int64` when it fits, otherwise
/// as its decimal digits; every other number is stored as the nearest `Double`.
///
/// Two numbers are equal when they denote the same value, so `3` equals `3.0`. The canonical
/// text of a number (its ``description``) is the shortest text that reads back as the same
/// value: integers in decimal, other numbers in Swift's shortest round-trip form with a
/// trailing `.0` removed (`0.1`, `1e-05`, `1.5e+300`).
///
/// ```swift
/// let n = JSONNumber(3.0)
/// print(n)                      // 3
/// print(n == JSONNumber(3))     // true
/// ```
public struct JSONNumber: Sendable {
  @usableFromInline
  enum Storage: Sendable {
    case integer(Int64)
    case double(Double)
    /// A whole number beyond `Int64`, as its canonical decimal text (`-` and digits).
    case wholeDigits(JSONWholeDigits)
  }

  @usableFromInline
  let storage: Storage

  /// Creates an exact integer number.
  ///
  /// ```swift
  /// let id = JSONNumber(9_007_199_254_740_993 as Int64)
  /// ```
  ///
  /// - Parameter value: The integer.
  @inlinable
  public init(_ value: Int64) { storage = .integer(value) }

  /// Creates an exact integer number from an `Int`.
  ///
  /// ```swift
  /// let count = JSONNumber(3)
  /// ```
  ///
  /// - Parameter value: The integer.
  @inlinable
  public init(_ value: Int) { storage = .integer(Int64(value)) }

  /// Creates a number from a `Double`.
  ///
  /// The value must be finite: JSON has no NaN or infinity. Callers that cannot promise
  /// finiteness use ``init(exactly:)``.
  ///
  /// ```swift
  /// let heading = JSONNumber(271.5)
  /// ```
  ///
  /// - Parameter value: A finite double.
  @inlinable
  public init(_ value: Double) { storage = .double(value) }

  /// Creates a number from a `Double`, or `nil` when it is NaN or infinite.
  ///
  /// ```swift
  /// JSONNumber(exactly: .nan)   // nil
  /// ```
  ///
  /// - Parameter value: Any double.
  @inlinable
  public init?(exactly value: Double) {
    guard value.isFinite else { return nil }
    storage = .double(value)
  }

  /// The number as a `Double` (integers beyond 2⁵³ round to the nearest double).
  ///
  /// ```swift
  /// JSONNumber(2).doubleValue   // 2.0
  /// ```
  /// A whole number beyond `Int64` from its canonical decimal text: an optional `-`, then
  /// digits without a leading zero.
  init(wholeDigits text: String) { storage = .wholeDigits(JSONWholeDigits(text)) }

  @inlinable
  public var doubleValue: Double {
    switch storage {
    case .integer(let value): return Double(value)
    case .double(let value): return value
    case .wholeDigits(let digits): return digits.doubleValue
    }
  }

  /// The number as an `Int64` when it is integral and in range, otherwise `nil`.
  ///
  /// ```swift
  /// JSONNumber(4.0).integerValue   // 4
  /// JSONNumber(4.5).integerValue   // nil
  /// ```
  @inlinable
  public var integerValue: Int64? {
    switch storage {
    case .integer(let value): return value
    case .double(let value): return Int64(exactly: value)
    case .wholeDigits: return nil
    }
  }

  /// Whether the number was stored as an exact integer.
  ///
  /// ```swift
  /// JSONNumber(3).isInteger     // true
  /// JSONNumber(3.0).isInteger   // false
  /// ```
  @inlinable
  public var isInteger: Bool {
    if case .double = storage { return false }
    return true
  }

  /// The number's exact value as decimal digits (`-` and digits, without a leading zero) when
  /// it is a whole number, whatever its storage: a double such as `1e19` is exactly
  /// `10000000000000000000`; `nil` for a fraction, an infinity or NaN.
  ///
  /// ```swift
  /// JSONNumber(1e19).wholeDigits   // "10000000000000000000"
  /// JSONNumber(0.5).wholeDigits    // nil
  /// ```
  public var wholeDigits: String? {
    switch storage {
    case .integer(let value): return String(value)
    case .wholeDigits(let digits): return digits.text
    case .double(let value):
      guard value.isFinite, value == value.rounded() else { return nil }
      if let exact = Int64(exactly: value) { return String(exact) }
      return JSONWholeDigits.digits(ofWhole: value)
    }
  }
}

extension JSONNumber: Equatable {
  public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
    switch (lhs.storage, rhs.storage) {
    case (.integer(let a), .integer(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)):
      guard let exact = Int64(exactly: b) else { return false }
      return a == exact
    case (.wholeDigits(let a), .wholeDigits(let b)): return a.text == b.text
    case (.wholeDigits, .integer), (.integer, .wholeDigits): return false
    case (.wholeDigits(let a), .double), (.double, .wholeDigits(let a)):
      // Only a double that is exactly that whole number.
      let double = lhs.isInteger ? rhs : lhs
      return double.wholeDigits == a.text
    }
  }
}

extension JSONNumber: Hashable {
  /// Hashes the value so that equal numbers hash alike.
  ///
  /// ```swift
  /// var set: Set<JSONNumber> = [JSONNumber(3)]
  /// set.contains(JSONNumber(3.0))   // true
  /// ```
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    if let integer = integerValue {
      hasher.combine(integer)
    } else {
      hasher.combine(doubleValue)
    }
  }
}

extension JSONNumber: CustomStringConvertible {
  /// The canonical JSON text of the number.
  ///
  /// ```swift
  /// JSONNumber(1e-5).description   // "1e-05"
  /// ```
  public var description: String {
    var writer = JSONWriter()
    writer.writeNumber(self)
    return String(decoding: writer.bytes, as: UTF8.self)
  }
}

/// The decimal digits of a whole number beyond `Int64`, which a JSON number keeps exactly
/// (``JSONNumber``): a class, so that the number stays as small as its other kinds.
public final class JSONWholeDigits: Sendable {
  /// The canonical text: an optional `-`, then digits without a leading zero.
  public let text: String
  /// The nearest double.
  @usableFromInline let doubleValue: Double

  init(_ text: String) {
    self.text = text
    doubleValue = Double(text) ?? (text.hasPrefix("-") ? -.infinity : .infinity)
  }

  /// The exact decimal digits of a whole, finite double, `-` first when it is negative.
  static func digits(ofWhole value: Double) -> String {
    // The value is significand × 2^exponent: the significand's limbs of nine decimal digits,
    // least significant first, doubled exponent times.
    var limbs: [UInt64] = []
    var significand = value.significandBitPattern | (value.isNormal ? 1 << 52 : 0)
    var exponent = Int(value.exponent) - 52
    while exponent < 0, significand & 1 == 0 {
      significand >>= 1
      exponent += 1
    }
    repeat {
      limbs.append(significand % 1_000_000_000)
      significand /= 1_000_000_000
    } while significand > 0
    for _ in 0..<max(0, exponent) {
      var carry: UInt64 = 0
      for index in limbs.indices {
        let doubled = limbs[index] * 2 + carry
        limbs[index] = doubled % 1_000_000_000
        carry = doubled / 1_000_000_000
      }
      if carry > 0 { limbs.append(carry) }
    }
    var text = value < 0 ? "-" : ""
    text += String(limbs[limbs.count - 1])
    for limb in limbs.dropLast().reversed() {
      let part = String(limb)
      text += String(repeating: "0", count: 9 - part.count) + part
    }
    return text
  }

  /// The magnitude of `a − b`, two whole numbers' canonical digits, as a double: exact up to
  /// 2^53, the nearest double beyond (correctly rounded).
  static func distance(_ a: String, _ b: String) -> Double {
    let (negativeA, digitsA) = (a.hasPrefix("-"), Array(a.utf8.drop { $0 == UInt8(ascii: "-") }))
    let (negativeB, digitsB) = (b.hasPrefix("-"), Array(b.utf8.drop { $0 == UInt8(ascii: "-") }))
    // Digits, least significant first.
    let x = digitsA.reversed().map { Int($0 - UInt8(ascii: "0")) }
    let y = digitsB.reversed().map { Int($0 - UInt8(ascii: "0")) }
    var result: [Int] = []
    if negativeA != negativeB {
      var carry = 0
      for index in 0..<max(x.count, y.count) {
        let sum = (index < x.count ? x[index] : 0) + (index < y.count ? y[index] : 0) + carry
        result.append(sum % 10)
        carry = sum / 10
      }
      if carry > 0 { result.append(carry) }
    } else {
      let xFirst =
        x.count != y.count
        ? x.count > y.count : !x.reversed().lexicographicallyPrecedes(y.reversed())
      let (larger, smaller) = xFirst ? (x, y) : (y, x)
      var borrow = 0
      for index in larger.indices {
        var digit = larger[index] - (index < smaller.count ? smaller[index] : 0) - borrow
        borrow = digit < 0 ? 1 : 0
        if digit < 0 { digit += 10 }
        result.append(digit)
      }
    }
    let text = String(result.reversed().map { Character(String($0)) })
    return Double(text) ?? .infinity
  }
}
