import RaspJSON

extension GeoDomain: RaspRecordableDomain {
  /// Writes a `geo` event as its log line's name and payload: the inverse of
  /// ``decodeEvent(_:payload:context:)``.
  ///
  /// A heading is written as `{"heading":…}`; a location as `{"latitude":…,"longitude":…}`,
  /// with `accuracy` first when it is known and left out when it is not (the decoder reads an
  /// absent `accuracy` as unknown). Numbers are written in their shortest round-trip form, and
  /// negative zero as `-0.0`, which reads back with its sign. Both events take the recorder's
  /// clock as their time.
  ///
  /// The decoder refuses what the events can hold but a log cannot: a heading outside 0–360, a
  /// latitude outside −90–90, a longitude outside −180–180, a negative accuracy. NaN and the
  /// infinities, which JSON cannot hold, are written as `null`: refused as a heading or a
  /// position, read back as an unknown accuracy.
  ///
  /// ```swift
  /// var record = RaspEventRecord()
  /// GeoDomain().encodeEvent(
  ///   .location(GeoLocation(latitude: 52.52, longitude: 13.405), accuracy: 30), into: &record)
  /// record.name   // "location"
  /// // payload: {"accuracy":30,"latitude":52.52,"longitude":13.405}
  /// ```
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - record: Where to write its name and payload; its time stays the clock's.
  public func encodeEvent(_ event: GeoState.Event, into record: inout RaspEventRecord) {
    switch event {
    case .heading(let heading):
      record.name = "heading"
      record.payload.writeRaw("{\"heading\":")
      Self.writeDouble(heading, into: &record.payload)
      record.payload.writeRaw("}")
    case .location(let location, let accuracy):
      record.name = "location"
      if let accuracy {
        record.payload.writeRaw("{\"accuracy\":")
        Self.writeDouble(accuracy, into: &record.payload)
        record.payload.writeRaw(",\"latitude\":")
      } else {
        record.payload.writeRaw("{\"latitude\":")
      }
      Self.writeDouble(location.latitude, into: &record.payload)
      record.payload.writeRaw(",\"longitude\":")
      Self.writeDouble(location.longitude, into: &record.payload)
      record.payload.writeRaw("}")
    }
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
