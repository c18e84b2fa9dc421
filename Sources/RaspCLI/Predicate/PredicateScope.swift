import RaspJSON

/// What an expression of the predicate language reads: the state after the event, domain by
/// domain, the state before it, the event and its key.
///
/// Only the domains an expression reads need their values (``PredicateReads``); the others
/// may hold anything.
///
/// ```swift
/// var scope = PredicateScope(names: ["cart"])
/// scope.current[0] = ["total": 3]
/// try PredicateEvaluator.holds(expression, in: scope)
/// ```
struct PredicateScope {
  /// The domains' names, in the order of ``current`` and ``previous``.
  let names: [String]
  /// Each domain's value after the event.
  var current: [JSONValue]
  /// Each domain's value before the event (`$prev`).
  var previous: [JSONValue]
  /// The values of the members read member by member, after the event, by slot
  /// (``PredicateExpression/member(_:domain:name:previous:)``).
  var currentMembers: [JSONValue] = []
  /// The same members before the event.
  var previousMembers: [JSONValue] = []
  /// The event as read (`$event`), `null` when there is none.
  var event: JSONValue = .null
  /// The event's key (`$key`), `null` unless the replay is keyed.
  var key: JSONValue = .null

  /// A scope of `names`, every value `null`.
  init(names: [String]) {
    self.names = names
    current = Array(repeating: .null, count: names.count)
    previous = current
  }

  /// The whole state, after the event or before it, as one object.
  func state(previous isPrevious: Bool) -> JSONValue {
    let values = isPrevious ? previous : current
    var object = JSONObject()
    for (name, value) in zip(names, values) { object[name] = value }
    return .object(object)
  }
}

/// What an expression reads: which domains, and whether the event, the key or the state
/// before the event.
struct PredicateReads: Equatable {
  /// The domains read after the event, by position.
  var domains: Set<Int> = []
  /// Whether the whole state is read (`.` at the top, `keys`, `length` of it).
  var readsWholeState = false
  /// Whether `$prev` is read.
  var readsPrevious = false
  /// Whether `$event` is read.
  var readsEvent = false
  /// Whether `$key` is read.
  var readsKey = false

  /// What `expression` reads.
  init(_ expression: PredicateExpression) {
    visit(expression, isTop: true)
  }

  private mutating func visit(_ expression: PredicateExpression, isTop: Bool) {
    switch expression {
    case .literal: break
    case .member(_, _, _, let previous): if previous { readsPrevious = true }
    case .array(let elements): for element in elements { visit(element, isTop: isTop) }
    case .object(let members): for member in members { visit(member.value, isTop: isTop) }
    case .dot: if isTop { readsWholeState = true }
    case .variable(let variable):
      switch variable {
      case .event: readsEvent = true
      case .key: readsKey = true
      case .prev:
        readsPrevious = true
        readsWholeState = true
      }
    case .domain(let index, _, let previous):
      domains.insert(index)
      if previous { readsPrevious = true }
    case .field(let base, _): visit(base, isTop: isTop)
    case .index(let base, let index):
      visit(base, isTop: isTop)
      visit(index, isTop: isTop)
    case .pipe(let left, let right):
      visit(left, isTop: isTop)
      visit(right, isTop: false)
    case .negate(let value), .not(let value): visit(value, isTop: isTop)
    case .and(let left, let right), .or(let left, let right),
      .alternative(let left, let right), .comparison(_, let left, let right),
      .arithmetic(_, let left, let right):
      visit(left, isTop: isTop)
      visit(right, isTop: isTop)
    case .builtin(let builtin, let argument):
      if isTop { readsWholeState = true }
      if let argument { visit(argument, isTop: isTop && builtin == .has) }
    }
  }

  /// The paths into the state an expression reads, to show before and after an event: each
  /// chain of names and constant indexes from a domain, longest first met, `$prev`'s as the
  /// state's.
  static func statePaths(of expression: PredicateExpression) -> [PredicateExpression] {
    var paths: [PredicateExpression] = []
    func add(_ path: PredicateExpression) {
      let current = path.readingCurrent
      if !paths.contains(current) { paths.append(current) }
    }
    func visit(_ expression: PredicateExpression, isTop: Bool) {
      if isTop, expression.isStatePath {
        add(expression)
        return
      }
      switch expression {
      case .array(let elements): for element in elements { visit(element, isTop: isTop) }
      case .object(let members): for member in members { visit(member.value, isTop: isTop) }
      case .field(let base, _): visit(base, isTop: isTop)
      case .index(let base, let index):
        visit(base, isTop: isTop)
        visit(index, isTop: isTop)
      case .pipe(let left, let right):
        visit(left, isTop: isTop)
        visit(right, isTop: false)
      case .negate(let value), .not(let value): visit(value, isTop: isTop)
      case .and(let left, let right), .or(let left, let right),
        .alternative(let left, let right), .comparison(_, let left, let right),
        .arithmetic(_, let left, let right):
        visit(left, isTop: isTop)
        visit(right, isTop: isTop)
      case .builtin(let builtin, let argument):
        if let argument { visit(argument, isTop: isTop && builtin == .has) }
      default: break
      }
    }
    visit(expression, isTop: true)
    return paths
  }
}

