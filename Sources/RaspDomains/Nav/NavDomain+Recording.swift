import RaspJSON

extension NavDomain: RaspRecordableDomain {
  /// Writes a `nav` event as its log line's name and payload: the inverse of
  /// ``decodeEvent(_:payload:context:)``.
  ///
  /// `push`, `replace` and `present` are written as `{"screen":…}`, `selectTab` as
  /// `{"tab":…}`, the screen or tab escaped as JSON requires; `pop`, `popToRoot` and `dismiss`
  /// have no payload. Every event takes the recorder's clock as its time.
  ///
  /// The decoder refuses an empty screen or tab name, which the events can hold.
  ///
  /// ```swift
  /// var record = RaspEventRecord()
  /// NavDomain().encodeEvent(.push("settings"), into: &record)
  /// record.name   // "push"
  /// // payload: {"screen":"settings"}
  /// ```
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - record: Where to write its name and payload; its time stays the clock's.
  public func encodeEvent(_ event: NavState.Event, into record: inout RaspEventRecord) {
    switch event {
    case .push(let screen):
      record.name = "push"
      record.payload.writeRaw("{\"screen\":")
      record.payload.writeString(screen)
    case .pop:
      record.name = "pop"
      return
    case .popToRoot:
      record.name = "popToRoot"
      return
    case .replace(let screen):
      record.name = "replace"
      record.payload.writeRaw("{\"screen\":")
      record.payload.writeString(screen)
    case .selectTab(let tab):
      record.name = "selectTab"
      record.payload.writeRaw("{\"tab\":")
      record.payload.writeString(tab)
    case .present(let screen):
      record.name = "present"
      record.payload.writeRaw("{\"screen\":")
      record.payload.writeString(screen)
    case .dismiss:
      record.name = "dismiss"
      return
    }
    record.payload.writeRaw("}")
  }
}
