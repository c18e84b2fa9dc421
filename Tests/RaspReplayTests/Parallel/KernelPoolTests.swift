import RaspDomains
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspReplay

/// A keyed replay on several threads (`--jobs N`, ``KernelPool``) yields exactly what one
/// kernel yields: every record's bytes and number, every bad line, the counts and the ending,
/// whatever the number of threads, the options, and where the lists of items are cut.
///
/// One kernel's keyed replay is itself checked against each key's events replayed alone
/// (``ReplayKeysTests``); here the pool is checked against it.
@Suite struct KernelPoolTests {
  /// Everything a replay yields, described: each record with its number, input and line, each
  /// bad line and notice, and the summary with all its counts.
  private static func outcomes(
    _ logs: [String], jobs: Int, threading: ReplayConfiguration.Threading = .automatic,
    _ configure: (inout ReplayConfiguration) -> Void
  ) -> [String] {
    var configuration = ReplayConfiguration(domains: [GeoDomain(), NavDomain()])
    configuration.keyPath = try? JSONPath("device")
    configuration.jobs = jobs
    configuration.threading = threading
    configure(&configuration)
    let inputs = logs.enumerated().map { index, text in
      ReplayInput(name: "log\(index)", source: .memory(JSONMemorySource(Array(text.utf8))))
    }
    var replay = Replay(configuration: configuration, inputs: inputs)
    var output: [UInt8] = []
    var described: [String] = []
    while let outcome = replay.next(appendingTo: &output) {
      switch outcome {
      case .record(let record):
        let text = String(decoding: output[record.range], as: UTF8.self)
        described.append(
          "#\(record.seq) \(record.input.map(String.init) ?? "-"):"
            + "\(record.line.map(String.init) ?? "-") \(text)")
      case .skipped(let diagnostic): described.append("skipped \(diagnostic)")
      case .ignored(let diagnostic): described.append("ignored \(diagnostic)")
      case .notice(let notice): described.append("notice \(notice.message)")
      case .waiting: described.append("waiting")
      case .checkpoint: described.append("checkpoint")
      case .end(let summary): described.append("end \(summary)")
      }
    }
    return described
  }

