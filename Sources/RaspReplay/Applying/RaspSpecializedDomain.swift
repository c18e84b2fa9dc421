import Rasp
import RaspDomains
import RaspJSON

/// A domain whose events the replay decodes and applies through code compiled for the
/// domain's own type.
///
/// The replay holds domains of any type side by side, as `any RaspDomain`. Calling a domain's
/// decoder and its state's reducer through the existential alone would run generic code per
/// event: the typed event held in a box, its copies made through the type's value witnesses.
/// These three requirements keep that work inside each conforming type's own witnesses, where
/// the compiler specializes it. Their default implementations are the only ones; a conformance
/// is one line (see the end of this file).
///
/// Only this package's domains conform: a domain from another package is wrapped in a
/// ``RaspForeignDomain``, which is correct and a little slower per event. Each also reads the
/// members of its state's JSON from the typed state (``RaspDomains/RaspMemberReading``).
package protocol RaspSpecializedDomain: RaspMemberReading {
  /// Decodes one event's payload and applies it to `state`, with rollback.
  ///
  /// - Throws: ``RaspEventError`` for a payload that does not decode, or the reducer's
  ///   rejection; `state` is then unchanged.
  func apply(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext,
    to state: inout State
  ) throws(RaspEventError)

  /// Decodes one event's payload and keeps the typed event in the next row of `column`, to
  /// apply it later, possibly on another thread.
  ///
  /// - Returns: The row: counted here, where the column's type is known (generic code asking
  ///   the column would retain and release its array, two atomic operations an event).
  /// - Throws: ``RaspEventError`` for a payload that does not decode.
  func decode(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext,
    into column: RaspDecodedEvents<Self>
  ) throws(RaspEventError) -> Int

  /// Applies the event in `row` of `column`, decoded earlier by
  /// ``decode(_:payload:context:into:)``, with rollback.
  ///
  /// - Throws: The reducer's rejection; `state` is then unchanged.
  func apply(
    decodedAt row: Int, of column: RaspDecodedEvents<Self>, to state: inout State
  ) throws(RaspEventError)

  /// Whether two threads may encode states of this domain at once, as a keyed replay's
  /// `--final` records are (``RaspDomainSlot/encodesConcurrently``): `true` for this package's
  /// domains, whose encoders only read; not for a domain from another package, whose state
  /// need not be `Sendable` and may keep a cache it fills as it is encoded.
  static var encodesConcurrently: Bool { get }
}

extension RaspSpecializedDomain {
  package static var encodesConcurrently: Bool { true }

  package func apply(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext,
    to state: inout State
  ) throws(RaspEventError) {
    let event = try decodedEvent(name, payload: &payload, context: context)
    try Self.applyOrReject(event, to: &state)
  }

  package func decode(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext,
    into column: RaspDecodedEvents<Self>
  ) throws(RaspEventError) -> Int {
    let event = try decodedEvent(name, payload: &payload, context: context)
    column.events.append(event)
    return column.events.count - 1
  }

  package func apply(
    decodedAt row: Int, of column: RaspDecodedEvents<Self>, to state: inout State
  ) throws(RaspEventError) {
    try Self.applyOrReject(column.events[row], to: &state)
  }

  /// Applies a typed event with rollback, turning a reducer's error into a rejection.
  static func applyOrReject(_ event: State.Event, to state: inout State) throws(RaspEventError) {
    do {
      try state.applyOrRollBack(event: event)
    } catch let error as RaspEventError {
      throw error
    } catch {
      throw RaspEventError(offset: nil, reason: .rejected("\(error)"))
    }
  }
}

