import RaspJSON

/// The `nav` domain: the UI's navigation stack, selected tab and modal screen.
///
/// | Event            | Payload                      | Reducer                                   |
/// |------------------|------------------------------|-------------------------------------------|
/// | `nav.push`       | `screen` string (non-empty)  | appends the screen to the stack           |
/// | `nav.pop`        | none                         | removes the top; error on an empty stack  |
/// | `nav.popToRoot`  | none                         | keeps only the first screen               |
/// | `nav.replace`    | `screen` string (non-empty)  | replaces the top; error on an empty stack |
/// | `nav.selectTab`  | `tab` string (non-empty)     | sets the tab                              |
/// | `nav.present`    | `screen` string (non-empty)  | sets the modal; error if one is presented |
/// | `nav.dismiss`    | none                         | clears the modal; error if there is none  |
///
/// State: `{"modal":null,"stack":[],"tab":null}` at first; `stack` lists screen names from the
/// root to the top.
///
/// ```swift
/// let replay = Replay(configuration: ReplayConfiguration(domains: [NavDomain()]), inputs: [log])
/// ```
public struct NavDomain: RaspDomain {
  /// Creates the domain.
  ///
  /// ```swift
  /// let nav = NavDomain()
  /// ```
  public init() {}

  /// `nav`.
  public var name: String { "nav" }

  /// What the domain holds.
  public var summary: String {
    "UI navigation: the stack of screens, the selected tab and the modal screen."
  }

  /// `push`, `pop`, `popToRoot`, `replace`, `selectTab`, `present` and `dismiss`.
  public var events: [RaspEventSchema] {
    let screen = RaspFieldSchema(
      name: "screen", type: "string (non-empty)", isRequired: true, summary: "The screen's name.")
    return [
      RaspEventSchema(
        name: "push", summary: "A screen was pushed; it becomes the top of the stack.",
        fields: [screen]),
      RaspEventSchema(
        name: "pop",
        summary: "The top screen was popped; rejected when the stack is empty.", fields: []),
      RaspEventSchema(
        name: "popToRoot",
        summary: "Every screen but the root was popped; an empty stack stays empty.", fields: []),
      RaspEventSchema(
        name: "replace",
        summary: "The top screen was replaced by another; rejected when the stack is empty.",
        fields: [screen]),
      RaspEventSchema(
        name: "selectTab", summary: "A tab was selected; the stack and the modal stay as they are.",
        fields: [
          RaspFieldSchema(
            name: "tab", type: "string (non-empty)", isRequired: true, summary: "The tab's name.")
        ]),
      RaspEventSchema(
        name: "present",
        summary: "A screen was presented modally; rejected while another is presented.",
        fields: [screen]),
      RaspEventSchema(
        name: "dismiss",
        summary: "The modal screen was dismissed; rejected when none is presented.", fields: []),
    ]
  }

  /// An empty stack, no tab, no modal.
  public var initialState: NavState { NavState() }

  /// Decodes the `nav` events.
  ///
  /// ```swift
  /// let event = try NavDomain().decodeEvent(name, payload: &payload, context: .none)
  /// // .push("settings") for {"type":"nav.push","payload":{"screen":"settings"}}
  /// ```
  ///
  /// - Parameters:
  ///   - name: One of the names in ``events``.
  ///   - payload: The payload.
  ///   - context: Unused.
  /// - Returns: The typed event.
  /// - Throws: ``RaspEventError`` for a missing, mistyped or empty `screen` or `tab`.
  public func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> NavState.Event {
    switch name {
    case "push": return .push(try decodeName("screen", from: &payload))
    case "replace": return .replace(try decodeName("screen", from: &payload))
    case "present": return .present(try decodeName("screen", from: &payload))
    case "selectTab": return .selectTab(try decodeName("tab", from: &payload))
    default:
      while try payload.nextField() != nil { try payload.skip() }
      switch name {
      case "pop": return .pop
      case "popToRoot": return .popToRoot
      default: return .dismiss
      }
    }
  }

  /// Reads the one required non-empty string field of an event, skipping the others.
  private func decodeName(
    _ field: StaticString, from payload: inout RaspPayload
  ) throws(RaspEventError) -> String {
    if let value = payload.readQuickly({ fields -> String? in
      guard let key = fields.nextKey(), key == field, let value = fields.string(), !value.isEmpty,
        fields.nextKey() == nil
      else { return nil }
      return value
    }) {
      return value
    }
    var value: String?
    while let key = try payload.nextField() {
      if key == field { value = try payload.nonEmptyString() } else { try payload.skip() }
    }
    guard let value else { throw payload.missing("\(field)") }
    return value
  }

  /// Reads a state back from the JSON ``encode(_:into:)`` writes.
  ///
  /// ```swift
  /// let state = try NavDomain().decodeState(
  ///   try JSONParser.parse(#"{"modal":null,"stack":["orders"],"tab":null}"#))
  /// ```
  ///
  /// - Parameter value: `{"modal":…,"stack":[…],"tab":…}`.
  /// - Returns: The state.
  /// - Throws: ``RaspStateError`` naming the member that is missing or of the wrong kind.
  public func decodeState(_ value: JSONValue) throws(RaspStateError) -> NavState {
    let state = RaspStateValue(value)
    var stack: [String] = []
    for screen in try state.member("stack").array() { stack.append(try screen.string()) }
    return NavState(
      stack: stack,
      tab: try state.member("tab").optional { (value) throws(RaspStateError) in try value.string()
      },
      modal: try state.member("modal").optional { (value) throws(RaspStateError) in
        try value.string()
      })
  }

  /// Writes `{"modal":…,"stack":[…],"tab":…}`.
  ///
  /// ```swift
  /// NavDomain().encode(NavState(stack: ["home"]), into: &writer)
  /// // {"modal":null,"stack":["home"],"tab":null}
  /// ```
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - writer: Where to write.
  public func encode(_ state: NavState, into writer: inout JSONWriter) {
    // Composed in a buffer of the most it can take (on the stack for a few short names) and
    // appended at once: one append instead of one a piece.
    var most = 36
    if let modal = state.modal { most += JSONComposer.maximumCount(ofString: modal) }
    if let tab = state.tab { most += JSONComposer.maximumCount(ofString: tab) }
    for screen in state.stack { most += JSONComposer.maximumCount(ofString: screen) + 1 }
    func compose(_ json: inout JSONComposer) {
      json.writeRaw("{\"modal\":")
      if let modal = state.modal { json.writeString(modal) } else { json.writeNull() }
      json.writeRaw(",\"stack\":[")
      for (index, screen) in state.stack.enumerated() {
        if index > 0 { json.writeRaw(",") }
        json.writeString(screen)
      }
      json.writeRaw("],\"tab\":")
      if let tab = state.tab { json.writeString(tab) } else { json.writeNull() }
      json.writeRaw("}")
    }
    // A constant size keeps `compose` inlined and its buffer a plain part of the stack; a
    // size known only now, or a helper between, had the state's arrays copied for the call:
    // two fifths more instructions for nav (41 M -> 59 M at 100,000 events).
    if most <= Self.composedCount {
      writer.writeComposed(maximumCount: Self.composedCount, compose)
    } else {
      writer.writeComposed(maximumCount: most, compose)
    }
  }

  /// The most bytes of a state composed on the stack (``encode(_:into:)``).
  static var composedCount: Int { 1024 }
}
