/// A marker for the values that change a RASP state.
///
/// Events are facts that happened — a compass reading, a REST response, a tap. They are the only
/// way to change a ``RaspState``. Conforming is optional: any type can be a state's `Event`, but
/// adopting `RaspEvent` documents the intent and lets a state accept events of several types
/// through `any RaspEvent`, as RaspSwift did.
///
/// ```swift
/// struct HeadingChanged: RaspEvent { var degrees: Double }
/// struct LocationChanged: RaspEvent { var latitude, longitude: Double }
///
/// struct GeoState: RaspState {
///   var heading = 0.0
///   mutating func apply(event: any RaspEvent) {
///     if let event = event as? HeadingChanged { heading = event.degrees }
///   }
/// }
/// ```
public protocol RaspEvent: Sendable {}
