import RaspJSON

/// One change that an event makes to a spec domain's state.
///
/// Paths are relative to the domain's state and use the syntax of `--select` (`items`,
/// `totals.gross`, `items[-1]`, `meta["a.b"]`), with steps that select by the event and by
/// content (`todos[?id == payload.id]`, `byId[payload.id]`, `todos[]`; see ``RaspSpecPath``):
/// an operation on a path that selects several values changes each of them. Where an operation
/// can build its target — `set`, `append`, `increment`, `decrement`, `merge`, `toggle` —
/// missing or `null` objects on the way are created; the others need their target to exist.
///
/// | Operation   | Changes the value at `path` by …                                   |
/// |-------------|--------------------------------------------------------------------|
/// | `set`       | replacing it with `value`                                          |
/// | `unset`     | removing it from its object or array; nothing if it is not there   |
/// | `append`    | adding `value` at the end of the array (a missing array is created) |
/// | `remove`    | removing the first element equal to `value`, or the one at `index`; |
/// |             | without either, removing what the path selects                      |
/// | `pop`       | removing the last element of the array                              |
/// | `increment` | adding `by` (default 1) to the number (a missing number counts as 0) |
/// | `decrement` | subtracting `by` (default 1) from the number                       |
/// | `merge`     | merging the object `value` into the object, deeply                 |
/// | `clear`     | emptying the array or object                                       |
/// | `toggle`    | flipping the boolean (a missing or `null` one becomes `true`)       |
///
/// `"unique": true` on `append` appends only a value that is not there yet; `"if"` on any
/// operation applies it only to the events that meet a condition (``onlyIf(_:_:)``).
///
/// ```swift
/// let add: [RaspSpecOperation] = [
///   .append(
///     try RaspSpecPath("items"), value: .event(try JSONPath("payload.sku"), default: nil)),
///   .increment(
///     try RaspSpecPath("total"), by: .event(try JSONPath("payload.price"), default: nil)),
/// ]
/// let toggled = RaspSpecOperation.toggle(try RaspSpecPath("[?id == payload].completed"))
/// ```
public enum RaspSpecOperation: Sendable, Hashable, CustomStringConvertible {
  /// Replaces the value at the path, creating missing parent objects.
  case set(RaspSpecPath, value: RaspSpecOperand)
  /// Removes the member or element at the path, if it is there.
  case unset(RaspSpecPath)
  /// Appends to the array at the path, creating it when missing or `null`.
  case append(RaspSpecPath, value: RaspSpecOperand)
  /// Removes the first element of the array at the path that equals the value.
  case remove(RaspSpecPath, value: RaspSpecOperand)
  /// Removes the element at an index (negative counts from the end) of the array at the path.
  case removeAt(RaspSpecPath, index: RaspSpecOperand)
  /// Removes the last element of the array at the path.
  case pop(RaspSpecPath)
  /// Adds to the number at the path; a missing or `null` number counts as 0.
  case increment(RaspSpecPath, by: RaspSpecOperand)
  /// Subtracts from the number at the path; a missing or `null` number counts as 0.
  case decrement(RaspSpecPath, by: RaspSpecOperand)
  /// Merges an object into the object at the path, deeply, like jq's `*`.
  case merge(RaspSpecPath, value: RaspSpecOperand)
  /// Empties the array or object at the path.
  case clear(RaspSpecPath)
  /// Flips the boolean at the path; a missing or `null` value becomes `true`.
  case toggle(RaspSpecPath)
  /// Removes what a path that ends in `[]`, a filter or a key from the event selects, which
  /// must be there: `remove` without an operand.
  case removeSelected(RaspSpecPath)
  /// Appends to the array at the path unless an element equals the value, as a set inserts
  /// (`"unique": true`); creates a missing or `null` array.
  case appendUnique(RaspSpecPath, value: RaspSpecOperand)
  /// Applies the operation only to events that meet the condition (`"if"`), whose field is a
  /// path of the event: `payload.changeType == 'added'`.
  indirect case onlyIf(RaspSpecCondition, RaspSpecOperation)

  /// Every operation's name, as the spec's `op` key spells it.
  ///
  /// ```swift
  /// RaspSpecOperation.names.contains("append")   // true
  /// ```
  public static let names = [
    "set", "unset", "append", "remove", "pop", "increment", "decrement", "merge", "clear",
    "toggle",
  ]

  /// The operation's name, as the spec's `op` key spells it (`remove` for ``removeAt(_:index:)``).
  ///
  /// ```swift
  /// RaspSpecOperation.pop(try RaspSpecPath("stack")).name   // "pop"
  /// ```
  public var name: String {
    switch self {
    case .set: return "set"
    case .unset: return "unset"
    case .append, .appendUnique: return "append"
    case .onlyIf(_, let operation): return operation.name
    case .remove, .removeAt, .removeSelected: return "remove"
    case .pop: return "pop"
    case .increment: return "increment"
    case .decrement: return "decrement"
    case .merge: return "merge"
    case .clear: return "clear"
    case .toggle: return "toggle"
    }
  }

