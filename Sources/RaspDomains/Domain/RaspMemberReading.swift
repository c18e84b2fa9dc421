import RaspJSON

/// A domain that gives a top-level member of its state's JSON straight from the typed state,
/// without encoding the rest: how `rasp check --assert '.geo.heading < 360'` reads
/// `heading` after each event without writing and parsing `geo`'s JSON.
///
/// A member is looked up once, by ``member(named:)``, and then read after every event. The
/// value read must be exactly the one that locating the member in
/// ``RaspDomain/encode(_:into:)``'s JSON and parsing it gives: the same numbers in the same
/// form (``RaspJSON/JSONValue/written(_:)``: `90` an integer, `271.5` a double, NaN `null`),
/// `null` where the JSON has `null`, and objects with the same members.
///
/// ```swift
/// extension CounterDomain: RaspMemberReading {
///   package func member(named name: String) -> RaspStateMember? {
///     name == "count" ? RaspStateMember(name: name, index: 0) : nil
///   }
///   package func value(of member: RaspStateMember, in state: CounterState) -> JSONValue {
///     .number(JSONNumber(state.count))
///   }
/// }
/// ```
package protocol RaspMemberReading: RaspDomain {
  /// The member `name`, for ``value(of:in:)`` to read, or `nil` when the domain does not read
  /// it from its typed state (a name its JSON never has, say): then it is read from the JSON.
  ///
  /// - Parameter name: A key of the state's JSON object.
  /// - Returns: The member, or `nil`.
  func member(named name: String) -> RaspStateMember?

  /// The value of a member of `state`'s JSON: `null` when the JSON has no such member.
  ///
  /// - Parameters:
  ///   - member: A member from ``member(named:)``.
  ///   - state: The state.
  /// - Returns: The member's value, as its JSON parses.
  func value(of member: RaspStateMember, in state: State) -> JSONValue

  /// Reads the value of a member of `state`'s JSON into `value`, in the room of the value it
  /// held where the domain can (the elements of an array): what ``value(of:in:)`` gives,
  /// without an allocation at each event for a member read after every one.
  ///
  /// - Parameters:
  ///   - member: A member from ``member(named:)``.
  ///   - state: The state.
  ///   - value: Any value, replaced by the member's.
  func read(_ member: RaspStateMember, in state: State, into value: inout JSONValue)
}

/// A top-level member of a domain's state, as ``RaspMemberReading/member(named:)`` found it:
/// its name and the position the domain gave it.
///
/// ```swift
/// let heading = GeoDomain().member(named: "heading")!
/// GeoDomain().value(of: heading, in: GeoState(heading: 90))   // 90
/// ```
package struct RaspStateMember: Sendable, Equatable {
  /// The member's key.
  package let name: String
  /// Its position among the domain's members, as the domain numbers them.
  package let index: Int

  /// A member of a domain.
  ///
  /// - Parameters:
  ///   - name: The key.
  ///   - index: Its position, as the domain numbers them.
  package init(name: String, index: Int) {
    self.name = name
    self.index = index
  }
}

extension RaspMemberReading {
  /// The value ``value(of:in:)`` gives, in room of its own.
  package func read(_ member: RaspStateMember, in state: State, into value: inout JSONValue) {
    value = self.value(of: member, in: state)
  }

  /// Makes `value` the array of `strings`, in the room of the array it was, when it was one
  /// and no other value shares it.
  static func strings(_ strings: [String], into value: inout JSONValue) {
    var elements: [JSONValue] = []
    if case .array(let array) = value { elements = array }
    // The array is `elements`' alone now, changed in place: its elements replaced, then the
    // extra ones removed or the missing ones added.
    value = .null
    let common = min(elements.count, strings.count)
    for position in 0..<common { elements[position] = .string(strings[position]) }
    while elements.count > strings.count { elements.removeLast() }
    if strings.count > common {
      elements.reserveCapacity(strings.count)
      for position in common..<strings.count { elements.append(.string(strings[position])) }
    }
    value = .array(elements)
  }

  /// The member `name` when it is one of `names`, numbered by its position there.
  static func member(named name: String, among names: [String]) -> RaspStateMember? {
    names.firstIndex(of: name).map { RaspStateMember(name: name, index: $0) }
  }

  /// The value of an optional string: the string, or `null`.
  static func optional(_ string: String?) -> JSONValue {
    string.map(JSONValue.string) ?? .null
  }

  /// The value of an optional double, as written (``RaspJSON/JSONValue/written(_:)``).
  static func optional(_ number: Double?) -> JSONValue {
    number.map(JSONValue.written) ?? .null
  }

  /// An object of members given in key order.
  static func object(_ members: [(key: String, value: JSONValue)]) -> JSONValue {
    .object(JSONObject(sortedMembers: members))
  }
}
