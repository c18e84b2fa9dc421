/// A JSON number, kept exact when it is an integer that fits in 64 bits.
///
/// JSON does not distinguish integers from fractions, but logs do: an identifier such as
/// `9007199254740993` must survive a round trip, which a `Double` cannot promise. A number
/// written without a fraction or an exponent that fits in `Int64` is stored as an integer;
/// every other number is stored as the nearest `Double`.
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
  @inlinable
  public var doubleValue: Double {
    switch storage {
    case .integer(let value): return Double(value)
    case .double(let value): return value
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
    if case .integer = storage { return true }
    return false
  }
}

extension JSONNumber: Equatable {
  /// Whether two numbers denote the same value (`3 == 3.0`).
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
