import RaspJSON

/// One event type of a spec domain: its name, what it means, and the operations it applies.
///
/// ```swift
/// let add = RaspSpecEventDefinition(
///   name: "add", summary: "An item was put in the cart.",
///   operations: [
///     .append(
///       try RaspSpecPath("items"), value: .event(try JSONPath("payload.sku"), default: nil)),
///     .increment(
///       try RaspSpecPath("total"), by: .event(try JSONPath("payload.price"), default: nil)),
///   ])
/// ```
public struct RaspSpecEventDefinition: Sendable, Hashable {
  /// The event's name within its domain (`add` for `cart.add`); empty for an event that stands
  /// only for other domains' types (``on``).
  public let name: String
  /// The types of other domains, or of no domain, that this event also stands for, as rasp
  /// reads them (`user.loggedOut`, `*.reset`, `ADD_TODO`): a spec's `"on"`
  /// (``RaspEventSchema/listensTo``).
  public let on: [String]
  /// What happened, for `rasp domains` and the docs.
  public let summary: String
  /// The operations, applied in order, all or nothing.
  public let operations: [RaspSpecOperation]
  /// For each operation, what decoding an event must read for it, computed once: the
  /// operations that read nothing apply as they are, without a copy.
  let reads: [Reads]

  /// What an operation reads from each event.
  struct Reads: Sendable, Hashable {
    /// Whether it has an `if` condition (or several, nested).
    let hasCondition: Bool
    /// Whether its operand is read from the event.
    let readsOperand: Bool
    /// Whether its path reads the event: a key from the event, or a filter's value.
    let pathReadsEvent: Bool

    /// Whether the operation reads the event at all.
    var readsEvent: Bool { hasCondition || readsOperand || pathReadsEvent }

    init(_ operation: RaspSpecOperation) {
      hasCondition = if case .onlyIf = operation { true } else { false }
      readsOperand = if case .event? = operation.operand { true } else { false }
      pathReadsEvent = operation.path.readsEvent
    }
  }

  /// Creates an event type.
  ///
  /// ```swift
  /// let checkout = RaspSpecEventDefinition(
  ///   name: "checkout", summary: "", operations: [.clear(try RaspSpecPath("items"))])
  /// ```
  ///
  /// - Parameters:
  ///   - name: The event's name within its domain.
  ///   - summary: What happened; when empty, a summary is made from the operations.
  ///   - operations: The operations, in order.
  ///   - on: The types of other domains, or of none, it also stands for (``on``).
  public init(
    name: String, summary: String, operations: [RaspSpecOperation], on: [String] = []
  ) {
    self.name = name
    self.on = on
    self.operations = operations
    self.reads = operations.map(Reads.init)
    self.summary = summary.isEmpty ? RaspSpecEventDefinition.summarize(operations) : summary
  }

  /// The payload fields the operations read, in the order they first read them: a field is
  /// required unless every operation that reads it has a default.
  ///
  /// ```swift
  /// add.fields.map(\.name)   // ["sku", "price"]
  /// ```
  public var fields: [RaspFieldSchema] {
    var names: [String] = []
    var types: [String: String] = [:]
    var required: [String: Bool] = [:]
    for operation in operations {
      for read in operation.eventReads {
        guard read.path.firstKey == "payload", read.path.components.count > 1,
          case .key(let key) = read.path.components[1]
        else { continue }
        let type = read.path.components.count > 2 ? "object or array" : read.type
        if types[key] == nil {
          names.append(key)
          types[key] = type
        } else if types[key] != type {
          types[key] = "any"
        }
        required[key] = (required[key] ?? false) || read.fallback == nil
      }
    }
    return names.map { name in
      RaspFieldSchema(
        name: name, type: types[name] ?? "any", isRequired: required[name] ?? true,
        summary:
          "Read by "
          + operations.filter { reads($0, name) }.map(RaspSpecState.verb).joined(separator: "; ")
          + "."
      )
    }
  }

  /// Whether any operation reads the payload, so that decoding must read it.
  var readsPayload: Bool {
    operations.contains { operation in
      operation.eventReads.contains { $0.path.firstKey == "payload" }
    }
  }

  private func reads(_ operation: RaspSpecOperation, _ field: String) -> Bool {
    operation.eventReads.contains { read in
      guard read.path.firstKey == "payload", read.path.components.count > 1,
        case .key(let key) = read.path.components[1]
      else { return false }
      return key == field
    }
  }

  /// `Appends to 'items'; increments 'total'.`
  private static func summarize(_ operations: [RaspSpecOperation]) -> String {
    guard !operations.isEmpty else { return "Changes nothing." }
    let phrases = operations.map { RaspSpecState.verb($0) }
    let text = phrases.joined(separator: "; ")
    return text.prefix(1).uppercased() + text.dropFirst() + "."
  }
}
