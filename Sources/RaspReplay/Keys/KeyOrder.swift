import RaspJSON

/// The order jq sorts JSON values in, which `--final` prints keys in: `null`, `false`,
/// `true`, numbers, strings (by their UTF-8 bytes), arrays (element by element), objects (by
/// their sorted keys, then their values in key order).
package enum KeyOrder {
  enum Order { case before, same, after }

  /// A key's canonical JSON, ready to sort: a string without escapes — most keys — is
  /// compared by its bytes, anything else by its value.
  package struct SortKey {
    let bytes: [UInt8]
    /// The string's bytes between its quotes, for a string without escapes.
    let plain: ArraySlice<UInt8>?
    /// The value, for anything else.
    let value: JSONValue

    package init(_ bytes: [UInt8]) {
      self.bytes = bytes
      if bytes.count >= 2, bytes.first == UInt8(ascii: "\""),
        !bytes.contains(UInt8(ascii: "\\"))
      {
        plain = bytes[1..<(bytes.count - 1)]
        value = .null
      } else {
        plain = nil
        value = (try? JSONParser.parse(bytes)) ?? .null
      }
    }

    /// The value, made for a plain string.
    var resolved: JSONValue {
      plain.map { .string(String(decoding: $0, as: UTF8.self)) } ?? value
    }
  }

  /// Whether `a` sorts before `b`: by value, then — for distinct keys of equal value — by
  /// their bytes.
  package static func precedes(_ a: SortKey, _ b: SortKey) -> Bool {
    let order: Order
    if let x = a.plain, let y = b.plain {
      order = x.elementsEqual(y) ? .same : x.lexicographicallyPrecedes(y) ? .before : .after
    } else {
      order = compare(a.resolved, b.resolved) ?? .same
    }
    if order != .same { return order == .before }
    return a.bytes.lexicographicallyPrecedes(b.bytes)
  }

  /// How `a` compares with `b`; `nil` never (kept optional for values that cannot compare).
  static func compare(_ a: JSONValue, _ b: JSONValue) -> Order? {
    let (rankA, rankB) = (rank(a), rank(b))
    if rankA != rankB { return rankA < rankB ? .before : .after }
    switch (a, b) {
    case (.number(let x), .number(let y)):
      // Whole numbers past 2^53 by their exact values, which their doubles may not tell apart.
      if let u = x.exactInteger, let v = y.exactInteger {
        return u < v ? .before : u > v ? .after : .same
      }
      let (u, v) = (x.doubleValue, y.doubleValue)
      return u < v ? .before : u > v ? .after : .same
    case (.string(let x), .string(let y)):
      return bytes(x.utf8, y.utf8)
    case (.array(let x), .array(let y)):
      for (u, v) in zip(x, y) {
        if let order = compare(u, v), order != .same { return order }
      }
      return x.count < y.count ? .before : x.count > y.count ? .after : .same
    case (.object(let x), .object(let y)):
      let keysX = x.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      let keysY = y.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      if let order = compare(
        .array(keysX.map(JSONValue.string)), .array(keysY.map(JSONValue.string))),
        order != .same
      {
        return order
      }
      for key in keysX {
        if let order = compare(x[key] ?? .null, y[key] ?? .null), order != .same { return order }
      }
      return .same
    default:
      return .same
    }
  }

  private static func rank(_ value: JSONValue) -> Int {
    switch value {
    case .null: 0
    case .bool(let flag): flag ? 2 : 1
    case .number: 3
    case .string: 4
    case .array: 5
    case .object: 6
    }
  }

  private static func bytes(_ a: String.UTF8View, _ b: String.UTF8View) -> Order {
    if a.elementsEqual(b) { return .same }
    return a.lexicographicallyPrecedes(b) ? .before : .after
  }
}
