/// What one event does to a spec domain's state: its operations, with every operand read from
/// the event.
///
/// ``RaspSpecDomain/decodeEvent(_:payload:context:)`` makes one from a log line: it takes the
/// event type's operations and replaces each `from` operand by the value it reads, so that
/// applying the event needs nothing but the state.
///
/// ```swift
/// let event = RaspSpecEvent(operations: [
///   .append(try RaspSpecPath("items"), value: .literal("A-1")),
///   .increment(try RaspSpecPath("total"), by: .literal(20)),
/// ])
/// try state.apply(event: event)
/// ```
public struct RaspSpecEvent: Sendable, Hashable {
  /// The operations, in order; their operands are literals.
  public var operations: [RaspSpecOperation]

  /// Creates an event from operations whose operands are literals.
  ///
  /// ```swift
  /// let checkout = RaspSpecEvent(operations: [.clear(try RaspSpecPath("items"))])
  /// ```
  ///
  /// - Parameter operations: The operations, in the order to apply them.
  public init(operations: [RaspSpecOperation]) {
    self.operations = operations
  }
}
