import RaspJSON

/// The `geo` domain: compass heading and GPS position, as in the RASP seeds' example.
///
/// | Event          | Payload                                                          |
/// |----------------|------------------------------------------------------------------|
/// | `geo.heading`  | `heading` number 0–360                                           |
/// | `geo.location` | `latitude` −90–90, `longitude` −180–180, `accuracy` ≥ 0 optional |
///
/// State: `{"accuracy":null,"heading":null,"location":null}` at first;
/// `location` is `{"latitude":…,"longitude":…}`.
///
/// ```swift
/// let replay = Replay(configuration: ReplayConfiguration(domains: [GeoDomain()]), inputs: [log])
/// ```
public struct GeoDomain: RaspDomain {
  /// Creates the domain.
  ///
  /// ```swift
  /// let geo = GeoDomain()
  /// ```
  public init() {}

  /// `geo`.
  public var name: String { "geo" }

  /// What the domain holds.
  public var summary: String {
    "Geolocation: the compass heading and the GPS position, updated independently."
  }

  /// `heading` and `location`.
  public var events: [RaspEventSchema] {
    [
      RaspEventSchema(
        name: "heading", summary: "The compass reported a heading; it replaces the previous one.",
        fields: [
          RaspFieldSchema(
            name: "heading", type: "number (0–360)", isRequired: true,
            summary: "Degrees clockwise from north.")
        ]),
      RaspEventSchema(
        name: "location",
        summary: "The GPS reported a position; it replaces the location and the accuracy.",
        fields: [
          RaspFieldSchema(
            name: "latitude", type: "number (−90–90)", isRequired: true, summary: "Degrees north."),
          RaspFieldSchema(
            name: "longitude", type: "number (−180–180)", isRequired: true, summary: "Degrees east."
          ),
          RaspFieldSchema(
            name: "accuracy", type: "number (≥ 0) or null", isRequired: false,
            summary: "Horizontal accuracy in metres; null or absent when unknown."),
        ]),
    ]
  }

  /// No reading yet.
  public var initialState: GeoState { GeoState() }

  /// Decodes `geo.heading` and `geo.location`.
  ///
  /// ```swift
  /// let event = try GeoDomain().decodeEvent(name, payload: &payload, context: .none)
  /// ```
  ///
  /// - Parameters:
  ///   - name: `heading` or `location`.
  ///   - payload: The payload.
  ///   - context: Unused.
  /// - Returns: The typed event.
  /// - Throws: ``RaspEventError`` for a missing, mistyped or out-of-range field.
  public func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> GeoState.Event {
    if name == "heading" {
      if let heading = payload.readQuickly({ fields -> Double? in
        guard let key = fields.nextKey(), key == "heading", let heading = fields.number(),
          (0...360).contains(heading), fields.nextKey() == nil
        else { return nil }
        return heading
      }) {
        return .heading(heading)
      }
      var heading: Double?
      while let field = try payload.nextField() {
        switch field {
        case "heading": heading = try payload.double(in: 0...360)
        default: try payload.skip()
        }
      }
      guard let heading else { throw payload.missing("heading") }
      return .heading(heading)
    }
    if let location = payload.readQuickly(Self.quickLocation) { return location }
    var latitude: Double?
    var longitude: Double?
    var accuracy: Double?
    while let field = try payload.nextField() {
      switch field {
      case "latitude": latitude = try payload.double(in: -90...90)
      case "longitude": longitude = try payload.double(in: -180...180)
      case "accuracy": accuracy = try payload.null() ? nil : try payload.double(in: 0...)
      default: try payload.skip()
      }
    }
    guard let latitude else { throw payload.missing("latitude") }
    guard let longitude else { throw payload.missing("longitude") }
    return .location(GeoLocation(latitude: latitude, longitude: longitude), accuracy: accuracy)
  }

  /// A location read quickly (``RaspPayload/readQuickly(_:)``): its three fields in any order,
  /// `accuracy` optional, each value in the range ``decodeEvent(_:payload:context:)`` checks.
  private static func quickLocation(_ fields: inout RaspQuickPayload) -> GeoState.Event? {
    var latitude: Double?
    var longitude: Double?
    var accuracy: Double?
    var hasAccuracy = false
    while let key = fields.nextKey() {
      switch key {
      case "latitude":
        guard latitude == nil, let value = fields.number(), (-90...90).contains(value) else {
          return nil
        }
        latitude = value
      case "longitude":
        guard longitude == nil, let value = fields.number(), (-180...180).contains(value) else {
          return nil
        }
        longitude = value
      case "accuracy":
        guard !hasAccuracy else { return nil }
        hasAccuracy = true
        if !fields.null() {
          guard let value = fields.number(), (0...).contains(value) else { return nil }
          accuracy = value
        }
      default:
        return nil
      }
    }
    guard let latitude, let longitude else { return nil }
    return .location(GeoLocation(latitude: latitude, longitude: longitude), accuracy: accuracy)
  }

  /// Reads a state back from the JSON ``encode(_:into:)`` writes.
  ///
  /// ```swift
  /// let state = try GeoDomain().decodeState(
  ///   try JSONParser.parse(#"{"accuracy":null,"heading":90,"location":null}"#))
  /// ```
  ///
  /// - Parameter value: `{"accuracy":…,"heading":…,"location":…}`.
  /// - Returns: The state.
  /// - Throws: ``RaspStateError`` naming the member that is missing or of the wrong kind.
  public func decodeState(_ value: JSONValue) throws(RaspStateError) -> GeoState {
    let state = RaspStateValue(value)
    let location = try state.member("location").optional { (location) throws(RaspStateError) in
      GeoLocation(
        latitude: try location.member("latitude").double(),
        longitude: try location.member("longitude").double())
    }
    return GeoState(
      heading: try state.member("heading").optional { (value) throws(RaspStateError) in
        try value.double()
      },
      location: location,
      accuracy: try state.member("accuracy").optional { (value) throws(RaspStateError) in
        try value.double()
      })
  }

  /// Writes `{"accuracy":…,"heading":…,"location":{"latitude":…,"longitude":…}}`.
  ///
  /// ```swift
  /// GeoDomain().encode(GeoState(heading: 90), into: &writer)
  /// // {"accuracy":null,"heading":90,"location":null}
  /// ```
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - writer: Where to write.
  public func encode(_ state: GeoState, into writer: inout JSONWriter) {
    // At most 62 bytes of keys and four numbers of at most 32: composed on the stack and
    // appended at once, not in nine appends.
    writer.writeComposed(maximumCount: 192) { json in
      json.writeRaw("{\"accuracy\":")
      if let accuracy = state.accuracy { json.writeNumber(accuracy) } else { json.writeNull() }
      json.writeRaw(",\"heading\":")
      if let heading = state.heading { json.writeNumber(heading) } else { json.writeNull() }
      json.writeRaw(",\"location\":")
      if let location = state.location {
        json.writeRaw("{\"latitude\":")
        json.writeNumber(location.latitude)
        json.writeRaw(",\"longitude\":")
        json.writeNumber(location.longitude)
        json.writeRaw("}}")
      } else {
        json.writeRaw("null}")
      }
    }
  }
}
