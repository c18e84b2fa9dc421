import Rasp
import RaspJSON

/// The state of a spec domain: a JSON value, changed by the operations of each event.
///
/// An event's operations apply all or nothing. They change the value in place, in time
/// proportional to their paths rather than to the size of the state, and note each change; an
/// operation that cannot apply — appending to a number, popping an empty array, an index out of
/// range — takes back the changes of those before it and rejects the whole event with a
/// ``RaspEventError`` whose reason says which operation failed and why.
///
/// ```swift
/// var cart = RaspSpecState(["items": [], "total": 0])
/// try cart.apply(event: RaspSpecEvent(operations: [
///   .append(try RaspSpecPath("items"), value: .literal("A-1")),
///   .increment(try RaspSpecPath("total"), by: .literal(20)),
/// ]))
/// cart.value   // {"items":["A-1"],"total":20}
/// try? cart.apply(event: RaspSpecEvent(operations: [
///   .clear(try RaspSpecPath("items")),
///   .pop(try RaspSpecPath("items")),     // fails: the clear is rolled back too
/// ]))
/// cart.value   // {"items":["A-1"],"total":20}
/// ```
public struct RaspSpecState: RaspState, Sendable, Hashable {
  /// The state's JSON.
  public var value: JSONValue

  /// Creates a state holding `value`.
  ///
  /// ```swift
  /// let state = RaspSpecState(["count": 0])
  /// ```
  ///
  /// - Parameter value: The JSON; an empty object by default.
  public init(_ value: JSONValue = .object(JSONObject())) {
    self.value = value
  }

  /// Applies the event's operations in order, all or nothing.
  ///
  /// ```swift
  /// try state.apply(event: RaspSpecEvent(operations: [.pop(try RaspSpecPath("stack"))]))
  /// ```
  ///
  /// - Parameter event: The event, with literal operands.
  /// - Throws: ``RaspEventError`` with ``RaspEventError/Reason/rejected(_:)`` when an operation
  ///   cannot apply; the state is then unchanged.
  public mutating func apply(event: RaspSpecEvent) throws(RaspEventError) {
    var journal: [SpecUndo] = []
    for operation in event.operations {
      do {
        try RaspSpecState.apply(operation, to: &value, journal: &journal)
      } catch {
        SpecEdit.undo(journal, in: &value)
        throw RaspEventError(
          offset: nil, reason: .rejected("cannot \(RaspSpecState.verb(operation)): \(error.detail)")
        )
      }
    }
  }

  /// `true`: ``apply(event:)`` takes back its changes before it throws, so the pipeline need
  /// not copy the state first.
  ///
  /// ```swift
  /// RaspSpecState.throwsBeforeMutating   // true
  /// ```
  public static var throwsBeforeMutating: Bool { true }

  /// What the operation was doing, for messages: `append to 'items'`, `pop 'stack'`.
  static func verb(_ operation: RaspSpecOperation) -> String {
    let target = SpecEdit.name(operation.path)
    switch operation {
    case .set: return "set \(target)"
    case .unset: return "unset \(target)"
    case .append, .appendUnique: return "append to \(target)"
    case .onlyIf(_, let operation): return verb(operation)
    case .remove(_, .literal(let value)): return "remove \(SpecEdit.quote(value)) from \(target)"
    case .remove: return "remove from \(target)"
    case .removeAt(_, .literal(let index)):
      return "remove index \(SpecEdit.quote(index)) from \(target)"
    case .removeAt: return "remove from \(target)"
    case .pop: return "pop \(target)"
    case .increment: return "increment \(target)"
    case .decrement: return "decrement \(target)"
    case .merge: return "merge into \(target)"
    case .clear: return "clear \(target)"
    case .toggle: return "toggle \(target)"
    case .removeSelected: return "remove \(target)"
    }
  }

  private static func literal(_ operand: RaspSpecOperand) throws(SpecRejection) -> JSONValue {
    guard case .literal(let value) = operand else {
      throw SpecRejection(
        detail:
          "its operand \(operand) was not read from an event; decode events with RaspSpecDomain")
    }
    return value
  }

