import RaspJSON

extension Envelope {
  /// The event as rasp read it, written in rasp's own format whatever the log's:
  /// `{"payload":…,"ts":…,"type":"domain.event"}`, without `ts` when it has no time and
  /// without `payload` when it has none (``ReplayConfiguration/includesEventAsRead``).
  ///
  /// A Segment `track` call, a CloudEvent or a line a map reads is printed as the event rasp
  /// applied: its routed type, its time in RFC 3339, and its payload's bytes as the line holds
  /// them.
  ///
  /// ```swift
  /// let bytes = envelope.writtenAsRead(typeName: router.typeName(of: envelope))
  /// // {"payload":{"heading":90},"ts":"2026-01-05T10:00:00Z","type":"geo.heading"}
  /// ```
  ///
  /// - Parameter typeName: The event's type as routed (`geo.heading`).
  /// - Returns: The event's JSON, in key order.
  func writtenAsRead(typeName: String) -> [UInt8] {
    var writer = JSONWriter()
    writer.writeRaw("{")
    if let start = payloadOffset {
      var scanner = JSONScanner(line, position: start)
      if (try? scanner.skipValue()) != nil {
        writer.writeRaw("\"payload\":")
        writer.writeRaw(UnsafeBufferPointer(rebasing: line[start..<scanner.position]))
        writer.writeRaw(",")
      }
    }
    if let time = context.timestamp {
      writer.writeRaw("\"ts\":")
      writer.writeString(time.description)
      writer.writeRaw(",")
    }
    writer.writeRaw("\"type\":")
    writer.writeString(typeName)
    writer.writeRaw("}")
    return writer.bytes
  }
}
