#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rasp-bench generate --events N [--seed S]`: writes a benchmark log to standard output.
///
/// The log is streamed in blocks of 256 KiB, so ten million events (about a gigabyte) take no
/// more memory than a thousand.
///
/// ```sh
/// rasp-bench generate --events 1000000 --seed 7 > bench-output/events-1m.jsonl
/// ```
enum GenerateCommand {
  static let usage = "Usage: rasp-bench generate --events <count> [--seed <number>]"

  /// Runs the command.
  ///
  /// - Parameter arguments: The arguments after `generate`.
  /// - Returns: The exit status: 0, 2 when standard output cannot be written, 64 for a usage
  ///   error.
  static func main(arguments: [String]) -> Int32 {
    var events: Int?
    var seed: UInt64 = 7
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--help", "-h":
        print(usage)
        return 0
      case "--events":
        guard let value = remaining.popFirst().flatMap({ Int($0) }), value >= 0 else {
          printError("Error: '--events' expects a whole number\n\(usage)")
          return 64
        }
        events = value
      case "--seed":
        guard let value = remaining.popFirst().flatMap({ UInt64($0) }) else {
          printError("Error: '--seed' expects a whole number\n\(usage)")
          return 64
        }
        seed = value
      default:
        printError("Error: Unknown option '\(argument)'\n\(usage)")
        return 64
      }
    }
    guard let events else {
      printError("Error: Missing '--events <count>'\n\(usage)")
      return 64
    }
    var generator = BenchLogGenerator(seed: seed)
    var block: [UInt8] = []
    block.reserveCapacity(1 << 18 + 512)
    for _ in 0..<events {
      generator.appendEvent(to: &block)
      if block.count >= 1 << 18 {
        guard writeAll(block) else { return 2 }
        block.removeAll(keepingCapacity: true)
      }
    }
    return writeAll(block) ? 0 : 2
  }

  /// Writes `bytes` to standard output, retrying short writes; reports a failure on stderr.
  static func writeAll(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          if errno != EPIPE {
            printError("rasp-bench: cannot write the log: \(String(cString: strerror(errno)))")
          }
          return false
        }
        offset += written
      }
      return true
    }
  }
}