  /// Applies one operation in place, noting each change in `journal`; each body throws before
  /// it changes anything.
  private static func apply(
    _ operation: RaspSpecOperation, to state: inout JSONValue, journal: inout [SpecUndo]
  ) throws(SpecRejection) {
    switch operation {
    case .set(let path, let operand):
      let newValue = try literal(operand)
      try SpecEdit.update(&state, at: path, missing: .create, journal: &journal) {
        value, place, journal in
        journal.append(.replaced(place, old: value))
        value = newValue
      }
    case .unset(let path):
      try SpecEdit.update(&state, at: path, missing: .ignore, journal: &journal) {
        value, place, journal in
        guard let old = value else { return }
        journal.append(.removed(place, old: old))
        value = nil
      }
    case .append(let path, let operand), .appendUnique(let path, let operand):
      let element = try literal(operand)
      var isUnique = false
      if case .appendUnique = operation { isUnique = true }
      try SpecEdit.update(&state, at: path, missing: .create, journal: &journal) {
        value, place, journal throws(SpecRejection) in
        // `if case`, not a `switch`, which would hold the array and make the append copy it.
        if case .array(var elements)? = value {
          if isUnique, elements.contains(element) { return }
          journal.append(.appended(place))
          value = nil
          elements.append(element)
          value = .array(elements)
          return
        }
        switch value {
        case nil, .null?:
          journal.append(.replaced(place, old: value))
          value = .array([element])
        case let other?:
          throw SpecRejection(detail: "it holds \(other.kind.phrase), not an array")
        }
      }
    case .remove(let path, let operand):
      let element = try literal(operand)
      try SpecEdit.update(&state, at: path, missing: .fail, journal: &journal) {
        value, place, journal throws(SpecRejection) in
        var elements = try array(value)
        guard let index = elements.firstIndex(of: element) else {
          throw SpecRejection(detail: "no element equals it")
        }
        journal.append(.removed(place + [.index(index)], old: elements[index]))
        value = nil
        elements.remove(at: index)
        value = .array(elements)
      }
    case .removeAt(let path, let operand):
      let requested = try index(try literal(operand))
      try SpecEdit.update(&state, at: path, missing: .fail, journal: &journal) {
        value, place, journal throws(SpecRejection) in
        var elements = try array(value)
        let index = requested < 0 ? elements.count + requested : requested
        guard elements.indices.contains(index) else {
          throw SpecRejection(detail: "it has \(SpecEdit.count(elements.count, "element"))")
        }
        journal.append(.removed(place + [.index(index)], old: elements[index]))
        value = nil
        elements.remove(at: index)
        value = .array(elements)
      }
    case .pop(let path):
      try SpecEdit.update(&state, at: path, missing: .fail, journal: &journal) {
        value, place, journal throws(SpecRejection) in
        var elements = try array(value)
        guard let last = elements.last else {
          throw SpecRejection(detail: "the array is empty")
        }
        journal.append(.removed(place + [.index(elements.count - 1)], old: last))
        value = nil
        elements.removeLast()
        value = .array(elements)
      }
    case .increment(let path, let operand), .decrement(let path, let operand):
      let amount = try number(try literal(operand))
      let subtracts = if case .decrement = operation { true } else { false }
      try SpecEdit.update(&state, at: path, missing: .create, journal: &journal) {
        value, place, journal throws(SpecRejection) in
        let current: JSONNumber
        switch value {
        case nil, .null?: current = JSONNumber(0)
        case .number(let number)?: current = number
        case let other?:
          throw SpecRejection(detail: "it holds \(other.kind.phrase), not a number")
        }
        guard let result = RaspSpecState.add(current, amount, subtracting: subtracts) else {
          throw SpecRejection(detail: "the result is too large for a JSON number")
        }
        journal.append(.replaced(place, old: value))
        value = .number(result)
      }
    case .merge(let path, let operand):
      guard case .object(let patch) = try literal(operand) else {
        throw SpecRejection(
          detail: "its value must be an object, found \(try literal(operand).kind.phrase)")
      }
      try SpecEdit.update(&state, at: path, missing: .create, journal: &journal) {
        value, place, journal throws(SpecRejection) in
        switch value {
        case nil, .null?:
          journal.append(.replaced(place, old: value))
          value = .object(patch)
        case .object(var object)?:
          journal.append(.replaced(place, old: value))
          value = nil
          DataState.merge(patch, into: &object)
          value = .object(object)
        case let other?:
          throw SpecRejection(detail: "it holds \(other.kind.phrase), not an object")
        }
      }
    case .onlyIf(let condition, _):
      throw SpecRejection(
        detail:
          "its condition '\(String(condition.description.dropFirst()))' was not tested against "
          + "an event; decode events with RaspSpecDomain")
    case .toggle(let path):
      try SpecEdit.update(&state, at: path, missing: .create, journal: &journal) {
        value, place, journal throws(SpecRejection) in
        switch value {
        case nil, .null?:
          journal.append(.replaced(place, old: value))
          value = .bool(true)
        case .bool(let flag)?:
          journal.append(.replaced(place, old: value))
          value = .bool(!flag)
        case let other?:
          throw SpecRejection(detail: "it holds \(other.kind.phrase), not a boolean")
        }
      }
    case .removeSelected(let path):
      try SpecEdit.update(&state, at: path, missing: .fail, journal: &journal) {
        value, place, journal throws(SpecRejection) in
        guard let old = value else { throw SpecRejection(detail: "there is nothing there") }
        journal.append(.removed(place, old: old))
        value = nil
      }
    case .clear(let path):
      try SpecEdit.update(&state, at: path, missing: .fail, journal: &journal) {
        value, place, journal throws(SpecRejection) in
        switch value {
        case nil: throw SpecRejection(detail: "there is nothing there")
        case .array?:
          journal.append(.replaced(place, old: value))
          value = .array([])
        case .object?:
          journal.append(.replaced(place, old: value))
          value = .object(JSONObject())
        case let other?:
          throw SpecRejection(
            detail: "it holds \(other.kind.phrase), not an array or an object")
        }
      }
    }
  }

