import RaspJSON

extension DataDomain: RaspRecordableDomain {
  /// Writes a `data` event as its log line's name and payload: the inverse of
  /// ``decodeEvent(_:payload:context:)``.
  ///
  /// `set` and `merge` are written as `{"key":…,"value":…}`, the value as canonical JSON (keys
  /// sorted, numbers in their shortest form); `remove` as `{"key":…}`; `clear` has no payload.
  /// Every event takes the recorder's clock as its time.
  ///
  /// A value comes back equal, as ``JSONValue`` compares: by meaning. A number stored as a
  /// double that is an integer below 2⁵³, such as `3.0` or `-0.0`, is written as an integer
  /// and comes back stored as one (`3`, `0`). The decoder refuses an empty key, and a value
  /// nested more than ``JSONLimits/maximumDepth`` − 2 levels deep, the deepest a log line's
  /// payload can hold; a number that is NaN or infinite, which ``JSONNumber`` must not hold,
  /// is written as `null`.
  ///
  /// ```swift
  /// var record = RaspEventRecord()
  /// DataDomain().encodeEvent(.set(key: "theme", value: "dark"), into: &record)
  /// record.name   // "set"
  /// // payload: {"key":"theme","value":"dark"}
  /// ```
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - record: Where to write its name and payload; its time stays the clock's.
  public func encodeEvent(_ event: DataState.Event, into record: inout RaspEventRecord) {
    switch event {
    case .set(let key, let value):
      record.name = "set"
      record.payload.writeRaw("{\"key\":")
      record.payload.writeString(key)
      record.payload.writeRaw(",\"value\":")
      record.payload.write(value)
    case .merge(let key, let value):
      record.name = "merge"
      record.payload.writeRaw("{\"key\":")
      record.payload.writeString(key)
      record.payload.writeRaw(",\"value\":")
      record.payload.write(.object(value))
    case .remove(let key):
      record.name = "remove"
      record.payload.writeRaw("{\"key\":")
      record.payload.writeString(key)
    case .clear:
      record.name = "clear"
      return
    }
    record.payload.writeRaw("}")
  }
}