extension PredicateExpression {
  /// Whether this is a path from a domain: names and constant indexes.
  var isStatePath: Bool {
    switch self {
    case .domain, .member: return true
    case .field(let base, _): return base.isStatePath
    case .index(let base, .literal): return base.isStatePath
    default: return false
    }
  }

  /// The same path into the state after the event, for one into the state before it.
  var readingCurrent: PredicateExpression {
    switch self {
    case .domain(let index, let name, _): return .domain(index, name: name, previous: false)
    case .member(let slot, let domain, let name, _):
      return .member(slot, domain: domain, name: name, previous: false)
    case .field(let base, let name): return .field(base.readingCurrent, name)
    case .index(let base, let index): return .index(base.readingCurrent, index)
    default: return self
    }
  }

  /// The same path into the state before the event.
  var readingPrevious: PredicateExpression {
    switch self {
    case .domain(let index, let name, _): return .domain(index, name: name, previous: true)
    case .member(let slot, let domain, let name, _):
      return .member(slot, domain: domain, name: name, previous: true)
    case .field(let base, let name): return .field(base.readingPrevious, name)
    case .index(let base, let index): return .index(base.readingPrevious, index)
    default: return self
    }
  }
}

extension PredicateReads {
  /// The members each domain is read by, when it is read only as `.domain.member…` (or
  /// `$prev.domain.member…`): then those members are all of it that needs reading. A domain
  /// read in any other way (`.geo`, `.geo | keys`, `.["geo"]`) maps to `nil`: all of it.
  ///
  /// - Parameter expressions: The expressions.
  /// - Returns: The members read, by domain position, for the domains the expressions name.
  static func membersRead(by expressions: [PredicateExpression]) -> [Int: Set<String>?] {
    var members: [Int: Set<String>?] = [:]
    func visit(_ expression: PredicateExpression) {
      switch expression {
      case .field(.domain(let index, _, _), let name):
        if let known = members[index] {
          if var names = known {
            names.insert(name)
            members[index] = .some(names)
          }
        } else {
          members[index] = .some([name])
        }
      case .domain(let index, _, _): members[index] = .some(nil)
      case .literal, .dot, .variable, .member: break
      case .array(let elements): elements.forEach(visit)
      case .object(let objectMembers): objectMembers.forEach { visit($0.value) }
      case .field(let base, _): visit(base)
      case .index(let base, let index):
        visit(base)
        visit(index)
      case .negate(let value), .not(let value): visit(value)
      case .pipe(let left, let right), .and(let left, let right), .or(let left, let right),
        .alternative(let left, let right), .comparison(_, let left, let right),
        .arithmetic(_, let left, let right):
        visit(left)
        visit(right)
      case .builtin(_, let argument): argument.map(visit)
      }
    }
    expressions.forEach(visit)
    return members
  }
}

extension PredicateScope {
  /// Makes the member's value after the event until now its value before the event, moved
  /// rather than copied, and reads its new value in the room of the value before that.
  ///
  /// - Parameters:
  ///   - slot: The member's slot, in ``currentMembers`` and ``previousMembers``.
  ///   - read: Replaces the value it is given (the one dropped) with the new value.
  @inline(__always)
  mutating func shiftMember(at slot: Int, reading read: (inout JSONValue) -> Void) {
    precondition(slot < currentMembers.count && slot < previousMembers.count)
    var previous = previousMembers
    previousMembers = []
    previous.withUnsafeMutableBufferPointer { previous in
      currentMembers.withUnsafeMutableBufferPointer { current in
        let before = previous.baseAddress! + slot
        let after = current.baseAddress! + slot
        var room = before.move()
        before.moveInitialize(from: after, count: 1)
        read(&room)
        after.initialize(to: consume room)
      }
    }
    previousMembers = previous
  }
}
