import RaspJSON

/// Applies a ``RedactionPolicy`` to events: to one value, or to a log line by line.
///
/// A line that no rule changes is kept byte for byte, line end included; a changed line is
/// written as compact JSON, keys sorted, by ``JSONWriter``, with the line's own end. A value
/// matched by a rule is changed as a whole, by the first rule that matches it or an ancestor:
/// the walk goes down from the event's root and stops where a rule applies.
///
/// ```swift
/// let redactor = Redactor(policy: policy, key: Array("secret".utf8))
/// let line = try redactor.redact(Array(#"{"type":"a","userId":"u1"}"#.utf8))
/// ```
struct Redactor {
  /// A value a rule cannot change: a string at a `round` path.
  struct Mistake: Error, Equatable {
    /// Where the value is, as a `--select` path.
    let path: String
    /// What is wrong with it.
    let reason: String
  }

  /// One value changed, with where it was.
  struct Change {
    /// Where the value was, as concrete steps.
    let path: [JSONPath.Component]
    /// The value as it was.
    let original: JSONValue
    /// The value as it is now; `nil` when it was dropped.
    let redacted: JSONValue?
  }

  /// The rules.
  let policy: RedactionPolicy
  /// The key of `hash`.
  let key: [UInt8]

  /// `value` after the policy, and what changed in it; `nil` for a value dropped as a whole.
  ///
  /// - Parameters:
  ///   - value: An event, or a value inside one.
  ///   - path: Where `value` is in its event.
  ///   - changes: Where each change is recorded.
  /// - Returns: The redacted value, or `nil` when a rule drops it.
  /// - Throws: ``Mistake`` for a value of a kind its rule cannot change.
  func redact(
    _ value: JSONValue, at path: inout [JSONPath.Component], changes: inout [Change]
  ) throws(Mistake) -> JSONValue? {
    if let rule = policy.rules.first(where: { $0.pattern.matches(path) }) {
      let result = try apply(rule.action, to: value, at: path)
      if result != value { changes.append(Change(path: path, original: value, redacted: result)) }
      return result
    }
    switch value {
    case .object(let object):
      var members: [JSONObject.Member] = []
      members.reserveCapacity(object.count)
      for member in object.members {
        path.append(.key(member.key))
        defer { path.removeLast() }
        if let kept = try redact(member.value, at: &path, changes: &changes) {
          members.append((member.key, kept))
        }
      }
      return .object(JSONObject(sortedMembers: members))
    case .array(let elements):
      var kept: [JSONValue] = []
      kept.reserveCapacity(elements.count)
      for (index, element) in elements.enumerated() {
        path.append(.index(index))
        defer { path.removeLast() }
        if let element = try redact(element, at: &path, changes: &changes) { kept.append(element) }
      }
      return .array(kept)
    case .null, .bool, .number, .string:
      return value
    }
  }

  private func apply(
    _ action: RedactionPolicy.Action, to value: JSONValue, at path: [JSONPath.Component]
  ) throws(Mistake) -> JSONValue? {
    func mistake(_ reason: String) -> Mistake {
      Mistake(path: JSONPath(components: path).description, reason: reason)
    }
    switch action {
    case .drop:
      return nil
    case .replace(let constant):
      return constant
    case .hash:
      var writer = JSONWriter()
      writer.write(value)
      return .string(HMACSHA256.hexDigest(key: key, message: writer.bytes))
    case .round(let decimals):
      switch value {
      case .null: return value
      case .number(let number): return .number(Self.round(number, decimals: decimals))
      default: throw mistake("cannot round \(value.kind.phrase): 'round' takes numbers")
      }
    case .shift(let offset):
      switch value {
      case .null: return value
      case .number(let number):
        guard let shifted = Self.shift(number, by: offset) else {
          throw mistake("cannot shift \(number): the result is too large for a JSON number")
        }
        return .number(shifted)
      default:
        throw mistake("cannot shift \(value.kind.phrase): 'shift' takes numbers (times)")
      }
    }
  }

  /// `number` rounded to `decimals` decimals, half away from zero; a whole number as it is.
  static func round(_ number: JSONNumber, decimals: Int) -> JSONNumber {
    if number.isInteger { return number }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let value = number.doubleValue
    let scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
    // Beyond 2^53 a double has no decimals left to round.
    guard scaled.isFinite, abs(value * scale) < 9_007_199_254_740_992 else { return number }
    let rounded = scaled / scale
    return JSONNumber(rounded)
  }

  /// `number` plus `offset`: exact for whole numbers, a double's sum otherwise; `nil` when the
  /// sum is not finite.
  static func shift(_ number: JSONNumber, by offset: JSONNumber) -> JSONNumber? {
    if let a = number.exactInteger, let b = offset.exactInteger {
      let (sum, overflow) = a.addingReportingOverflow(b)
      return overflow ? nil : JSONNumber(sum)
    }
    let sum = number.doubleValue + offset.doubleValue
    return sum.isFinite ? JSONNumber(sum) : nil
  }
}
