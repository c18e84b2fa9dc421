/// A JSON number, kept exact when it is a whole number written without an exponent.
///
/// JSON does not distinguish integers from fractions, but logs do: an identifier such as
/// `9007199254740993`, or an unsigned 64-bit one such as `12345678901234567890`, must survive a
/// round trip, which a `Double` cannot promise. A number written without an exponent whose
/// fraction, if any, is only zeros is stored as an integer when it fits in 128 bits (38
/// digits); every other number is stored as the nearest `Double`.
///
/// Two numbers are equal when they denote the same value, so `3` equals `3.0`; two whole
/// numbers compare exactly, and a whole number beyond 64 bits and a double compare as doubles,
/// the double being the nearest to what was written (`1e23` equals `100000000000000000000000`).
/// The canonical text of a number (its ``description``) is the shortest text that reads back
/// as the same value: integers in decimal, other numbers in Swift's shortest round-trip form
/// with a trailing `.0` removed (`0.1`, `1e-05`, `1.5e+300`).
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
    /// A whole number beyond `Int64` within `Int128`, in two halves: aligned as an `Int64`,
    /// which keeps a number as small as before.
    case wide(high: Int64, low: UInt64)
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

  /// Creates a whole number, stored as an `Int64` when it fits and exactly in any case.
  ///
  /// ```swift
  /// JSONNumber(Int128(UInt64.max)).description   // 18446744073709551615
  /// ```
  ///
  /// - Parameter value: Any whole number within 128 bits.
  public init(_ value: Int128) {
    if let small = Int64(exactly: value) {
      storage = .integer(small)
    } else {
      storage = .wide(
        high: Int64(truncatingIfNeeded: value >> 64), low: UInt64(truncatingIfNeeded: value))
    }
  }

  /// The number as a `Double` (integers beyond 2⁵³ round to the nearest double).
  ///
  /// ```swift
  /// JSONNumber(2).doubleValue   // 2.0
  /// ```
  @inlinable
  public var doubleValue: Double {
    switch storage {
    case .integer(let value): return Double(value)
    case .double(let value): return value
    case .wide(let high, let low): return Double(Int128(high) << 64 | Int128(low))
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
    case .wide: return nil
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

  /// The number's exact value when it is a whole number within 128 bits, whatever its
  /// storage: a double such as `1e19` is exactly `10000000000000000000`; `nil` for a
  /// fraction, an infinity, NaN or a double beyond `Int128`.
  ///
  /// ```swift
  /// JSONNumber(1e19).exactInteger   // 10000000000000000000
  /// JSONNumber(0.5).exactInteger    // nil
  /// ```
  public var exactInteger: Int128? {
    switch storage {
    case .integer(let value): return Int128(value)
    case .wide(let high, let low): return Int128(high) << 64 | Int128(low)
    case .double(let value): return Int128(exactly: value)
    }
  }
}

extension JSONNumber: Equatable {
  /// Whether two numbers denote the same value (`3 == 3.0`): whole numbers exactly, and a
  /// double as the double it is.
  ///
  /// ```swift
  /// JSONNumber(3) == JSONNumber(3.0)   // true
  /// ```
  public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
    switch (lhs.storage, rhs.storage) {
    case (.integer(let a), .integer(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)):
      guard let exact = Int64(exactly: b) else { return false }
      return a == exact
    case (.wide(let a, let b), .wide(let c, let d)): return a == c && b == d
    case (.wide, .integer), (.integer, .wide): return false
    case (.wide, .double), (.double, .wide):
      // A double is the nearest to what was written (`1e23`, which denotes 10^23 but is
      // 99999999999999991611392 as a double): compared as doubles, spelling aside.
      return lhs.doubleValue == rhs.doubleValue
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
    // By the nearest double, which every two equal numbers share.
    hasher.combine(doubleValue)
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
