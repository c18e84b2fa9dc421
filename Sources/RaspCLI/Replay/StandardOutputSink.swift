import RaspJSON
import RaspReplay

/// Prints each record on its own line of standard output, compact or indented, in large writes.
///
/// A record of a selection with `[]` holds several values, one per line; each is indented, or
/// with `isRaw` printed raw (``RaspJSON/JSONRawPrinter``: a string as its text, as `jq -r`
/// does), on its own.
struct StandardOutputSink: ReplaySink {
  let stream: any RaspOutputStream
  let isPretty: Bool
  let isRaw: Bool
  /// How many bytes to gather before writing them.
  let threshold = 1 << 16
  private var scratch: [UInt8] = []

  init(stream: any RaspOutputStream, isPretty: Bool, isRaw: Bool = false) {
    self.stream = stream
    self.isPretty = isPretty
    self.isRaw = isRaw
  }

  mutating func take(_ record: ReplayRecord, in output: inout [UInt8]) throws(ReplayStop) {
    if isPretty || isRaw {
      scratch.removeAll(keepingCapacity: true)
      scratch.append(contentsOf: output[record.range])
      output.removeSubrange(record.range.lowerBound...)
      // Canonical JSON holds no line end outside strings: each line is one value.
      for (index, value) in scratch.split(separator: 0x0A).enumerated() {
        if index > 0 { output.append(0x0A) }
        if isRaw, value.first == UInt8(ascii: "\"") {
          JSONRawPrinter.append(value, to: &output)
        } else if isPretty {
          JSONPrettyPrinter.append(value, to: &output)
        } else {
          output.append(contentsOf: value)
        }
      }
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