/// A domain from outside this package, made a ``RaspSpecializedDomain`` by forwarding to it.
///
/// Its decode and apply run as generic code: correct for any domain, and a little slower per
/// event than a domain of this package.
package struct RaspForeignDomain<Base: RaspDomain>: RaspSpecializedDomain {
  /// The domain forwarded to.
  package let base: Base

  /// `false`: the base domain's state need not be safe to read from two threads at once.
  package static var encodesConcurrently: Bool { false }

  /// Wraps a domain.
  package init(_ base: Base) {
    self.base = base
  }

  package var name: String { base.name }
  package var summary: String { base.summary }
  package var events: [RaspEventSchema] { base.events }
  package var initialState: Base.State { base.initialState }

  package func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> Base.State.Event {
    try base.decodeEvent(name, payload: &payload, context: context)
  }

  package func decodeState(_ value: JSONValue) throws(RaspStateError) -> Base.State {
    try base.decodeState(value)
  }

  /// None: a foreign domain's members are read from its JSON.
  package func member(named name: String) -> RaspStateMember? { nil }

  package func value(of member: RaspStateMember, in state: Base.State) -> JSONValue { .null }

  /// Writes the state as the domain writes it, made canonical: read back by the strict
  /// parser and written again with sorted keys, so that a domain of the user's own cannot put
  /// keys out of order in a snapshot. A state whose JSON does not read back is written as
  /// `null`; the replay never gets there, since ``apply(_:payload:context:to:)`` refuses the
  /// event that made it, and `rasp` checks the initial state before it starts.
  package func encode(_ state: Base.State, into writer: inout JSONWriter) {
    switch Self.checkedJSON(of: state, by: base) {
    case .success(let value): writer.write(value)
    case .failure: writer.writeNull()
    }
  }

  /// Applies an event, then checks that the domain writes the new state as valid JSON: when
  /// it does not, the state goes back to what it was and the event is refused, naming the
  /// mistake, so that no snapshot of it is ever printed.
  package func apply(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext,
    to state: inout Base.State
  ) throws(RaspEventError) {
    let event = try decodedEvent(name, payload: &payload, context: context)
    try applyChecked(event, to: &state)
  }

  /// Applies a decoded event, then checks the new state's JSON as the other `apply` does.
  package func apply(
    decodedAt row: Int, of column: RaspDecodedEvents<Self>, to state: inout Base.State
  ) throws(RaspEventError) {
    try applyChecked(column.events[row], to: &state)
  }

  private func applyChecked(_ event: Base.State.Event, to state: inout Base.State)
    throws(RaspEventError)
  {
    let before = state
    try Self.applyOrReject(event, to: &state)
    if case .failure(let error) = Self.checkedJSON(of: state, by: base) {
      state = before
      throw RaspEventError(
        offset: nil, reason: .rejected(Self.describe(error, domain: base.name)))
    }
  }

  /// The domain's JSON of `state`, read back by the strict parser.
  static func checkedJSON(of state: Base.State, by domain: Base) -> Result<JSONValue, JSONError> {
    var writer = JSONWriter()
    domain.encode(state, into: &writer)
    return writer.bytes.withUnsafeBufferPointer { bytes in
      Result { () throws(JSONError) -> JSONValue in try JSONParser.parse(bytes) }
    }
  }

  /// What is wrong with a domain's JSON, for a message: the parser's reason and where.
  static func describe(_ error: JSONError, domain: String) -> String {
    "the domain '\(domain)' wrote its state as invalid JSON (\(error.reason) at byte "
      + "\(error.offset + 1)); its encode(_:into:) must write one JSON value"
  }
}

extension RaspDomain {
  /// Why the domain's initial state cannot be printed, or `nil` when it writes it as valid
  /// JSON: for a command to refuse a domain of the user's own before replaying with it.
  ///
  /// ```swift
  /// if let problem = CartDomain().initialStateProblem { print(problem) }
  /// ```
  package var initialStateProblem: String? {
    guard !(self is any RaspSpecializedDomain) else { return nil }
    guard case .failure(let error) = RaspForeignDomain.checkedJSON(of: initialState, by: self)
    else { return nil }
    return RaspForeignDomain<Self>.describe(error, domain: name)
  }
}

/// The domains of this package, whose events the replay decodes and applies specialized.
extension GeoDomain: RaspSpecializedDomain {}
extension RestDomain: RaspSpecializedDomain {}
extension NavDomain: RaspSpecializedDomain {}
extension LifecycleDomain: RaspSpecializedDomain {}
extension MotionDomain: RaspSpecializedDomain {}
extension DataDomain: RaspSpecializedDomain {}
extension RaspSpecDomain: RaspSpecializedDomain {}
