import RaspJSON

extension LifecycleDomain: RaspRecordableDomain {
  /// Writes a `lifecycle` event as its log line's name and time: the inverse of
  /// ``decodeEvent(_:payload:context:)``.
  ///
  /// No event has payload fields, so the payload stays empty. A phase change keeps the `ts` of
  /// its line, so its `at:` becomes the line's `ts`: ``RaspEventRecord/Time/given(_:)`` with the
  /// value as it is, or ``RaspEventRecord/Time/absent`` for `nil`, so that the line has no `ts`
  /// at all. A memory warning keeps no time and takes the recorder's clock.
  ///
  /// The decoder gives back an `at:` only for a `ts` that is a time: an RFC 3339 string or a
  /// number of seconds. Any other value — a string that is not a time, `null`, a boolean, an
  /// array, an object — is written as it is and comes back as `nil`; `rasp replay` refuses a
  /// line with such a `ts`, `null` apart, as it refuses a number of seconds out of its range.
  ///
  /// ```swift
  /// var record = RaspEventRecord()
  /// LifecycleDomain().encodeEvent(.enterBackground(at: "2026-11-22T09:35:00Z"), into: &record)
  /// record.name   // "enterBackground"
  /// record.time   // .given("2026-11-22T09:35:00Z")
  /// ```
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - record: Where to write its name and time.
  public func encodeEvent(_ event: LifecycleState.Event, into record: inout RaspEventRecord) {
    let time: JSONValue?
    switch event {
    case .launch(let at):
      record.name = "launch"
      time = at
    case .becomeActive(let at):
      record.name = "becomeActive"
      time = at
    case .resignActive(let at):
      record.name = "resignActive"
      time = at
    case .enterBackground(let at):
      record.name = "enterBackground"
      time = at
    case .enterForeground(let at):
      record.name = "enterForeground"
      time = at
    case .terminate(let at):
      record.name = "terminate"
      time = at
    case .memoryWarning:
      record.name = "memoryWarning"
      return
    }
    if let time, Self.isLogTime(time) { record.time = .given(time) } else { record.time = .absent }
  }

  /// Whether a value is a time a log line's `ts` may hold: an RFC 3339 string, or a number of
  /// seconds since the epoch. Any other value (`"yesterday"`, `null`) is written as no `ts`,
  /// which replays as no time, rather than as a `ts` that would make the line a bad one.
  static func isLogTime(_ value: JSONValue) -> Bool {
    switch value {
    case .string(let text):
      return (try? RaspTimestamp(rfc3339: text)) != nil
    case .number:
      var writer = JSONWriter(capacity: 32)
      writer.write(value)
      return (try? RaspTimestamp(epochSeconds: String(decoding: writer.bytes, as: UTF8.self)))
        != nil
    default:
      return false
    }
  }
}
