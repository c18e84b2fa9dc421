#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
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
  /// The lines written so far, when counted: for a checkpoint, whose records may each be
  /// printed over several lines.
  private(set) var linesWritten: Int?

  /// A sink that writes to `stream`.
  ///
  /// - Parameters:
  ///   - stream: Where the records go.
  ///   - isPretty: Whether records are printed indented, over several lines.
  ///   - isRaw: Whether a string value is printed without its quotes (`--raw-output`).
  ///   - countsLines: Whether to count the lines written (``linesWritten``), which
  ///     reads every byte once more.
  init(stream: any RaspOutputStream, isPretty: Bool, isRaw: Bool = false, countsLines: Bool = false)
  {
    self.stream = stream
    self.isPretty = isPretty
    self.isRaw = isRaw
    linesWritten = countsLines ? 0 : nil
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
    if let count = linesWritten { linesWritten = count + Self.lineEnds(in: output) }
    do {
      try stream.write(output)
    } catch {
      switch error {
      case .brokenPipe: throw .brokenPipe
      case .failed(let message): throw .outputFailed(message)
      }
    }
  }

  /// How many line ends `bytes` holds, found with `memchr`: a line of a few hundred bytes is
  /// passed over at once, where comparing byte by byte made a checkpointed replay a third
  /// slower.
  static func lineEnds(in bytes: [UInt8]) -> Int {
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return 0 }
      var count = 0
      var position = base
      let end = base + buffer.count
      while position < end, let found = memchr(position, 0x0A, end - position) {
        count += 1
        position = UnsafeRawPointer(found) + 1
      }
      return count
    }
  }

  mutating func finish(_ output: inout [UInt8]) throws(ReplayStop) {
    try flush(&output)
  }
}
