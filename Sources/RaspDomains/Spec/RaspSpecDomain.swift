import RaspJSON

/// A domain defined by data rather than code: a JSON state and, per event type, a list of
/// operations on it.
///
/// Spec domains come from spec files (``RaspSpec``), which `rasp replay --spec` reads, or are
/// built in Swift. They sit beside built-in and Swift-defined domains in one snapshot, and their
/// events are routed, decoded and rolled back like any other domain's.
///
/// ```swift
/// let cart = RaspSpecDomain(
///   name: "cart", summary: "The shopping cart.", initial: ["items": [], "total": 0],
///   events: [
///     RaspSpecEventDefinition(name: "add", summary: "An item was put in the cart.", operations: [
///       .append(
///         try RaspSpecPath("items"), value: .event(try JSONPath("payload.sku"), default: nil)),
///       .increment(
///         try RaspSpecPath("total"), by: .event(try JSONPath("payload.price"), default: nil)),
///     ]),
///   ])
/// let configuration = ReplayConfiguration(domains: RaspBuiltinDomains.all + [cart])
/// ```
public struct RaspSpecDomain: RaspDomain {
  /// The domain's name: the prefix of its event types and its key in the snapshot.
  public let name: String
  /// What the domain holds.
  public let summary: String
  /// The state before any event.
  public let initial: JSONValue
  /// The event types, in the order the spec lists them.
  public let eventDefinitions: [RaspSpecEventDefinition]
  /// The schemas of ``eventDefinitions``, computed once.
  private let schemas: [RaspEventSchema]
  /// Whether each event type reads its payload.
  private let readsPayload: [Bool]

  /// Creates a domain.
  ///
  /// Event names must be unique; ``RaspSpec`` checks this for spec files.
  ///
  /// ```swift
  /// let counter = RaspSpecDomain(
  ///   name: "counter", summary: "Counts taps.", initial: ["count": 0],
  ///   events: [RaspSpecEventDefinition(
  ///     name: "tap", summary: "",
  ///     operations: [.increment(try RaspSpecPath("count"), by: .literal(1))])])
  /// ```
  ///
  /// - Parameters:
  ///   - name: The domain's name.
  ///   - summary: What the domain holds.
  ///   - initial: The state before any event.
  ///   - events: The event types.
  public init(
    name: String, summary: String, initial: JSONValue, events: [RaspSpecEventDefinition]
  ) {
    self.name = name
    self.summary = summary
    self.initial = initial
    self.eventDefinitions = events
    self.schemas = events.map {
      RaspEventSchema(
        name: $0.name, summary: $0.summary, fields: $0.fields, listensTo: $0.on)
    }
    self.readsPayload = events.map(\.readsPayload)
  }

  /// The event types, with the payload fields their operations read.
  public var events: [RaspEventSchema] { schemas }

  /// The ``initial`` value.
  public var initialState: RaspSpecState { RaspSpecState(initial) }

  /// Reads what the event type's operations need from the event and returns them with literal
  /// operands, leaving out those whose `if` condition the event does not meet.
  ///
  /// ```swift
  /// let event = try cart.decodeEvent(name, payload: &payload, context: context)
  /// ```
  ///
  /// - Parameters:
  ///   - name: The event's name within the domain.
  ///   - payload: The payload.
  ///   - context: The event's `ts` and `source`, which operands may read.
  /// - Returns: The operations to apply.
  /// - Throws: ``RaspEventError`` when a `from` reads nothing and has no default, or reads a
  ///   value of the wrong kind (a `by` that is not a number, an `index` that is not an integer,
  ///   a `merge` value that is not an object, a key from the event in a path that is neither a
  ///   string nor an integer); likewise for the event values that a path reads.
  public func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> RaspSpecEvent {
    let definition = eventDefinitions[name.index]
    let view = try SpecEventView(
      domain: self.name, name: name, payload: &payload, context: context,
      readsPayload: readsPayload[name.index])
    var operations: [RaspSpecOperation] = []
    operations.reserveCapacity(definition.operations.count)
    for index in definition.operations.indices {
      // What each operation reads was worked out once, with the spec: an operation that
      // reads nothing is appended as it is, and one that does is copied once.
      let reads = definition.reads[index]
      guard reads.readsEvent else {
        operations.append(definition.operations[index])
        continue
      }
      var operation = definition.operations[index]
      if reads.hasCondition {
        var applies = true
        while applies, case .onlyIf(let condition, let inner) = operation {
          applies = try view.test(condition)
          operation = inner
        }
        guard applies else { continue }
      }
      if reads.readsOperand, let operand = operation.operand {
        let value: JSONValue
        switch operation {
        case .increment, .decrement:
          value = try view.resolve(operand, expected: "a number") {
            if case .number = $0 { true } else { false }
          }
        case .removeAt:
          value = try view.resolve(
            operand, expected: "an integer", accepts: RaspSpecDomain.isIndex)
        case .merge:
          value = try view.resolve(operand, expected: "an object") {
            if case .object = $0 { true } else { false }
          }
        default:
          value = try view.resolve(operand)
        }
        operation = operation.with(operand: .literal(value))
      }
      if reads.pathReadsEvent {
        operation = operation.with(path: try view.resolve(operation.path))
      }
      operations.append(operation)
    }
    return RaspSpecEvent(operations: operations)
  }

  /// Whether a value is an integer that can index an array.
  static func isIndex(_ value: JSONValue) -> Bool {
    guard case .number(let number) = value, let integer = number.integerValue else { return false }
    return Int(exactly: integer) != nil
  }

  /// Reads a state back from the JSON ``encode(_:into:)`` writes: the state is that JSON.
  ///
  /// ```swift
  /// let state = try cart.decodeState(try JSONParser.parse(#"{"items":[],"total":0}"#))
  /// ```
  ///
  /// - Parameter value: The state's JSON.
  /// - Returns: The state.
  /// - Throws: Never: any JSON is a spec domain's state.
  public func decodeState(_ value: JSONValue) throws(RaspStateError) -> RaspSpecState {
    RaspSpecState(value)
  }

  /// Writes the state's JSON, canonically.
  ///
  /// ```swift
  /// cart.encode(RaspSpecState(["total": 0]), into: &writer)   // {"total":0}
  /// ```
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - writer: Where to write.
  public func encode(_ state: RaspSpecState, into writer: inout JSONWriter) {
    writer.write(state.value)
  }
}
