extension JSONValue {
  /// The value a double becomes once written by ``JSONWriter/writeNumber(_:)-(Double)`` and
  /// parsed again: `null` for NaN and the infinities, an exact integer for a whole number below
  /// 2⁵³ (written without a fraction), and the double itself otherwise (written in its shortest
  /// round-trip form, which parses back to it).
  ///
  /// What a domain's typed state gives for a number (``RaspDomains/RaspMemberReading``) must be
  /// what its JSON gives; this is that number without the JSON.
  ///
  /// ```swift
  /// JSONValue.written(271.5)   // .number(271.5), a double
  /// JSONValue.written(90.0)    // .number(90), an integer
  /// ```
  ///
  /// - Parameter number: The double.
  /// - Returns: The value its JSON parses to.
  package static func written(_ number: Double) -> JSONValue {
    guard number.isFinite else { return .null }
    if number.magnitude < 9_007_199_254_740_992 {
      let integer = Int64(number)
      return .number(Double(integer) == number ? JSONNumber(integer) : JSONNumber(number))
    }
    // Beyond 2⁵³ the writer falls back to `Double.description`: rare enough to write it out.
    var writer = JSONWriter()
    writer.writeNumber(number)
    return writer.bytes.withUnsafeBufferPointer { (try? JSONParser.parse($0)) ?? .null }
  }

  /// The value as it is once written by ``JSONWriter/write(_:)`` and parsed again: the same,
  /// but for doubles, each of which becomes ``written(_:)`` of it (`42.0` an integer, NaN
  /// `null`).
  ///
  /// A value with no such double is returned as it is, without a copy.
  ///
  /// ```swift
  /// JSONValue.array([.number(JSONNumber(2.0))]).asWritten   // [2], an integer
  /// ```
  package var asWritten: JSONValue {
    isAsWritten ? self : rewritten
  }

  /// Whether writing and parsing the value gives it back exactly: it holds no double that
  /// ``written(_:)`` changes.
  private var isAsWritten: Bool {
    switch self {
    case .null, .bool, .string: return true
    case .number(let number):
      guard case .double(let double) = number.storage else { return true }
      return Self.written(double).isExactly(self)
    case .array(let elements): return elements.allSatisfy(\.isAsWritten)
    case .object(let object): return object.members.allSatisfy(\.value.isAsWritten)
    }
  }

  /// The value with each double replaced by ``written(_:)`` of it.
  private var rewritten: JSONValue {
    switch self {
    case .null, .bool, .string: return self
    case .number(let number):
      guard case .double(let double) = number.storage else { return self }
      return Self.written(double)
    case .array(let elements): return .array(elements.map(\.asWritten))
    case .object(let object):
      return .object(JSONObject(sortedMembers: object.members.map { ($0.key, $0.value.asWritten) }))
    }
  }

  /// Whether a number value is this one in the same form: a double or an integer, the same.
  private func isExactly(_ other: JSONValue) -> Bool {
    guard case .number(let number) = self, case .number(let otherNumber) = other else {
      return false
    }
    switch (number.storage, otherNumber.storage) {
    case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
    default: return false
    }
  }
}
