import RaspJSON

/// The `lifecycle` domain: the app's phase, its launches and its memory warnings.
///
/// | Event                       | Reducer                                                    |
/// |-----------------------------|------------------------------------------------------------|
/// | `lifecycle.launch`          | `inactive`, `launches` + 1; allowed in any phase           |
/// | `lifecycle.becomeActive`    | `active`                                                   |
/// | `lifecycle.resignActive`    | `inactive`                                                 |
/// | `lifecycle.enterBackground` | `background`                                               |
/// | `lifecycle.enterForeground` | `inactive`                                                 |
/// | `lifecycle.terminate`       | `terminated`                                               |
/// | `lifecycle.memoryWarning`   | `memoryWarnings` + 1, phase unchanged                      |
///
/// No event has payload fields. Every event but `launch` is rejected while the app is
/// `notRunning` or `terminated`. `changedAt` takes the event's `ts` when the phase changes.
///
/// State: `{"changedAt":null,"launches":0,"memoryWarnings":0,"phase":"notRunning"}` at first.
///
/// ```swift
/// let configuration = ReplayConfiguration(domains: [LifecycleDomain()])
/// let replay = Replay(configuration: configuration, inputs: [log])
/// ```
public struct LifecycleDomain: RaspDomain {
  /// Creates the domain.
  ///
  /// ```swift
  /// let lifecycle = LifecycleDomain()
  /// ```
  public init() {}

  /// `lifecycle`.
  public var name: String { "lifecycle" }

  /// What the domain holds.
  public var summary: String {
    "The app's lifecycle: its phase and when it changed, launches and memory warnings. "
      + "After a termination only a launch is accepted."
  }

  /// `launch`, `becomeActive`, `resignActive`, `enterBackground`, `enterForeground`,
  /// `terminate` and `memoryWarning`.
  public var events: [RaspEventSchema] {
    [
      RaspEventSchema(
        name: "launch",
        summary:
          "The app launched: inactive, one more launch. Allowed in any phase (a relaunch "
          + "after a crash).",
        fields: []),
      RaspEventSchema(name: "becomeActive", summary: "The app became active.", fields: []),
      RaspEventSchema(
        name: "resignActive",
        summary: "The app stopped being active (a call, the app switcher): inactive.", fields: []),
      RaspEventSchema(
        name: "enterBackground", summary: "The app entered the background.", fields: []),
      RaspEventSchema(
        name: "enterForeground", summary: "The app came back to the foreground: inactive.",
        fields: []),
      RaspEventSchema(
        name: "terminate", summary: "The app terminated; only a launch may follow.", fields: []),
      RaspEventSchema(
        name: "memoryWarning",
        summary: "The system warned about memory: one more warning, same phase.",
        fields: []),
    ]
  }

  /// Not running, never launched.
  public var initialState: LifecycleState { LifecycleState() }

  /// Decodes the `lifecycle` events, which take the event's `ts` and no payload fields.
  ///
  /// ```swift
  /// let event = try LifecycleDomain().decodeEvent(name, payload: &payload, context: context)
  /// // .enterBackground(at: "2026-11-22T09:35:00Z")
  /// ```
  ///
  /// - Parameters:
  ///   - name: One of the names in ``events``.
  ///   - payload: The payload; its fields, if any, are ignored.
  ///   - context: The event's time, kept as ``LifecycleState/changedAt``.
  /// - Returns: The typed event.
  /// - Throws: ``RaspEventError`` only for a payload that is not an object.
  public func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> LifecycleState.Event {
    while try payload.nextField() != nil { try payload.skip() }
    switch name {
    case "memoryWarning": return .memoryWarning
    case "launch": return .launch(at: context.timestampValue)
    case "becomeActive": return .becomeActive(at: context.timestampValue)
    case "resignActive": return .resignActive(at: context.timestampValue)
    case "enterBackground": return .enterBackground(at: context.timestampValue)
    case "enterForeground": return .enterForeground(at: context.timestampValue)
    default: return .terminate(at: context.timestampValue)
    }
  }

  /// Reads a state back from the JSON ``encode(_:into:)`` writes.
  ///
  /// ```swift
  /// let state = try LifecycleDomain().decodeState(try JSONParser.parse(
  ///   #"{"changedAt":null,"launches":0,"memoryWarnings":0,"phase":"notRunning"}"#))
  /// ```
  ///
  /// - Parameter value: `{"changedAt":…,"launches":…,"memoryWarnings":…,"phase":…}`.
  /// - Returns: The state.
  /// - Throws: ``RaspStateError`` naming the member that is missing or of the wrong kind.
  public func decodeState(_ value: JSONValue) throws(RaspStateError) -> LifecycleState {
    let state = RaspStateValue(value)
    let changedAt = try state.member("changedAt")
    return LifecycleState(
      phase: try state.member("phase").oneOf(LifecyclePhase.self),
      changedAt: changedAt.isNull ? nil : changedAt.value,
      launches: try state.member("launches").count(),
      memoryWarnings: try state.member("memoryWarnings").count())
  }

  /// Writes `{"changedAt":…,"launches":…,"memoryWarnings":…,"phase":"…"}`.
  ///
  /// ```swift
  /// LifecycleDomain().encode(LifecycleState(), into: &writer)
  /// // {"changedAt":null,"launches":0,"memoryWarnings":0,"phase":"notRunning"}
  /// ```
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - writer: Where to write.
  public func encode(_ state: LifecycleState, into writer: inout JSONWriter) {
    writer.writeRaw("{\"changedAt\":")
    if let changedAt = state.changedAt { writer.write(changedAt) } else { writer.writeNull() }
    writer.writeRaw(",\"launches\":")
    writer.writeInteger(Int64(state.launches))
    writer.writeRaw(",\"memoryWarnings\":")
    writer.writeInteger(Int64(state.memoryWarnings))
    writer.writeRaw(",\"phase\":\"")
    switch state.phase {
    case .notRunning: writer.writeRaw("notRunning")
    case .inactive: writer.writeRaw("inactive")
    case .active: writer.writeRaw("active")
    case .background: writer.writeRaw("background")
    case .terminated: writer.writeRaw("terminated")
    }
    writer.writeRaw("\"}")
  }
}