  /// A log of many devices, interleaved, with every kind of line a replay meets: events of
  /// each domain, events without a device or with `null`, pops of an empty stack (rejected by
  /// the reducer), payloads that do not decode, unknown types, lines that are not JSON, blank
  /// lines — the bad ones only from line `cleanUntil` on.
  private static func log(seed: UInt64, count: Int, devices: Int = 40, cleanUntil: Int = 0)
    -> String
  {
    var random = SplitMix64(seed: seed)
    func next(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
    var lines: [String] = []
    for index in 0..<count {
      let pick = next(devices + 3)
      let device: String
      switch pick {
      case ..<devices: device = #","device":"d\#(pick)""#
      case devices: device = #","device":null"#
      case devices + 1: device = #","device":\#(next(3))"#
      default: device = ""
      }
      var kind = next(40)
      if index < cleanUntil, kind < 14 { kind += 14 }
      switch kind {
      case 0: lines.append(#"{"type":"geo.heading"\#(device),"payload":{"heading":"north"}}"#)
      case 1: lines.append(#"{"type":"mystery.event"\#(device)}"#)
      case 2: lines.append(#"{"type":"geo.heading","payload":{"heading":1]"#)
      case 3: lines.append("")
      case 4..<14:
        lines.append(#"{"type":"nav.pop"\#(device)}"#)
      case 14..<24:
        lines.append(#"{"type":"nav.push"\#(device),"payload":{"screen":"s\#(next(5))"}}"#)
      case 24..<32:
        lines.append(#"{"type":"geo.heading"\#(device),"payload":{"heading":\#(next(360))}}"#)
      default:
        lines.append(
          #"{"ts":"2026-11-22T09:30:\#(10 + next(40)).000Z","type":"geo.location"\#(device),"#
            + #""payload":{"latitude":52.\#(next(1000)),"longitude":13.\#(next(1000))}}"#)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The options a keyed replay is run with, each a different way of writing records.
  private static let variants: [(String, @Sendable (inout ReplayConfiguration) -> Void)] = [
    ("every snapshot", { $0.errorMode = .skip }),
    (
      "--final",
      {
        $0.errorMode = .skip; $0.isFinal = true
      }
    ),
    (
      "--select",
      {
        $0.errorMode = .skip; $0.selection = try? JSONPath("nav.stack[-1]")
      }
    ),
    (
      "--emit diff",
      {
        $0.errorMode = .skip; $0.emit = .diff
      }
    ),
    (
      "--emit diff --changes-only",
      {
        $0.errorMode = .skip; $0.emit = .diff; $0.changesOnly = true
      }
    ),
    (
      "--with-event",
      {
        $0.errorMode = .skip; $0.includesEvent = true
      }
    ),
    (
      "--final --with-event --select",
      {
        $0.errorMode = .skip
        $0.isFinal = true
        $0.includesEvent = true
        $0.selection = try? JSONPath("geo.heading")
      }
    ),
    (
      "--final --emit diff",
      {
        $0.errorMode = .skip; $0.isFinal = true; $0.emit = .diff
      }
    ),
    (
      "--strict",
      {
        $0.errorMode = .skip; $0.isStrict = true; $0.includesEvent = true
      }
    ),
    (
      "--on-error fail",
      {
        $0.errorMode = .fail; $0.includesEvent = true
      }
    ),
    (
      "--on-error fail --final",
      {
        $0.errorMode = .fail; $0.isFinal = true
      }
    ),
  ]

  @Test(arguments: variants.indices)
  func everyNumberOfJobsYieldsWhatOneKernelYields(variant: Int) {
    let (name, configure) = Self.variants[variant]
    // More lines than a batch holds: several lists, numbered across their cuts.
    // Under `--on-error fail`, the first bad line is in the second batch.
    let log = Self.log(seed: 3, count: 9_000, cleanUntil: name.contains("fail") ? 6_000 : 0)
    let one = Self.outcomes([log], jobs: 1, configure)
    if name.contains("fail") {
      // The first bad line is past the first batch, and ends the replay.
      #expect(one.last?.contains("stoppedAtBadLine") == true, "\(name)")
      #expect(one.last?.contains("applied: 5") == true || one.last?.contains("applied: 6") == true)
    } else {
      #expect(one.count > 10, "\(name)")
    }
    for jobs in [2, 3, 5] {
      let many = Self.outcomes([log], jobs: jobs, configure)
      #expect(many == one, "\(name), \(jobs) jobs")
    }
  }

  @Test func aFailureEndsTheReplayWhereOneKernelEnds() throws {
    // The first bad line is an empty stack's pop, far into the second batch: the kernels of
    // the other keys have gone past it, and must give back what they did after it.
    var lines: [String] = []
    for index in 0..<6_000 {
      lines.append(#"{"type":"nav.push","device":"d\#(index % 17)","payload":{"screen":"s"}}"#)
    }
    lines[5_000] = #"{"type":"nav.pop","device":"fresh"}"#
    lines[5_500] = #"{"type":"unknown.type","device":"d1"}"#
    let log = lines.joined(separator: "\n")
    let one = Self.outcomes([log], jobs: 1) { $0.includesEvent = true }
    let last = try #require(one.last)
    #expect(last.contains("applied: 5000"))
    #expect(last.contains("stoppedAtBadLine"))
    #expect(one.dropLast().last?.hasPrefix("skipped log0:5001:1: event rejected") == true)
    for jobs in [2, 4] {
      #expect(Self.outcomes([log], jobs: jobs) { $0.includesEvent = true } == one, "\(jobs) jobs")
    }
  }

  @Test func theFirstUnknownTypeIsTheFirstInTheLog() {
    // Unknown types of several keys: the one the warning names is the first in the log,
    // whichever kernel met it.
    let log = (0..<500).map { index in
      #"{"type":"kind\#(index % 3).x","device":"d\#(499 - index)"}"#
    }.joined(separator: "\n")
    let one = Self.outcomes([log], jobs: 1) { $0.errorMode = .skip }
    #expect(one.last?.contains(#"type: "kind0.x""#) == true)
    #expect(one.last?.contains("line: 1, nearest: nil)") == true)
    for jobs in [2, 3] {
      #expect(Self.outcomes([log], jobs: jobs) { $0.errorMode = .skip } == one)
    }
  }

  @Test func theFirstEventOfEachUnknownFieldIsTheFirstInTheLog() throws {
    // Unknown payload fields of several keys, each first met by another kernel: the warnings
    // name, in the log's order, the first event of each type and field.
    let log = (0..<600).map { index in
      let field = ["note", "acuracy", "headng"][index % 3]
      return #"{"type":"geo.heading","device":"d\#(599 - index)","payload":{"heading":1,"#
        + #""\#(field)\#(index / 200)":2}}"#
    }.joined(separator: "\n")
    let one = Self.outcomes([log], jobs: 1) { $0.isFinal = true }
    let last = try #require(one.last)
    #expect(last.contains("withUnknownField: 600"))
    // note0, acuracy0, headng0 at lines 1-3; headng1, note1, acuracy1 at 201-203; …
    for (field, line) in [
      ("note0", 1), ("acuracy0", 2), ("headng0", 3), ("headng1", 201), ("note2", 403),
    ] {
      #expect(last.contains(#"field: "payload.\#(field)", inputName: "log0", line: \#(line),"#))
    }
    for jobs in [2, 3] {
      #expect(Self.outcomes([log], jobs: jobs) { $0.isFinal = true } == one, "\(jobs) jobs")
    }
  }

  @Test(arguments: [ReplayConfiguration.Threading.single, .readAhead])
  func threadingAndMergedLogsYieldTheSame(threading: ReplayConfiguration.Threading) {
    // Two logs merged by time hand their items over one by one: gathered into lists.
    let logs = [Self.log(seed: 5, count: 5_000), Self.log(seed: 6, count: 3_000)]
    let configure: (inout ReplayConfiguration) -> Void = {
      $0.errorMode = .skip
      $0.includesEvent = true
    }
    let one = Self.outcomes(logs, jobs: 1, threading: threading, configure)
    for jobs in [2, 3] {
      #expect(Self.outcomes(logs, jobs: jobs, threading: threading, configure) == one)
    }
    let single = Self.outcomes([logs[0]], jobs: 1, threading: threading, configure)
    #expect(Self.outcomes([logs[0]], jobs: 2, threading: threading, configure) == single)
  }

  @Test func eachKeyIsInOneShareAndEveryShareHasKeys() throws {
    // The shares come from the key's hash, mixed; the table uses the low bits of the hash.
    let path = try JSONPath("device")
    var keys = ReplayKeys(path: path)
    var counts = [0, 0, 0]
    for index in 0..<3_000 {
      let line = Array(#"{"type":"geo.heading","device":"d\#(index % 300)"}"#.utf8)
      let shares = line.withUnsafeBufferPointer { buffer -> [Int] in
        guard let envelope = try? Envelope.parse(buffer) else { return [] }
        return (0..<2).map { _ in keys.share(of: envelope, typeName: "", among: 3) }
      }
      #expect(shares.count == 2 && shares[0] == shares[1])
      if let share = shares.first { counts[share] += 1 }
    }
    #expect(counts.reduce(0, +) == 3_000)
    #expect(counts.allSatisfy { $0 > 600 }, "\(counts)")
  }
}