  /// The elements of the array an operation works on, or why there is none.
  private static func array(_ value: JSONValue?) throws(SpecRejection) -> [JSONValue] {
    switch value {
    case nil: throw SpecRejection(detail: "there is nothing there")
    case .array(let elements)?: return elements
    case let other?: throw SpecRejection(detail: "it holds \(other.kind.phrase), not an array")
    }
  }

  private static func number(_ value: JSONValue) throws(SpecRejection) -> JSONNumber {
    guard case .number(let number) = value else {
      throw SpecRejection(detail: "'by' must be a number, found \(value.kind.phrase)")
    }
    return number
  }

  private static func index(_ value: JSONValue) throws(SpecRejection) -> Int {
    guard case .number(let number) = value, let index = number.integerValue,
      let exact = Int(exactly: index)
    else {
      throw SpecRejection(detail: "'index' must be an integer, found \(SpecEdit.quote(value))")
    }
    return exact
  }

  /// `a + b` or `a - b`: exact for integers that do not overflow, otherwise in doubles; `nil`
  /// when the result is not finite.
  static func add(_ a: JSONNumber, _ b: JSONNumber, subtracting: Bool) -> JSONNumber? {
    if a.isInteger, b.isInteger, let x = a.integerValue, let y = b.integerValue {
      let (result, overflow) =
        subtracting ? x.subtractingReportingOverflow(y) : x.addingReportingOverflow(y)
      if !overflow { return JSONNumber(result) }
    }
    let result = subtracting ? a.doubleValue - b.doubleValue : a.doubleValue + b.doubleValue
    return JSONNumber(exactly: result)
  }
}
