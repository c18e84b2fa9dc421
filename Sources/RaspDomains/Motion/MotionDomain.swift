import RaspJSON

/// The `motion` domain: the last motion-sensor sample and the user's classified activity.
///
/// | Event             | Payload                                                        |
/// |-------------------|----------------------------------------------------------------|
/// | `motion.sample`   | `acceleration` {x,y,z}, `rotationRate` {x,y,z},                |
/// |                   | `attitude` {roll,pitch,yaw}: each optional, at least one       |
/// | `motion.activity` | `activity` stationary, walking, running, cycling, automotive   |
/// |                   | or unknown; `confidence` low, medium or high                   |
///
/// State: `{"activity":null,"confidence":null,"sample":null}` at first; `sample` is
/// `{"acceleration":…,"attitude":…,"rotationRate":…}` with `null` for a part the sample lacked.
///
/// ```swift
/// let configuration = ReplayConfiguration(domains: [MotionDomain()])
/// let replay = Replay(configuration: configuration, inputs: [log])
/// ```
public struct MotionDomain: RaspDomain {
  /// Creates the domain.
  ///
  /// ```swift
  /// let motion = MotionDomain()
  /// ```
  public init() {}

  /// `motion`.
  public var name: String { "motion" }

  /// What the domain holds.
  public var summary: String {
    "Motion sensors: the last sample of acceleration, rotation rate and attitude, and the "
      + "user's activity."
  }

  /// `sample` and `activity`.
  public var events: [RaspEventSchema] {
    [
      RaspEventSchema(
        name: "sample",
        summary:
          "The sensors reported a sample; it replaces the previous one entirely. At least one "
          + "part is required.",
        fields: [
          RaspFieldSchema(
            name: "acceleration", type: "object {x, y, z: number} or null", isRequired: false,
            summary: "User acceleration in g."),
          RaspFieldSchema(
            name: "rotationRate", type: "object {x, y, z: number} or null", isRequired: false,
            summary: "Rotation rate in radians per second."),
          RaspFieldSchema(
            name: "attitude", type: "object {roll, pitch, yaw: number} or null", isRequired: false,
            summary: "Orientation in radians."),
        ]),
      RaspEventSchema(
        name: "activity",
        summary: "The user's activity was classified; it replaces the previous one.",
        fields: [
          RaspFieldSchema(
            name: "activity",
            type: "string (stationary, walking, running, cycling, automotive, unknown)",
            isRequired: true, summary: "What the user is doing."),
          RaspFieldSchema(
            name: "confidence", type: "string (low, medium, high)", isRequired: true,
            summary: "How sure the classification is."),
        ]),
    ]
  }

  /// No sample, no activity.
  public var initialState: MotionState { MotionState() }

  /// Decodes `motion.sample` and `motion.activity`.
  ///
  /// ```swift
  /// let event = try MotionDomain().decodeEvent(name, payload: &payload, context: .none)
  /// // .activity(.walking, confidence: .high)
  /// //   for {"type":"motion.activity","payload":{"activity":"walking","confidence":"high"}}
  /// ```
  ///
  /// - Parameters:
  ///   - name: `sample` or `activity`.
  ///   - payload: The payload.
  ///   - context: Unused.
  /// - Returns: The typed event.
  /// - Throws: ``RaspEventError`` for a missing, mistyped or unknown field value, or a sample
  ///   without any part.
  public func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> MotionState.Event {
    if name == "sample" {
      var sample = MotionSample()
      while let field = try payload.nextField() {
        switch field {
        case "acceleration": sample.acceleration = try decodeVector(&payload)
        case "rotationRate": sample.rotationRate = try decodeVector(&payload)
        case "attitude": sample.attitude = try decodeAttitude(&payload)
        default: try payload.skip()
        }
      }
      guard sample.acceleration != nil || sample.rotationRate != nil || sample.attitude != nil
      else {
        throw payload.invalidObject(
          "must have at least one of 'acceleration', 'rotationRate', 'attitude'")
      }
      return .sample(sample)
    }
    var activity: MotionActivity?
    var confidence: MotionConfidence?
    while let field = try payload.nextField() {
      switch field {
      case "activity": activity = try decodeChoice(&payload)
      case "confidence": confidence = try decodeChoice(&payload)
      default: try payload.skip()
      }
    }
    guard let activity else { throw payload.missing("activity") }
    guard let confidence else { throw payload.missing("confidence") }
    return .activity(activity, confidence: confidence)
  }

  /// Reads `{"x":…,"y":…,"z":…}`, or `null` for none.
  private func decodeVector(_ payload: inout RaspPayload) throws(RaspEventError) -> MotionVector? {
    if try payload.null() { return nil }
    try payload.beginObject()
    var x: Double?
    var y: Double?
    var z: Double?
    while let field = try payload.nextField() {
      switch field {
      case "x": x = try payload.double()
      case "y": y = try payload.double()
      case "z": z = try payload.double()
      default: try payload.skip()
      }
    }
    guard let x else { throw payload.missing("x") }
    guard let y else { throw payload.missing("y") }
    guard let z else { throw payload.missing("z") }
    return MotionVector(x: x, y: y, z: z)
  }

