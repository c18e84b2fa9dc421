import RaspJSON

/// Compares two states member by member, remembering each member's last pair of values: what
/// makes comparing cheap when one version changes every state the same way.
///
/// A declared change (`--allow add:cart.coupon`) makes the two versions' states differ after
/// every event, and parsing and diffing both whole states each time cost fifteen replays. But
/// a state is its domains' members (`{"cart":…,"geo":…}`, canonical JSON), and an event
/// changes one domain: the other members' bytes are the ones seen at the event before. So the
/// states are split into members (a scan, no values built), equal members cost a `memcmp`,
/// and a member whose two values are the pair it had last time has the differences it had
/// then; only a new pair is parsed and diffed, wrapped in an object of that one member so that
/// the differences' paths are those of the whole state.
///
/// ```swift
/// var members = MemberComparison()
/// let verdict = members.compare(oldState, newState) { old, new in
///   JSONDiff.differences(from: old, to: new, options: options)
/// }
/// // verdict?.unintended == 0: only allowed differences
/// ```
struct MemberComparison {
  /// What a pair of values of one member differs by.
  struct Outcome {
    /// How many differences no `--allow` allows.
    var unintended: Int
    /// How many it allows.
    var allowed: Int
    /// Which of the allowed changes allowed them.
    var allowances: Set<Int>

    /// Nothing differs.
    static let none = Outcome(unintended: 0, allowed: 0, allowances: [])

    /// Both outcomes together.
    func adding(_ other: Outcome) -> Outcome {
      Outcome(
        unintended: unintended + other.unintended, allowed: allowed + other.allowed,
        allowances: allowances.union(other.allowances))
    }
  }

  /// A member's last pair of values and what they differed by.
  private struct Remembered {
    var key: [UInt8]
    var old: [UInt8]
    var new: [UInt8]
    var outcome: Outcome
  }

  /// By the member's place in the state (its key checked).
  private var remembered: [Remembered?] = []
  /// The members of the two states compared last, kept for their capacity.
  private var oldMembers: [Member] = []
  private var newMembers: [Member] = []

  /// Where one member's key (with its quotes) and value are, as offsets in the state.
  struct Member: Equatable {
    var key: Range<Int>
    var value: Range<Int>
  }

  /// What two states differ by, member by member; `nil` when either is not an object or
  /// their members are not the same keys in the same order (then compare them whole).
  ///
  /// - Parameters:
  ///   - old: The old version's state, canonical JSON.
  ///   - new: The new version's.
  ///   - classify: What a pair of one-member objects (`{"cart":…}`) differs by.
  /// - Returns: What the states differ by, all members together.
  mutating func compare(
    _ old: ArraySlice<UInt8>, _ new: ArraySlice<UInt8>,
    classify: (JSONValue, JSONValue) -> Outcome
  ) -> Outcome? {
    old.withUnsafeBufferPointer { oldBytes in
      new.withUnsafeBufferPointer { newBytes in
        compare(oldBytes, newBytes, classify: classify)
      }
    }
  }

  private mutating func compare(
    _ old: UnsafeBufferPointer<UInt8>, _ new: UnsafeBufferPointer<UInt8>,
    classify: (JSONValue, JSONValue) -> Outcome
  ) -> Outcome? {
    guard Self.members(of: old, into: &oldMembers), Self.members(of: new, into: &newMembers),
      oldMembers.count == newMembers.count
    else { return nil }
    if remembered.count < oldMembers.count {
      remembered += Array(repeating: nil, count: oldMembers.count - remembered.count)
    }
    var total = Outcome.none
    for index in oldMembers.indices {
      let a = oldMembers[index]
      let b = newMembers[index]
      let key = UnsafeBufferPointer(rebasing: old[a.key])
      guard UTF8Order.equal(key, UnsafeBufferPointer(rebasing: new[b.key])) else { return nil }
      let oldValue = UnsafeBufferPointer(rebasing: old[a.value])
      let newValue = UnsafeBufferPointer(rebasing: new[b.value])
      if UTF8Order.equal(oldValue, newValue) { continue }
      if let last = remembered[index],
        last.key.withUnsafeBufferPointer({ UTF8Order.equal($0, key) }),
        last.old.withUnsafeBufferPointer({ UTF8Order.equal($0, oldValue) }),
        last.new.withUnsafeBufferPointer({ UTF8Order.equal($0, newValue) })
      {
        total = total.adding(last.outcome)
        continue
      }
      guard let oldObject = Self.object(key, oldValue), let newObject = Self.object(key, newValue)
      else { return nil }
      let outcome = classify(oldObject, newObject)
      remembered[index] = Remembered(
        key: Array(key), old: Array(oldValue), new: Array(newValue), outcome: outcome)
      total = total.adding(outcome)
    }
    return total
  }

  /// The object of one member, `{key: value}`, parsed.
  private static func object(
    _ key: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>
  ) -> JSONValue? {
    var text: [UInt8] = [UInt8(ascii: "{")]
    text += key
    text.append(UInt8(ascii: ":"))
    text += value
    text.append(UInt8(ascii: "}"))
    return text.withUnsafeBufferPointer {
      try? JSONParser.parse($0, maximumDepth: JSONLimits.maximumWrittenDepth + 1)
    }
  }

  /// Where each member's key (with its quotes) and value are in an object that the replay
  /// wrote (valid, compact JSON): one pass over its bytes that follows only strings and
  /// nesting, into `members`; `false` when it is not an object.
  ///
  /// ```swift
  /// MemberComparison.members(of: #"{"a":[1,{"b":2}],"c":"}"}"#, into: &members)
  /// // keys 1..<4 and 16..<19, values 5..<15 and 20..<23
  /// ```
  static func members(of bytes: UnsafeBufferPointer<UInt8>, into members: inout [Member])
    -> Bool
  {
    members.removeAll(keepingCapacity: true)
    let count = bytes.count
    guard count >= 2, bytes[0] == UInt8(ascii: "{"), bytes[count - 1] == UInt8(ascii: "}")
    else { return false }
    if count == 2 { return true }
    var index = 1
    var keyStart = 1
    var valueStart = -1
    var depth = 0
    while index < count - 1 {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        while index < count, bytes[index] != UInt8(ascii: "\"") {
          index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
      case UInt8(ascii: ":") where depth == 0 && valueStart < 0:
        valueStart = index + 1
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
      case UInt8(ascii: ",") where depth == 0:
        guard valueStart > keyStart else { return false }
        members.append(Member(key: keyStart..<(valueStart - 1), value: valueStart..<index))
        keyStart = index + 1
        valueStart = -1
      default:
        break
      }
      index += 1
    }
    guard depth == 0, valueStart > keyStart, index == count - 1 else { return false }
    members.append(Member(key: keyStart..<(valueStart - 1), value: valueStart..<(count - 1)))
    return true
  }
}
