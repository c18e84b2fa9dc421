import RaspJSON

/// jq's order of JSON values, by which the predicate language compares any two.
///
/// `null < false < true < numbers < strings < arrays < objects`. Numbers compare by value
/// (`1 == 1.0`), strings by their Unicode code points, arrays element by element and then by
/// length, objects first by their sorted keys (as arrays), then by their values key by key.
/// Comparing values of two types is never an error: `"5" > 10` is true, as a string is after
/// every number, and `null < 0` is true.
///
/// ```swift
/// PredicateOrder.compare(.null, .number(0), .less)       // true
/// PredicateOrder.compare("10", .number(9), .greater)     // true
/// ```
enum PredicateOrder {
  /// Whether `a operation b` holds.
  static func compare(_ a: JSONValue, _ b: JSONValue, _ operation: PredicateComparison) -> Bool {
    switch operation {
    case .equal: return a == b
    case .notEqual: return a != b
    case .less: return order(a, b) < 0
    case .lessOrEqual: return order(a, b) <= 0
    case .greater: return order(a, b) > 0
    case .greaterOrEqual: return order(a, b) >= 0
    }
  }

  /// A value's rank among the types.
  private static func rank(_ value: JSONValue) -> Int {
    switch value {
    case .null: return 0
    case .bool(false): return 1
    case .bool(true): return 2
    case .number: return 3
    case .string: return 4
    case .array: return 5
    case .object: return 6
    }
  }

  /// Negative, zero or positive as `a` is before, equal to or after `b`.
  static func order(_ a: JSONValue, _ b: JSONValue) -> Int {
    let (rankA, rankB) = (rank(a), rank(b))
    if rankA != rankB { return rankA < rankB ? -1 : 1 }
    switch (a, b) {
    case (.number(let x), .number(let y)):
      if x == y { return 0 }
      if let i = x.exactInteger, let j = y.exactInteger { return i < j ? -1 : 1 }
      let (p, q) = (x.doubleValue, y.doubleValue)
      return p < q ? -1 : p > q ? 1 : 0
    case (.string(let x), .string(let y)):
      return compareScalars(x, y)
    case (.array(let x), .array(let y)):
      for (p, q) in zip(x, y) {
        let result = order(p, q)
        if result != 0 { return result }
      }
      return x.count == y.count ? 0 : x.count < y.count ? -1 : 1
    case (.object(let x), .object(let y)):
      let keys = order(
        .array(x.keys.map { .string($0) }), .array(y.keys.map { .string($0) }))
      if keys != 0 { return keys }
      for (p, q) in zip(x.members, y.members) {
        let result = order(p.value, q.value)
        if result != 0 { return result }
      }
      return 0
    default: return 0
    }
  }

  /// Code point order, which is the order of UTF-8 bytes.
  private static func compareScalars(_ a: String, _ b: String) -> Int {
    var x = a.utf8.makeIterator()
    var y = b.utf8.makeIterator()
    while true {
      switch (x.next(), y.next()) {
      case (nil, nil): return 0
      case (nil, _): return -1
      case (_, nil): return 1
      case (let p?, let q?): if p != q { return p < q ? -1 : 1 }
      }
    }
  }
}
