/// The members of a JSON object, kept sorted by key and unique.
///
/// Keys are ordered by their UTF-8 bytes, which is Unicode code point order and the order
/// `jq -S` prints. Keeping members sorted makes canonical output, comparison by meaning and
/// structural diffs a single ordered walk.
///
/// ```swift
/// var links = JSONObject()
/// links["self"] = "/orders/1"
/// links["next"] = "/orders/2"
/// links.keys        // ["next", "self"]
/// links["self"] = nil
/// links.count       // 1
/// ```
public struct JSONObject: Sendable, Hashable {
  /// A key and its value.
  public typealias Member = (key: String, value: JSONValue)

  /// The members in key order.
  public private(set) var members: [Member]

  /// Creates an empty object.
  ///
  /// ```swift
  /// let empty = JSONObject()
  /// ```
  public init() { members = [] }

  /// Creates an object from members that are already sorted by key and unique.
  ///
  /// The parser uses this after sorting and checking for duplicates; other callers use
  /// the subscript, which keeps the order itself.
  ///
  /// ```swift
  /// let object = JSONObject(sortedMembers: [("a", 1), ("b", 2)])
  /// ```
  ///
  /// - Parameter sortedMembers: Members sorted by ``JSONObject/keyPrecedes(_:_:)``.
  public init(sortedMembers: [Member]) { members = sortedMembers }

  /// The number of members.
  ///
  /// ```swift
  /// JSONObject().count   // 0
  /// ```
  public var count: Int { members.count }

  /// Whether the object has no members.
  ///
  /// ```swift
  /// JSONObject().isEmpty   // true
  /// ```
  public var isEmpty: Bool { members.isEmpty }

  /// The keys in order.
  ///
  /// ```swift
  /// let object: JSONValue = ["b": 1, "a": 2]
  /// // keys: ["a", "b"]
  /// ```
  public var keys: [String] { members.map(\.key) }

  /// The value for `key`, or `nil`; assigning `nil` removes the member.
  ///
  /// ```swift
  /// var object = JSONObject()
  /// object["tab"] = "home"
  /// object["tab"]          // .string("home")
  /// ```
  ///
  /// - Parameter key: The member's key.
  /// - Complexity: O(log *n*) to read; O(*n*) to insert or remove.
  public subscript(key: String) -> JSONValue? {
    get {
      let (index, found) = search(key)
      // Not `found ? value : nil`: JSONValue is ExpressibleByNilLiteral, so that `nil` would
      // be read as `.null` and a missing member would look like a null one.
      guard found else { return Optional.none }
      return members[index].value
    }
    set {
      let (index, found) = search(key)
      switch (found, newValue) {
      case (true, let value?): members[index].value = value
      case (true, nil): members.remove(at: index)
      case (false, let value?): members.insert((key, value), at: index)
      case (false, nil): break
      }
    }
  }

  /// Whether UTF-8 `a` sorts before `b` in canonical key order.
  ///
  /// ```swift
  /// JSONObject.keyPrecedes("Z", "a")   // true: code point order
  /// ```
  ///
  /// - Parameters:
  ///   - a: A key.
  ///   - b: Another key.
  /// - Returns: `true` when `a` comes first.
  public static func keyPrecedes(_ a: String, _ b: String) -> Bool {
    UTF8Order.compare(a, b) < 0
  }

  /// The index where `key` is or would be inserted, and whether it is there.
  private func search(_ key: String) -> (index: Int, found: Bool) {
    var low = 0
    var high = members.count
    while low < high {
      let middle = (low + high) / 2
      let order = UTF8Order.compare(members[middle].key, key)
      if order == 0 { return (middle, true) }
      if order < 0 { low = middle + 1 } else { high = middle }
    }
    return (low, false)
  }

  /// Whether two objects have the same members.
  ///
  /// ```swift
  /// JSONObject() == JSONObject()   // true
  /// ```
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.members.count == rhs.members.count else { return false }
    for (left, right) in zip(lhs.members, rhs.members)
    where !UTF8Order.equal(left.key, right.key) || left.value != right.value {
      return false
    }
    return true
  }

  /// Hashes the members in order.
  ///
  /// ```swift
  /// let set: Set<JSONObject> = [JSONObject()]
  /// ```
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(members.count)
    for member in members {
      hasher.combine(member.key)
      hasher.combine(member.value)
    }
  }
}
