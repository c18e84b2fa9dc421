import RaspJSON

/// Prints each record on its own line of standard output, compact or indented, in large writes.
struct StandardOutputSink: ReplaySink {
  let stream: any RaspOutputStream
  let isPretty: Bool
  let threshold = 1 << 16
  private var scratch: [UInt8] = []

  init(stream: any RaspOutputStream, isPretty: Bool) {
    self.stream = stream
    self.isPretty = isPretty
  }

  mutating func endRecord(_ writer: inout JSONWriter, start: Int, meta: ReplayRecordMeta) throws(ReplayStop) {
    if isPretty {
      scratch.removeAll(keepingCapacity: true)
      scratch.append(contentsOf: writer.bytes[start...])
      writer.bytes.removeSubrange(start...)
      JSONPrettyPrinter.append(scratch[...], to: &writer.bytes)
    }
    writer.bytes.append(0x0A)
    if writer.bytes.count >= threshold { try flush(&writer) }
  }

  mutating func flush(_ writer: inout JSONWriter) throws(ReplayStop) {
    guard !writer.bytes.isEmpty else { return }
    defer { writer.removeAll() }
    do {
      try stream.write(writer.bytes)
    } catch {
      switch error {
      case .brokenPipe: throw .brokenPipe
      case .failed(let message): throw .outputFailed(message)
      }
    }
  }

  mutating func finish(_ writer: inout JSONWriter) throws(ReplayStop) {
    try flush(&writer)
  }
}