  /// The path of the value the operation changes, relative to the domain's state.
  ///
  /// ```swift
  /// RaspSpecOperation.clear(try RaspSpecPath("items")).path.description   // "items"
  /// ```
  public var path: RaspSpecPath {
    switch self {
    case .set(let path, _), .unset(let path), .append(let path, _), .remove(let path, _),
      .removeAt(let path, _), .pop(let path), .increment(let path, _), .decrement(let path, _),
      .merge(let path, _), .clear(let path), .toggle(let path), .removeSelected(let path),
      .appendUnique(let path, _):
      return path
    case .onlyIf(_, let operation):
      return operation.path
    }
  }

  /// The operand, if the operation has one.
  ///
  /// ```swift
  /// RaspSpecOperation.set(try RaspSpecPath("total"), value: .literal(0)).operand   // .literal(0)
  /// ```
  public var operand: RaspSpecOperand? {
    switch self {
    case .set(_, let operand), .append(_, let operand), .remove(_, let operand),
      .removeAt(_, let operand), .increment(_, let operand), .decrement(_, let operand),
      .merge(_, let operand), .appendUnique(_, let operand):
      return operand
    case .onlyIf(_, let operation):
      return operation.operand
    case .unset, .pop, .clear, .toggle, .removeSelected:
      return nil
    }
  }

  /// The same operation with another operand; operations without one are returned unchanged.
  func with(operand: RaspSpecOperand) -> RaspSpecOperation {
    switch self {
    case .set(let path, _): return .set(path, value: operand)
    case .append(let path, _): return .append(path, value: operand)
    case .remove(let path, _): return .remove(path, value: operand)
    case .removeAt(let path, _): return .removeAt(path, index: operand)
    case .increment(let path, _): return .increment(path, by: operand)
    case .decrement(let path, _): return .decrement(path, by: operand)
    case .merge(let path, _): return .merge(path, value: operand)
    case .appendUnique(let path, _): return .appendUnique(path, value: operand)
    case .onlyIf(let condition, let operation):
      return .onlyIf(condition, operation.with(operand: operand))
    case .unset, .pop, .clear, .toggle, .removeSelected: return self
    }
  }

  /// The paths of the event the operation reads — its operand's, then its path's (keys from
  /// the event, filters' values) — each with its default and the type it must have.
  var eventReads: [(path: JSONPath, fallback: JSONValue?, type: String)] {
    var reads: [(path: JSONPath, fallback: JSONValue?, type: String)] = []
    if case .onlyIf(let condition, let operation) = self {
      reads = operation.eventReads
      // A field the event lacks compares as `null`: the condition does not require it.
      reads.append((condition.field, .null, "any"))
      if case .event(let path, let fallback) = condition.value {
        reads.append((path, fallback, "any"))
      }
      return reads
    }
    if case .event(let path, let fallback)? = operand {
      let type: String
      switch self {
      case .increment, .decrement: type = "number"
      case .removeAt: type = "integer"
      case .merge: type = "object"
      default: type = "any"
      }
      reads.append((path, fallback, type))
    }
    guard self.path.readsEvent else { return reads }
    for component in self.path.components {
      switch component {
      case .eventKey(let path): reads.append((path, nil, "string or integer"))
      case .matching(let condition):
        if case .event(let path, let fallback) = condition.value {
          reads.append((path, fallback, "any"))
        }
      case .key, .index, .each: break
      }
    }
    return reads
  }

  /// The same operation on another path.
  func with(path: RaspSpecPath) -> RaspSpecOperation {
    switch self {
    case .set(_, let operand): return .set(path, value: operand)
    case .unset: return .unset(path)
    case .append(_, let operand): return .append(path, value: operand)
    case .remove(_, let operand): return .remove(path, value: operand)
    case .removeAt(_, let operand): return .removeAt(path, index: operand)
    case .pop: return .pop(path)
    case .increment(_, let operand): return .increment(path, by: operand)
    case .decrement(_, let operand): return .decrement(path, by: operand)
    case .merge(_, let operand): return .merge(path, value: operand)
    case .clear: return .clear(path)
    case .toggle: return .toggle(path)
    case .removeSelected: return .removeSelected(path)
    case .appendUnique(_, let operand): return .appendUnique(path, value: operand)
    case .onlyIf(let condition, let operation):
      return .onlyIf(condition, operation.with(path: path))
    }
  }

  /// The operation as a spec writes it:
  /// `{"op":"append","path":"items","value":{"from":"payload.sku"}}`.
  ///
  /// ```swift
  /// print(RaspSpecOperation.pop(try RaspSpecPath("stack")))   // {"op":"pop","path":"stack"}
  /// ```
  public var description: String {
    if case .onlyIf(let condition, let operation) = self {
      let field = JSONValue.string(String(condition.description.dropFirst())).description
      return operation.description.dropLast() + ",\"if\":" + field + "}"
    }
    var text = "{\"op\":\"\(name)\",\"path\":" + JSONValue.string(path.description).description
    if let operand {
      switch self {
      case .removeAt: text += ",\"index\":"
      case .increment, .decrement: text += ",\"by\":"
      default: text += ",\"value\":"
      }
      text += operand.description
    }
    if case .appendUnique = self { text += ",\"unique\":true" }
    return text + "}"
  }
}