  /// Reads `{"roll":…,"pitch":…,"yaw":…}`, or `null` for none.
  private func decodeAttitude(_ payload: inout RaspPayload) throws(RaspEventError)
    -> MotionAttitude?
  {
    if try payload.null() { return nil }
    try payload.beginObject()
    var roll: Double?
    var pitch: Double?
    var yaw: Double?
    while let field = try payload.nextField() {
      switch field {
      case "roll": roll = try payload.double()
      case "pitch": pitch = try payload.double()
      case "yaw": yaw = try payload.double()
      default: try payload.skip()
      }
    }
    guard let roll else { throw payload.missing("roll") }
    guard let pitch else { throw payload.missing("pitch") }
    guard let yaw else { throw payload.missing("yaw") }
    return MotionAttitude(roll: roll, pitch: pitch, yaw: yaw)
  }

  /// Reads a string that must be one of the cases of `Choice`.
  private func decodeChoice<Choice: RawRepresentable & CaseIterable>(
    _ payload: inout RaspPayload
  ) throws(RaspEventError) -> Choice where Choice.RawValue == String {
    let text = try payload.string()
    if let choice = Choice(rawValue: text) { return choice }
    let names = Choice.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    throw payload.invalid("must be one of \(names), found '\(text)'")
  }

  /// Reads a state back from the JSON ``encode(_:into:)`` writes.
  ///
  /// ```swift
  /// let state = try MotionDomain().decodeState(
  ///   try JSONParser.parse(#"{"activity":"walking","confidence":"high","sample":null}"#))
  /// ```
  ///
  /// - Parameter value: `{"activity":…,"confidence":…,"sample":…}`.
  /// - Returns: The state.
  /// - Throws: ``RaspStateError`` naming the member that is missing or of the wrong kind.
  public func decodeState(_ value: JSONValue) throws(RaspStateError) -> MotionState {
    let state = RaspStateValue(value)
    func vector(_ value: RaspStateValue) throws(RaspStateError) -> MotionVector? {
      try value.optional { (vector) throws(RaspStateError) in
        MotionVector(
          x: try vector.member("x").double(), y: try vector.member("y").double(),
          z: try vector.member("z").double())
      }
    }
    let sample = try state.member("sample").optional { (sample) throws(RaspStateError) in
      MotionSample(
        acceleration: try vector(try sample.member("acceleration")),
        rotationRate: try vector(try sample.member("rotationRate")),
        attitude: try sample.member("attitude").optional { (attitude) throws(RaspStateError) in
          MotionAttitude(
            roll: try attitude.member("roll").double(),
            pitch: try attitude.member("pitch").double(), yaw: try attitude.member("yaw").double())
        })
    }
    return MotionState(
      sample: sample,
      activity: try state.member("activity").optional { (value) throws(RaspStateError) in
        try value.oneOf(MotionActivity.self)
      },
      confidence: try state.member("confidence").optional { (value) throws(RaspStateError) in
        try value.oneOf(MotionConfidence.self)
      })
  }

  /// Writes `{"activity":…,"confidence":…,"sample":…}`, the sample as
  /// `{"acceleration":…,"attitude":…,"rotationRate":…}`.
  ///
  /// ```swift
  /// MotionDomain().encode(MotionState(activity: .walking, confidence: .high), into: &writer)
  /// // {"activity":"walking","confidence":"high","sample":null}
  /// ```
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - writer: Where to write.
  public func encode(_ state: MotionState, into writer: inout JSONWriter) {
    writer.writeRaw("{\"activity\":")
    if let activity = state.activity {
      writer.writeString(activity.rawValue)
    } else {
      writer.writeNull()
    }
    writer.writeRaw(",\"confidence\":")
    if let confidence = state.confidence {
      writer.writeString(confidence.rawValue)
    } else {
      writer.writeNull()
    }
    writer.writeRaw(",\"sample\":")
    guard let sample = state.sample else {
      writer.writeRaw("null}")
      return
    }
    writer.writeRaw("{\"acceleration\":")
    write(sample.acceleration, into: &writer)
    writer.writeRaw(",\"attitude\":")
    if let attitude = sample.attitude {
      writer.writeRaw("{\"pitch\":")
      writer.writeNumber(attitude.pitch)
      writer.writeRaw(",\"roll\":")
      writer.writeNumber(attitude.roll)
      writer.writeRaw(",\"yaw\":")
      writer.writeNumber(attitude.yaw)
      writer.writeRaw("}")
    } else {
      writer.writeNull()
    }
    writer.writeRaw(",\"rotationRate\":")
    write(sample.rotationRate, into: &writer)
    writer.writeRaw("}}")
  }

  private func write(_ vector: MotionVector?, into writer: inout JSONWriter) {
    guard let vector else {
      writer.writeNull()
      return
    }
    writer.writeRaw("{\"x\":")
    writer.writeNumber(vector.x)
    writer.writeRaw(",\"y\":")
    writer.writeNumber(vector.y)
    writer.writeRaw(",\"z\":")
    writer.writeNumber(vector.z)
    writer.writeRaw("}")
  }
}
