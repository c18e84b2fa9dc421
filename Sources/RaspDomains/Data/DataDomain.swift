import RaspJSON

/// The `data` domain: the app's keyed data, any JSON value under each key.
///
/// | Event         | Payload                                  | Reducer                           |
/// |---------------|------------------------------------------|-----------------------------------|
/// | `data.set`    | `key` string (non-empty), `value` any    | stores the value, replacing any   |
/// | `data.merge`  | `key` string (non-empty), `value` object | deep-merges into the stored value |
/// | `data.remove` | `key` string (non-empty)                 | removes the key, if present       |
/// | `data.clear`  | none                                     | removes every key                 |
///
/// State: the store itself, an object keyed by key in key order: `{}` at first.
///
/// ```swift
/// let replay = Replay(configuration: ReplayConfiguration(domains: [DataDomain()]), inputs: [log])
/// ```
public struct DataDomain: RaspDomain {
  /// Creates the domain.
  ///
  /// ```swift
  /// let data = DataDomain()
  /// ```
  public init() {}

  /// `data`.
  public var name: String { "data" }

  /// What the domain holds.
  public var summary: String {
    "Keyed app data: any JSON value under each key, set, deep-merged or removed."
  }

  /// `set`, `merge`, `remove` and `clear`.
  public var events: [RaspEventSchema] {
    let key = RaspFieldSchema(
      name: "key", type: "string (non-empty)", isRequired: true, summary: "The key in the store.")
    return [
      RaspEventSchema(
        name: "set", summary: "Stores the value under the key, replacing what was there.",
        fields: [
          key,
          RaspFieldSchema(
            name: "value", type: "any JSON", isRequired: true,
            summary: "The value; null is stored as null."),
        ]),
      RaspEventSchema(
        name: "merge",
        summary:
          "Deep-merges the object into the one under the key (or stores it when the key is "
          + "absent); rejected when the key holds something else.",
        fields: [
          key,
          RaspFieldSchema(
            name: "value", type: "object", isRequired: true,
            summary: "Objects merge member by member; other values, null included, replace."),
        ]),
      RaspEventSchema(
        name: "remove", summary: "Removes the key; removing an absent key changes nothing.",
        fields: [key]),
      RaspEventSchema(name: "clear", summary: "Removes every key.", fields: []),
    ]
  }

  /// An empty store.
  public var initialState: DataState { DataState() }

  /// Decodes the `data` events; the value is read as a tree, since it may be any JSON.
  ///
  /// ```swift
  /// let event = try DataDomain().decodeEvent(name, payload: &payload, context: .none)
  /// // .set(key: "theme", value: "dark")
  /// //   for {"type":"data.set","payload":{"key":"theme","value":"dark"}}
  /// ```
  ///
  /// - Parameters:
  ///   - name: `set`, `merge`, `remove` or `clear`.
  ///   - payload: The payload.
  ///   - context: Unused.
  /// - Returns: The typed event.
  /// - Throws: ``RaspEventError`` for a missing, mistyped or empty `key`, a missing `value`, or
  ///   a merged `value` that is not an object.
  public func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> DataState.Event {
    if name == "clear" {
      while try payload.nextField() != nil { try payload.skip() }
      return .clear
    }
    let isRemove = name == "remove"
    let isMerge = name == "merge"
    var key: String?
    var value: JSONValue?
    while let field = try payload.nextField() {
      switch field {
      case "key":
        key = try payload.nonEmptyString()
      case "value" where !isRemove:
        if isMerge, try payload.kind() != .object { throw payload.wrongType(expected: "an object") }
        value = try payload.value()
      default:
        try payload.skip()
      }
    }
    guard let key else { throw payload.missing("key") }
    if isRemove { return .remove(key: key) }
    guard let value else { throw payload.missing("value") }
    if isMerge, case .object(let object) = value { return .merge(key: key, value: object) }
    return .set(key: key, value: value)
  }

  /// Reads a state back from the JSON ``encode(_:into:)`` writes: the store, an object.
  ///
  /// ```swift
  /// let state = try DataDomain().decodeState(try JSONParser.parse(#"{"theme":"dark"}"#))
  /// ```
  ///
  /// - Parameter value: The store.
  /// - Returns: The state.
  /// - Throws: ``RaspStateError`` when the value is not an object.
  public func decodeState(_ value: JSONValue) throws(RaspStateError) -> DataState {
    DataState(store: try RaspStateValue(value).object())
  }

  /// Writes the store: `{"cart":{…},"theme":"dark"}`.
  ///
  /// ```swift
  /// DataDomain().encode(DataState(), into: &writer)   // {}
  /// ```
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - writer: Where to write.
  public func encode(_ state: DataState, into writer: inout JSONWriter) {
    writer.write(.object(state.store))
  }
}
