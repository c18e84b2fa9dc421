import RaspJSON

extension MotionDomain: RaspRecordableDomain {
  /// Writes a `motion` event as its log line's name and payload: the inverse of
  /// ``decodeEvent(_:payload:context:)``.
  ///
  /// A sample is written with the parts it has, in key order — `acceleration` and
  /// `rotationRate` as `{"x":…,"y":…,"z":…}`, `attitude` as `{"pitch":…,"roll":…,"yaw":…}` —
  /// and without those it lacks; numbers in their shortest round-trip form, negative zero as
  /// `-0.0`, which reads back with its sign. An activity is written as
  /// `{"activity":…,"confidence":…}` with the cases' names. Both events take the recorder's
  /// clock as their time.
  ///
  /// The decoder refuses what a sample can hold but a log cannot: a sample without any part,
  /// and NaN or an infinity in a part (JSON has no such numbers).
  ///
  /// ```swift
  /// var record = RaspEventRecord()
  /// MotionDomain().encodeEvent(.activity(.walking, confidence: .high), into: &record)
  /// record.name   // "activity"
  /// // payload: {"activity":"walking","confidence":"high"}
  /// ```
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - record: Where to write its name and payload; its time stays the clock's.
  public func encodeEvent(_ event: MotionState.Event, into record: inout RaspEventRecord) {
    switch event {
    case .sample(let sample):
      record.name = "sample"
      var hasPart = false
      if let acceleration = sample.acceleration {
        record.payload.writeRaw("{\"acceleration\":")
        Self.write(acceleration, into: &record.payload)
        hasPart = true
      }
      if let attitude = sample.attitude {
        record.payload.writeRaw(hasPart ? "," : "{")
        record.payload.writeRaw("\"attitude\":{\"pitch\":")
        Self.writeDouble(attitude.pitch, into: &record.payload)
        record.payload.writeRaw(",\"roll\":")
        Self.writeDouble(attitude.roll, into: &record.payload)
        record.payload.writeRaw(",\"yaw\":")
        Self.writeDouble(attitude.yaw, into: &record.payload)
        record.payload.writeRaw("}")
        hasPart = true
      }
      if let rotationRate = sample.rotationRate {
        record.payload.writeRaw(hasPart ? "," : "{")
        record.payload.writeRaw("\"rotationRate\":")
        Self.write(rotationRate, into: &record.payload)
        hasPart = true
      }
      // A sample without any part, which the decoder refuses, is written as `{}`.
      if !hasPart { record.payload.writeRaw("{") }
      record.payload.writeRaw("}")
    case .activity(let activity, let confidence):
      record.name = "activity"
      record.payload.writeRaw("{\"activity\":")
      switch activity {
      case .stationary: record.payload.writeRaw("\"stationary\"")
      case .walking: record.payload.writeRaw("\"walking\"")
      case .running: record.payload.writeRaw("\"running\"")
      case .cycling: record.payload.writeRaw("\"cycling\"")
      case .automotive: record.payload.writeRaw("\"automotive\"")
      case .unknown: record.payload.writeRaw("\"unknown\"")
      }
      record.payload.writeRaw(",\"confidence\":")
      switch confidence {
      case .low: record.payload.writeRaw("\"low\"}")
      case .medium: record.payload.writeRaw("\"medium\"}")
      case .high: record.payload.writeRaw("\"high\"}")
      }
    }
  }

  /// Writes `{"x":…,"y":…,"z":…}`.
  private static func write(_ vector: MotionVector, into writer: inout JSONWriter) {
    writer.writeRaw("{\"x\":")
    writeDouble(vector.x, into: &writer)
    writer.writeRaw(",\"y\":")
    writeDouble(vector.y, into: &writer)
    writer.writeRaw(",\"z\":")
    writeDouble(vector.z, into: &writer)
    writer.writeRaw("}")
  }

  /// Writes a double in its shortest form, keeping the sign of negative zero, which the
  /// canonical form drops: `-0.0` reads back as −0.0, where `-0` would read as 0.
  private static func writeDouble(_ value: Double, into writer: inout JSONWriter) {
    if value == 0, value.sign == .minus {
      writer.writeRaw("-0.0")
    } else {
      writer.writeNumber(value)
    }
  }
}
