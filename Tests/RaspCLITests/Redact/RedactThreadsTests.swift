import RaspJSON
import RaspReplay
import RaspTestSupport
import Testing

@testable import RaspCLI

/// Redacting on several threads gives, byte for byte, what one thread gives: the output, the
/// counts, the first line that is not JSON and the first mistake with its line and column,
/// over logs of several runs a thread, whose lines straddle the runs' ends.
@Suite struct RedactThreadsTests {
  static let policy = #"""
    {"rules": [
      {"path": "source", "action": "hash"},
      {"path": "payload.screen", "action": "replace", "value": "screen"},
      {"path": "payload.latitude", "action": "round", "decimals": 2},
      {"path": "ts", "action": "shift", "by": 60}
    ]}
    """#

  /// A log of `count` lines of every kind: events that change and that do not, blank lines,
  /// CRLF lines, lines that are not JSON, long lines; with `mistakeAt` (from 1) a `ts` that
  /// cannot be shifted. The last line has no line end.
  static func log(count: Int, seed: UInt64, mistakeAt: Int? = nil) -> [UInt8] {
    var random = SplitMix64(seed: seed)
    var lines: [String] = []
    for number in 1...count {
      if number == mistakeAt {
        lines.append(#"{"type":"geo.heading","ts":"soon","payload":{"heading":1}}"#)
        continue
      }
      switch Int.random(in: 0..<12, using: &random) {
      case 0: lines.append("")
      case 1: lines.append("  \t")
      case 2: lines.append("not json \(number)")
      case 3: lines.append(#"{"type":"nav.push","payload":{"screen":"s\#(number)"}}"# + "\r")
      case 4:
        let long = String(repeating: "x", count: Int.random(in: 1...40_000, using: &random))
        lines.append(#"{"type":"data.note","source":"\#(long)","payload":{}}"#)
      case 5, 6:
        lines.append(
          #"{"type":"geo.location","ts":\#(number),"source":"gps","#
            + #""payload":{"latitude":\#(Double(number) / 7),"longitude":1}}"#)
      default:
        lines.append(#"{"type":"geo.heading","payload":{"heading":\#(number % 360)}}"#)
      }
    }
    return Array(lines.joined(separator: "\n").utf8)
  }

  /// The output and result of redacting `log`, or the error, with `threads` (1: the one-thread
  /// path).
  static func redact(_ log: [UInt8], threads: Int) throws -> (
    output: [UInt8], result: RedactCommand.Result?, error: String?
  ) {
    let policy = try RedactionPolicy(file: "pii.json", bytes: Array(Self.policy.utf8))
    var redactor = Redactor(policy: policy, key: Array("key".utf8))
    var source = RaspInputSource.memory(JSONMemorySource(log))
    var output: [UInt8] = []
    let write = { (bytes: [UInt8]) throws(RaspCommandError) in output += bytes }
    do {
      let result =
        threads == 1
        ? try RedactCommand.redact(&source, file: "events.jsonl", redactor: &redactor, write: write)
        : try RedactCommand.redact(
          &source, file: "events.jsonl", redactor: redactor, threads: threads, write: write)
      return (output, result, nil)
    } catch {
      return (output, nil, "\(error)")
    }
  }

  @Test(arguments: [2, 3, 4])
  func severalThreadsWriteWhatOneWrites(threads: Int) throws {
    let log = Self.log(count: 60_000, seed: UInt64(threads))
    #expect(log.count > 6 << 20, "several runs a thread: \(log.count) bytes")
    let one = try Self.redact(log, threads: 1)
    let several = try Self.redact(log, threads: threads)
    #expect(one.error == nil)
    #expect(several.error == nil)
    #expect(several.output == one.output)
    let (a, b) = (one.result, several.result)
    #expect(b?.lines == a?.lines)
    #expect(a?.lines == 60_000)
    #expect(b?.changedLines == a?.changedLines)
    #expect(b?.changes == a?.changes)
    #expect(b?.notJSON == a?.notJSON)
    #expect(b?.firstNotJSON == a?.firstNotJSON)
    #expect((a?.changedLines ?? 0) > 10_000)
  }

  @Test(arguments: [7, 31_337, 59_999])
  func aMistakeIsNamedAtItsLineWhateverTheThreads(line: Int) throws {
    let log = Self.log(count: 60_000, seed: 9, mistakeAt: line)
    let one = try Self.redact(log, threads: 1)
    #expect(
      one.error?.hasPrefix("events.jsonl:\(line):28: error: at ts") == true, "\(one.error ?? "")")
    for threads in [2, 4] {
      #expect(try Self.redact(log, threads: threads).error == one.error, "\(threads) threads")
    }
  }

  /// A write that fails stops the redaction there, whatever the threads: its error is the
  /// one thrown, and what was handed on before it is what one thread hands on.
  @Test(arguments: [1, 2, 4])
  func aFailedWriteStopsTheRedaction(threads: Int) throws {
    let log = Self.log(count: 60_000, seed: 5)
    let policy = try RedactionPolicy(file: "pii.json", bytes: Array(Self.policy.utf8))
    var redactor = Redactor(policy: policy, key: Array("key".utf8))
    var source = RaspInputSource.memory(JSONMemorySource(log))
    var output: [UInt8] = []
    var writes = 0
    let write = { (bytes: [UInt8]) throws(RaspCommandError) in
      writes += 1
      if writes == 3 { throw .cannotWrite("share.jsonl", reason: "No space left on device") }
      output += bytes
    }
    var thrown: String?
    do {
      _ =
        threads == 1
        ? try RedactCommand.redact(&source, file: "events.jsonl", redactor: &redactor, write: write)
        : try RedactCommand.redact(
          &source, file: "events.jsonl", redactor: redactor, threads: threads, write: write)
    } catch {
      thrown = "\(error)"
    }
    #expect(
      thrown?.hasPrefix("rasp: error: cannot write 'share.jsonl': No space left on device") == true,
      "\(thrown ?? "nothing thrown")")
    #expect(writes == 3, "nothing is written after the failure")
    let whole = try Self.redact(log, threads: 1).output
    #expect(output.count > 0)
    #expect(output.count < whole.count)
    #expect(Array(whole.prefix(output.count)) == output)
  }
}
