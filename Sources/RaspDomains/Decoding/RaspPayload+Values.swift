import RaspJSON

extension RaspPayload {
  /// Reads the current field as a number.
  ///
  /// ```swift
  /// case "heading": heading = try payload.double()
  /// ```
  ///
  /// - Returns: The number as a double.
  /// - Throws: ``RaspEventError`` when the value is not a number.
  @inlinable
  public mutating func double() throws(RaspEventError) -> Double {
    guard try kind() == .number else { throw wrongType(expected: "a number") }
    do {
      return try scanner.readDouble()
    } catch {
      throw RaspEventError(error)
    }
  }

  /// The text of the value just read, as the log wrote it (shortened when long), for messages:
  /// `9223372036854775808`, not `9.223372036854776e+18`.
  @usableFromInline var valueText: String {
    let end = min(max(scanner.position, currentValueOffset), scanner.input.count)
    let bytes = UnsafeBufferPointer(rebasing: scanner.input[currentValueOffset..<end])
    return JSONError.abbreviated(String(decoding: bytes, as: UTF8.self))
  }

  /// Reads the current field as a number within `range`.
  ///
  /// ```swift
  /// case "latitude": latitude = try payload.double(in: -90...90)
  /// ```
  ///
  /// - Parameter range: The accepted values.
  /// - Returns: The number.
  /// - Throws: ``RaspEventError`` when the value is not a number or is out of range.
  @inlinable
  public mutating func double(in range: ClosedRange<Double>) throws(RaspEventError) -> Double {
    let value = try double()
    guard range.contains(value) else {
      throw invalid(
        "must be between \(JSONNumber(range.lowerBound)) and \(JSONNumber(range.upperBound)), "
          + "found \(valueText)"
      )
    }
    return value
  }

  /// Reads the current field as a number of at least `range.lowerBound`.
  ///
  /// ```swift
  /// case "accuracy": accuracy = try payload.double(in: 0...)
  /// ```
  ///
  /// - Parameter range: The accepted values.
  /// - Returns: The number.
  /// - Throws: ``RaspEventError`` when the value is not a number or is too small.
  @inlinable
  public mutating func double(in range: PartialRangeFrom<Double>) throws(RaspEventError) -> Double {
    let value = try double()
    guard range.contains(value) else {
      throw invalid("must be at least \(JSONNumber(range.lowerBound)), found \(valueText)")
    }
    return value
  }

  /// Reads the current field as an integer.
  ///
  /// ```swift
  /// case "status": status = try payload.integer()
  /// ```
  ///
  /// - Returns: The integer.
  /// - Throws: ``RaspEventError`` when the value is not an integral number that fits in 64 bits.
  @inlinable
  public mutating func integer() throws(RaspEventError) -> Int64 {
    guard try kind() == .number else { throw wrongType(expected: "an integer") }
    let number: JSONNumber
    do {
      number = try scanner.readNumber()
    } catch {
      throw RaspEventError(error)
    }
    guard let value = number.integerValue else {
      throw invalid("must be an integer, found \(valueText)")
    }
    return value
  }

  /// Reads the current field as a string.
  ///
  /// ```swift
  /// case "screen": screen = try payload.string()
  /// ```
  ///
  /// - Returns: The string.
  /// - Throws: ``RaspEventError`` when the value is not a string.
  @inlinable
  public mutating func string() throws(RaspEventError) -> String {
    guard try kind() == .string else { throw wrongType(expected: "a string") }
    do {
      return try scanner.readString()
    } catch {
      throw RaspEventError(error)
    }
  }

  /// Reads the current field as a non-empty string.
  ///
  /// ```swift
  /// case "rel": rel = try payload.nonEmptyString()
  /// ```
  ///
  /// - Returns: The string.
  /// - Throws: ``RaspEventError`` when the value is not a string or is empty.
  @inlinable
  public mutating func nonEmptyString() throws(RaspEventError) -> String {
    let value = try string()
    guard !value.isEmpty else { throw invalid("must not be empty") }
    return value
  }

  /// Reads the current field as a boolean.
  ///
  /// ```swift
  /// case "animated": animated = try payload.bool()
  /// ```
  ///
  /// - Returns: The boolean.
  /// - Throws: ``RaspEventError`` when the value is not a boolean.
  @inlinable
  public mutating func bool() throws(RaspEventError) -> Bool {
    guard try kind() == .bool else { throw wrongType(expected: "a boolean") }
    do {
      return try scanner.readBool()
    } catch {
      throw RaspEventError(error)
    }
  }

  /// Consumes the current field's value if it is `null`, and tells whether it was.
  ///
  /// ```swift
  /// case "accuracy": accuracy = try payload.null() ? nil : try payload.double()
  /// ```
  ///
  /// - Returns: `true` when the value was `null`.
  /// - Throws: ``RaspEventError`` only for malformed JSON.
  @inlinable
  public mutating func null() throws(RaspEventError) -> Bool {
    guard try kind() == .null else { return false }
    try skip()
    return true
  }

  /// Reads the current field's value, whatever it is, as a tree.
  ///
  /// ```swift
  /// case "value": value = try payload.value()
  /// ```
  ///
  /// - Returns: The value.
  /// - Throws: ``RaspEventError`` only for malformed JSON.
  public mutating func value() throws(RaspEventError) -> JSONValue {
    do {
      return try scanner.readValue()
    } catch {
      throw RaspEventError(error)
    }
  }
}
