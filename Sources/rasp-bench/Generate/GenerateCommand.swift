#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rasp-bench generate --events N [--seed S] [--format F]`: writes a benchmark log to standard
/// output.
///
/// The log is streamed in blocks of 256 KiB, so ten million events (about a gigabyte) take no
/// more memory than a thousand. `--format` writes the same events in another tool's format
/// (``BenchLogFormat``), each line rewritten by ``BenchLogConverter``; the default is rasp's own.
///
/// ```sh
/// rasp-bench generate --events 1000000 --seed 7 > bench-output/events-1m.jsonl
/// rasp-bench generate --events 1000000 --seed 7 --format fsa > bench-output/events-1m-fsa.jsonl
/// ```
enum GenerateCommand {
  static let usage = """
    Usage: rasp-bench generate --events <count> [--seed <number>] \
    [--format \(BenchLogFormat.allCases.map(\.rawValue).joined(separator: "|"))] \
    [--keys <count>]
    """

  /// Runs the command.
  ///
  /// - Parameter arguments: The arguments after `generate`.
  /// - Returns: The exit status: 0, 2 when standard output cannot be written, 64 for a usage
  ///   error.
  static func main(arguments: [String]) -> Int32 {
    var events: Int?
    var seed: UInt64 = 7
    var format = BenchLogFormat.rasp
    var keys: Int?
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
      case "--format":
        guard let value = remaining.popFirst().flatMap({ BenchLogFormat(rawValue: $0) }) else {
          printError(
            "Error: '--format' expects one of \(BenchLogFormat.quotedNames())\n\(usage)")
          return 64
        }
        format = value
      case "--keys":
        guard let value = remaining.popFirst().flatMap({ Int($0) }), value > 0 else {
          printError("Error: '--keys' expects a whole number above 0\n\(usage)")
          return 64
        }
        keys = value
      default:
        printError("Error: Unknown option '\(argument)'\n\(usage)")
        return 64
      }
    }
    guard let events else {
      printError("Error: Missing '--events <count>'\n\(usage)")
      return 64
    }
    if let keys {
      guard format == .rasp else {
        printError("Error: '--keys' writes rasp's own format only\n\(usage)")
        return 64
      }
      return generateKeyed(events: events, keys: keys, seed: seed, to: writeAll) ? 0 : 2
    }
    return generate(events: events, seed: seed, format: format, to: writeAll) ? 0 : 2
  }

  /// Generates a log of `keys` devices, interleaved at random: each line starts with its
  /// device, `{"device":"d42",…`, and each device's events are a log of their own (its
  /// navigation stack, its links), made by a generator of its own, so that a replay keyed by
  /// `device` has no bad line.
  ///
  /// ```swift
  /// GenerateCommand.generateKeyed(events: 100, keys: 10, seed: 7) { log += $0; return true }
  /// ```
  @discardableResult
  static func generateKeyed(
    events: Int, keys: Int, seed: UInt64, to write: ([UInt8]) -> Bool
  ) -> Bool {
    var random = BenchRandom(seed: seed)
    var generators = [BenchLogGenerator?](repeating: nil, count: keys)
    var block: [UInt8] = []
    block.reserveCapacity(1 << 18 + 1024)
    var line: [UInt8] = []
    for _ in 0..<events {
      let key = random.below(keys)
      var generator =
        generators[key].take() ?? BenchLogGenerator(seed: seed &+ UInt64(key) &* 0x9E37_79B9)
      line.removeAll(keepingCapacity: true)
      generator.appendEvent(to: &line)
      generators[key] = generator
      block.append(contentsOf: #"{"device":"d"#.utf8)
      block.append(contentsOf: String(key).utf8)
      block.append(contentsOf: #"","#.utf8)
      block.append(contentsOf: line.dropFirst())
      if block.count >= 1 << 18 {
        guard write(block) else { return false }
        block.removeAll(keepingCapacity: true)
      }
    }
    return write(block)
  }

  /// Generates the log in blocks of about 256 KiB and hands each to `write`.
  ///
  /// ```swift
  /// var log: [UInt8] = []
  /// GenerateCommand.generate(events: 100, seed: 7, format: .fsa) { log += $0; return true }
  /// ```
  ///
  /// - Parameters:
  ///   - events: How many events.
  ///   - seed: The generator's seed.
  ///   - format: The format of the lines.
  ///   - write: Takes the next block; returns `false` to stop.
  /// - Returns: `false` when `write` did.
  @discardableResult
  static func generate(
    events: Int, seed: UInt64, format: BenchLogFormat, to write: ([UInt8]) -> Bool
  ) -> Bool {
    var generator = BenchLogGenerator(seed: seed)
    var converter = BenchLogConverter(format: format)
    var block: [UInt8] = []
    block.reserveCapacity(1 << 18 + 1024)
    var line: [UInt8] = []
    for _ in 0..<events {
      if format == .rasp {
        generator.appendEvent(to: &block)
      } else {
        line.removeAll(keepingCapacity: true)
        generator.appendEvent(to: &line)
        let converted = line.withUnsafeBufferPointer {
          converter.append(UnsafeBufferPointer(rebasing: $0.dropLast()), to: &block)
        }
        precondition(converted, "every generated line is in the generator's layout")
      }
      if block.count >= 1 << 18 {
        guard write(block) else { return false }
        block.removeAll(keepingCapacity: true)
      }
    }
    return write(block)
  }

  /// Writes `bytes` to standard output; reports a failure on stderr, but not a closed pipe.
  static func writeAll(_ bytes: [UInt8]) -> Bool {
    guard let code = bytes.withUnsafeBytes({ FileBytes.writeAll($0, to: 1) }) else { return true }
    if code != EPIPE {
      printError("rasp-bench: cannot write the log: \(String(cString: strerror(code)))")
    }
    return false
  }
}
