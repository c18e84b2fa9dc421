import Rasp
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
/// ``RaspForeignDomain``, which is correct and a little slower per event.
package protocol RaspSpecializedDomain: RaspDomain {
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
  /// - Throws: ``RaspEventError`` for a payload that does not decode.
  func decode(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext,
    into column: RaspDecodedEvents<Self>
  ) throws(RaspEventError)

  /// Applies the event in `row` of `column`, decoded earlier by
  /// ``decode(_:payload:context:into:)``, with rollback.
  ///
  /// - Throws: The reducer's rejection; `state` is then unchanged.
  func apply(
    decodedAt row: Int, of column: RaspDecodedEvents<Self>, to state: inout State
  ) throws(RaspEventError)
}

extension RaspSpecializedDomain {
  package func apply(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext,
    to state: inout State
  ) throws(RaspEventError) {
    let event = try decodeEvent(name, payload: &payload, context: context)
    try payload.finish()
    try Self.applyOrReject(event, to: &state)
  }

  package func decode(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext,
    into column: RaspDecodedEvents<Self>
  ) throws(RaspEventError) {
    let event = try decodeEvent(name, payload: &payload, context: context)
    try payload.finish()
    column.events.append(event)
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

  package func encode(_ state: Base.State, into writer: inout JSONWriter) {
    base.encode(state, into: &writer)
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
