import RaspJSON
import RaspReplay

/// Prints each record on its own line of standard output, compact or indented, in large writes.
struct StandardOutputSink: ReplaySink {
  let stream: any RaspOutputStream
  let isPretty: Bool
  /// How many bytes to gather before writing them.
  let threshold = 1 << 16
  private var scratch: [UInt8] = []

  init(stream: any RaspOutputStream, isPretty: Bool) {
    self.stream = stream
    self.isPretty = isPretty
  }

  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop) {
    if isPretty {
      scratch.removeAll(keepingCapacity: true)
      scratch.append(contentsOf: output[record.range])
      output.removeSubrange(record.range.lowerBound...)
      JSONPrettyPrinter.append(scratch[...], to: &output)
    }
    output.append(0x0A)
    if output.count >= threshold { try flush(&output) }
  }

  mutating func flush(_ output: inout [UInt8]) throws(ReplayStop) {
    guard !output.isEmpty else { return }
    defer { output.removeAll(keepingCapacity: true) }
    do {
      try stream.write(output)
    } catch {
      switch error {
      case .brokenPipe: throw .brokenPipe
      case .failed(let message): throw .outputFailed(message)
      }
    }
  }

  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop) {
    try flush(&output)
  }
}
