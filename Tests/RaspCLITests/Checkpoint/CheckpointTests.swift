import Foundation
import RaspJSON
import RaspReplay
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp replay --save-state` and `--resume`, checked against the full replay: a checkpoint
/// saved after the first lines of a log, resumed on the whole log, prints the full replay's
/// lines after the checkpoint's `records`, and nothing else.
@Suite struct CheckpointTests {
  static let logs = [
    "fixtures/example/events.jsonl", "fixtures/session-mixed/events.jsonl",
    "fixtures/replay-key-by/events.jsonl",
  ]
  static let optionSets: [[String]] = [
    [], ["--select", "nav.stack"], ["--with-event", "--select", "geo.heading"], ["--final"],
    ["--final", "--with-event"], ["--hide", "geo.*", "--select", "geo.heading"],
    ["--key-by", "source", "--select", "nav.stack"], ["--key-by", "source", "--final"],
    ["--since", "#5"], ["--on-error", "skip", "--domain", "nav"],
    // A record over several lines.
    ["--pretty"], ["--select", "nav.stack[]"], ["--key-by", "source", "--final", "--pretty"],
  ]

  func replay(_ arguments: [String], in directory: TemporaryDirectory) -> CommandRun {
    CommandRun.run(["replay"] + arguments, in: directory.path)
  }

  func lines(_ text: String) -> [Substring] {
    text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
  }

  /// A count of a checkpoint: `records`, `lines`, `events`; -1 when it has none.
  func count(_ member: String, in directory: TemporaryDirectory, _ name: String = "state.json")
    throws -> Int
  {
    let value = try JSONParser.parse(try #require(directory.bytes(name)))
    guard case .number(let count)? = value[member] else { return -1 }
    return Int(count.integerValue ?? -1)
  }

  @Test(arguments: logs)
  func aReplayResumedOnTheGrownLogPrintsTheFullReplaysLinesAfterTheCheckpoint(_ log: String)
    throws
  {
    let text = try String(contentsOfFile: Repository.path(log), encoding: .utf8)
    let logLines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    let directory = try TemporaryDirectory()
    for options in Self.optionSets {
      try directory.write("events.jsonl", text)
      let full = lines(replay(options + ["events.jsonl"], in: directory).standardOutput)
      for cut in 0...logLines.count {
        try directory.write("events.jsonl", logLines.prefix(cut).map { $0 + "\n" }.joined())
        let saving = replay(
          options + ["--save-state", "state.json", "events.jsonl"], in: directory)
        #expect(saving.status == 0, "\(saving.standardError)")
        try directory.write("events.jsonl", text)
        let resumed = replay(options + ["--resume", "state.json", "events.jsonl"], in: directory)
        #expect(resumed.status == 0, "\(options) after \(cut): \(resumed.standardError)")
        // The lines printed before the checkpoint, which a replay of an empty log or one with
        // `--final` saves before its last line.
        let printed = try count("lines", in: directory)
        #expect(printed >= 0 && printed <= lines(saving.standardOutput).count)
        #expect(
          Array(full.prefix(printed)) + lines(resumed.standardOutput) == full,
          "\(options) after line \(cut)")
      }
    }
  }

  @Test(arguments: ["--at", "--since", "--until"])
  func aRangeStartsFromACheckpointBeforeItAndAtOrUntilRefuseOneAfter(_ option: String) throws {
    let text = try String(
      contentsOfFile: Repository.path("fixtures/example/events.jsonl"), encoding: .utf8)
    let logLines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    let directory = try TemporaryDirectory()
    let positions =
      ["#3", "#12", "line:7", "line:20", "2026-11-22T09:30:01Z", "2026-11-22T09:30:03.5Z"]
    let select = ["--select", "nav.stack", "--with-event"]
    for cut in [0, 5, 12] {
      try directory.write("events.jsonl", logLines.prefix(cut).map { $0 + "\n" }.joined())
      let saving = replay(select + ["--save-state", "s.json", "events.jsonl"], in: directory)
      #expect(saving.status == 0)
      try directory.write("events.jsonl", text)
      for position in positions {
        let options = select + [option, position]
        let whole = try lines(replay(options + ["events.jsonl"], in: directory).standardOutput)
          .map { try JSONParser.parse(String($0)) }
        let resumed = replay(options + ["--resume", "s.json", "events.jsonl"], in: directory)
        let place = "\(option) \(position) after line \(cut)"
        if resumed.status == 0 {
          // The lines the whole replay prints after the checkpoint (`--at`: its one line).
          let expected = option == "--at" ? whole : whole.filter { Self.seq($0) > cut }
          let got = try lines(resumed.standardOutput).map { try JSONParser.parse(String($0)) }
          #expect(got == expected, "\(place)")
        } else {
          #expect(option != "--since", "\(place)")
          #expect(
            resumed.standardError.hasPrefix(
              "rasp: error: the checkpoint in 's.json' is past \(option) '\(position)': it was "
                + "saved after event \(cut) ('events.jsonl' line \(cut)); resume from an earlier "),
            "\(resumed.standardError)")
          #expect(resumed.standardOutput.isEmpty)
        }
        // By number or line, the example's events are its lines: refused exactly when the
        // checkpoint is past the position.
        if option != "--since", let number = Int(position.drop { !$0.isNumber }),
          !position.hasPrefix("2026")
        {
          #expect((resumed.status == 2) == (cut > number), "\(place)")
        }
      }
    }
  }

  static func seq(_ record: JSONValue) -> Int {
    guard case .number(let seq)? = record["seq"] else { return -1 }
    return Int(seq.integerValue ?? -1)
  }

  @Test func aLogEndingInALineFoundTooLongIsCheckpointedAfterThatLine() throws {
    // The reader finds the line too long before its end, which the replay then cannot tell:
    // the checkpoint finds it by counting line ends.
    let directory = try TemporaryDirectory()
    let first = #"{"type":"nav.push","payload":{"screen":"a"}}"# + "\n"
    let long = "[" + String(repeating: "1,", count: JSONLimits.maximumLineLength / 2) + "1]\n"
    let next = #"{"type":"nav.push","payload":{"screen":"b"}}"# + "\n"
    let options = ["--on-error", "skip", "--select", "nav.stack"]
    try directory.write("events.jsonl", first + long)
    let saving = replay(options + ["--save-state", "s.json", "events.jsonl"], in: directory)
    #expect(saving.standardOutput == "[\"a\"]\n")
    #expect(saving.standardError.contains("events.jsonl:2"), "\(saving.standardError)")
    let saved = try JSONParser.parse(try #require(directory.bytes("s.json")))
    guard case .array(let inputs)? = saved["inputs"], let input = inputs.first else {
      Issue.record("no inputs in \(saved)")
      return
    }
    #expect(input["offset"] == .number(JSONNumber(first.utf8.count + long.utf8.count)))
    #expect(input["line"] == .number(JSONNumber(2)))
    try directory.write("events.jsonl", first + long + next)
    let resumed = replay(options + ["--resume", "s.json", "events.jsonl"], in: directory)
    #expect(resumed.status == 0)
    #expect(resumed.standardOutput == "[\"a\",\"b\"]\n")
    // The long line is not read again: only the line after it.
    #expect(resumed.standardError.hasPrefix("rasp: 1 line read: 1 applied, 0 skipped"))
  }

  @Test func aCheckpointThatCannotBeWrittenIsAnErrorBeforeTheReplay() throws {
    // Found before a long replay, not after it: nothing is printed, and the folder is left
    // as it was (the temporary file made to try it is gone).
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", #"{"type":"geo.heading","payload":{"heading":1}}"# + "\n")
    let run = replay(["--save-state", "missing/s.json", "events.jsonl"], in: directory)
    #expect(run.status == 2)
    #expect(run.standardOutput.isEmpty)
    let writable = replay(["--save-state", "s.json", "--final", "events.jsonl"], in: directory)
    #expect(writable.status == 0)
    #expect(directory.names == ["events.jsonl", "s.json"])
    #expect(
      run.standardError == "rasp: error: cannot write 'missing/s.json': No such file or directory\n"
    )
  }

  @Test func aKeyedCheckpointIsTheSameBytesForEveryJobs() throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "events.jsonl",
      try String(
        contentsOfFile: Repository.path("fixtures/replay-key-by/events.jsonl"), encoding: .utf8))
    var saved: [[UInt8]] = []
    for jobs in ["1", "2", "3", "8"] {
      let run = replay(
        [
          "--key-by", "payload.deviceId", "--final", "-j", jobs, "--save-state", "s\(jobs).json",
          "events.jsonl",
        ], in: directory)
      #expect(run.status == 0)
      saved.append(try #require(directory.bytes("s\(jobs).json")))
    }
    #expect(Set(saved).count == 1)
  }

  @Test func theLinesOfErrorsAndEventsGoOnFromTheCheckpoint() throws {
    let directory = try TemporaryDirectory()
    let first = #"{"type":"nav.push","payload":{"screen":"a"}}"# + "\n"
    try directory.write("events.jsonl", first + first)
    let options = ["--with-event", "--select", "nav.stack"]
    #expect(
      replay(options + ["--save-state", "s.json", "events.jsonl"], in: directory).status == 0)
    try directory.write("events.jsonl", first + first + first + "{\"type\":\n")
    let resumed = replay(
      ["--resume", "s.json", "--with-event", "--select", "nav.stack", "events.jsonl"], in: directory
    )
    #expect(resumed.status == 2)
    #expect(
      resumed.standardOutput
        == #"{"event":{"payload":{"screen":"a"},"type":"nav.push"},"file":"events.jsonl","#
        + #""line":3,"seq":3,"value":["a","a","a"]}"#
        + "\n")
    #expect(resumed.standardError.hasPrefix("events.jsonl:4:9: error: "))
  }

  @Test func aLogChangedBeforeTheOffsetIsRefused() throws {
    let directory = try TemporaryDirectory()
    let push = #"{"type":"nav.push","payload":{"screen":"a"}}"# + "\n"
    try directory.write("events.jsonl", push + push)
    #expect(replay(["--save-state", "s.json", "events.jsonl"], in: directory).status == 0)
    try directory.write(
      "events.jsonl", push.replacingOccurrences(of: "\"a\"", with: "\"b\"") + push + push)
    let changed = replay(["--resume", "s.json", "events.jsonl"], in: directory)
    #expect(changed.status == 2)
    #expect(
      changed.standardError
        == "rasp: error: 'events.jsonl' changed before the checkpoint's offset (90 bytes) in "
        + "'s.json': its first bytes are not those the checkpoint read; replay it from the start\n")
    #expect(changed.standardOutput.isEmpty)
    try directory.write("events.jsonl", push)
    let shorter = replay(["--resume", "s.json", "events.jsonl"], in: directory)
    #expect(shorter.status == 2)
    #expect(
      shorter.standardError.contains("'events.jsonl' is shorter than the checkpoint's offset"))
    try FileManager.default.removeItem(atPath: directory.path + "/events.jsonl")
    let missing = replay(["--resume", "s.json", "events.jsonl"], in: directory)
    #expect(missing.status == 2)
    #expect(
      missing.standardError
        == "rasp: error: cannot open 'events.jsonl': No such file or directory\n")
    #expect(missing.standardOutput.isEmpty)
  }

  /// A log of `count` numbered `nav.push` lines, each 100 bytes with its line end.
  static func pushes(_ range: Range<Int>) -> String {
    range.map { number in
      let line = #"{"type":"nav.push","payload":{"screen":"s\#(number)"}}"#
      return line + String(repeating: " ", count: 99 - line.utf8.count) + "\n"
    }.joined()
  }

  @Test func aCheckpointHashesWhatTheReplayReadWhichIsAtLeastUpToItsOffset() throws {
    // 30,000 lines of 100 bytes: the checkpoint after line 10,000 is at byte 1,000,000, and
    // the replay had read ahead of it.
    let directory = try TemporaryDirectory()
    let text = Self.pushes(0..<30_000)
    try directory.write("events.jsonl", text)
    let saving = replay(
      [
        "--final", "--save-state", "s.json", "--checkpoint-every", "10000", "--until", "#10000",
        "events.jsonl",
      ], in: directory)
    #expect(saving.status == 0, "\(saving.standardError)")
    let saved = try JSONParser.parse(try #require(directory.bytes("s.json")))
    guard case .array(let inputs)? = saved["inputs"], let input = inputs.first,
      case .number(let offset)? = input["offset"], case .number(let hashed)? = input["hashed"],
      case .string(let hash)? = input["hash"], let read = hashed.integerValue
    else {
      Issue.record("no input in \(saved)")
      return
    }
    #expect(offset == JSONNumber(1_000_000))
    #expect(read >= 1_000_000 && read <= text.utf8.count)
    // Under 64 MiB, one segment, not whole: the hash of its bytes, then of their count.
    var bytes = LogHash()
    bytes.update(Array(text.utf8.prefix(Int(read))))
    var expected = LogHash()
    for word in [bytes.value, UInt64(read)] {
      withUnsafeBytes(of: word.littleEndian) { expected.update($0) }
    }
    #expect(hash == expected.hexadecimal)
    // The log is read in blocks of 256 KiB: the replay had read at least four.
    #expect(read >= 1 << 20)
    // A byte changed after the offset, in what the replay read ahead, is a change too.
    do {
      var changed = Array(text.utf8)
      changed[1_000_050] = UInt8(ascii: "x")
      try directory.write("events.jsonl", String(decoding: changed, as: UTF8.self))
      let resumed = replay(["--final", "--resume", "s.json", "events.jsonl"], in: directory)
      #expect(resumed.status == 2)
      #expect(
        resumed.standardError
          == "rasp: error: 'events.jsonl' changed in the first \(read) bytes, which the "
          + "checkpoint read (its offset is 1000000) in 's.json': its first bytes are not those "
          + "the checkpoint read; replay it from the start\n")
    }
  }

  @Test(arguments: [(0, 0), (0, 640), (130, 130), (130, 200), (640, 700), (700, 9_999)])
  func aResumeHashesTheSegmentsOnEveryCoreAsTheReplayHashedThemWhole(offset: Int, read: Int)
    throws
  {
    let directory = try TemporaryDirectory()
    let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
    try directory.write("log", String(decoding: bytes, as: UTF8.self))
    let written = try #require(directory.bytes("log"))
    func streamed(_ count: Int) -> SegmentedLogHash {
      var hash = SegmentedLogHash(segmentSize: 64)
      hash.update(Array(written.prefix(count)))
      return hash
    }
    var input = CheckpointInput(name: "log", path: directory.path + "/log", segmentSize: 64)
    let hashed = try input.resume(at: offset, line: 3, hashedUpTo: read)
    #expect(hashed == streamed(read))
    #expect(input.hash == streamed(offset))
    #expect(input.offset == offset && input.line == 3)
    var short = CheckpointInput(name: "log", path: directory.path + "/log", segmentSize: 64)
    #expect(try short.resume(at: offset, line: 3, hashedUpTo: written.count + 1) == nil)
  }

  @Test func aCheckpointSavedAfterAResumeIsTheOneAWholeReplaySaves() throws {
    // A nightly job: each night resumes from the last night's checkpoint and saves the next.
    // The resumed replay hashes the new bytes from where the check of the old ones left off.
    let directory = try TemporaryDirectory()
    let options = ["--final", "--save-state", "s.json"]
    try directory.write("events.jsonl", Self.pushes(0..<12_000))
    #expect(replay(options + ["events.jsonl"], in: directory).status == 0)
    try directory.write("events.jsonl", Self.pushes(0..<25_000))
    #expect(replay(options + ["--resume", "s.json", "events.jsonl"], in: directory).status == 0)
    try directory.write("events.jsonl", Self.pushes(0..<30_000))
    let last = replay(options + ["--resume", "s.json", "events.jsonl"], in: directory)
    #expect(last.status == 0)
    let nightly = try JSONParser.parse(try #require(directory.bytes("s.json")))
    #expect(replay(options + ["events.jsonl"], in: directory).status == 0)
    let whole = try JSONParser.parse(try #require(directory.bytes("s.json")))
    #expect(nightly["inputs"] == whole["inputs"])
    #expect(nightly["state"] == whole["state"])
    #expect(nightly["events"] == .number(JSONNumber(30_000)))
  }

  @Test func theLinesOfAResumedRunAddToThoseBeforeIt() throws {
    // Indented, each record is several lines: a checkpoint saved after a resume counts those
    // printed before the checkpoint resumed from too.
    let text = try String(
      contentsOfFile: Repository.path("fixtures/example/events.jsonl"), encoding: .utf8)
    let logLines = lines(text)
    let directory = try TemporaryDirectory()
    let options = ["--pretty", "--select", "nav", "--save-state", "s.json"]
    try directory.write("events.jsonl", text)
    let full = lines(replay(options + ["events.jsonl"], in: directory).standardOutput)
    var output: [Substring] = []
    for cut in [4, 9, logLines.count] {
      try directory.write("events.jsonl", logLines.prefix(cut).map { $0 + "\n" }.joined())
      let resume = output.isEmpty ? [] : ["--resume", "s.json"]
      let run = replay(options + resume + ["events.jsonl"], in: directory)
      #expect(run.status == 0, "\(run.standardError)")
      output += lines(run.standardOutput)
      let printed = try count("lines", in: directory, "s.json")
      #expect(printed == output.count, "after line \(cut)")
    }
    #expect(output == full)
    let compact = lines(replay(["--select", "nav", "events.jsonl"], in: directory).standardOutput)
    #expect(full.count > 3 * compact.count)
  }

  @Test func aVersion1CheckpointStillResumes() throws {
    // The same checkpoint in both versions; version 1 has no "hashed", its hash is of the
    // bytes before its offset.
    let log = "fixtures/example/events.jsonl"
    let options = ["--select", "nav.stack", "--with-event"]
    let current = CommandRun.run(
      ["replay"] + options + ["--resume", "fixtures/replay-checkpoint/state.json", log],
      in: Repository.root)
    let old = CommandRun.run(
      ["replay"] + options + ["--resume", "fixtures/replay-checkpoint/version-1.json", log],
      in: Repository.root)
    #expect(old.status == 0, "\(old.standardError)")
    #expect(!old.standardOutput.isEmpty)
    #expect(old.standardOutput == current.standardOutput)
  }

  @Test func aCheckpointSavedWithOtherOptionsIsRefusedNamingTheOption() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", #"{"type":"geo.heading","payload":{"heading":1}}"# + "\n")
    #expect(
      replay(["--save-state", "s.json", "--select", "geo.heading", "events.jsonl"], in: directory)
        .status == 0)
    let other = replay(
      ["--resume", "s.json", "--select", "nav.tab", "events.jsonl"], in: directory)
    #expect(other.status == 2)
    #expect(
      other.standardError
        == "rasp: error: cannot resume from 's.json': it was saved with '--select geo.heading', "
        + "not with '--select nav.tab'; resume with the options it was saved with\n")
    let domains = replay(
      ["--resume", "s.json", "--select", "geo.heading", "--domain", "geo", "events.jsonl"],
      in: directory)
    #expect(
      domains.standardError.contains(
        "it was saved with '--domain data,geo,lifecycle,motion,nav,rest', not with '--domain geo'"))
    try directory.write("other.jsonl", "")
    let logs = replay(
      ["--resume", "s.json", "--select", "geo.heading", "other.jsonl"], in: directory)
    #expect(
      logs.standardError
        == "rasp: error: cannot resume from 's.json': it is a checkpoint of 'events.jsonl', not "
        + "of 'other.jsonl'\n"
    )
  }

  @Test(arguments: [
    (
      "{",
      "c.json:1:2: error: not a checkpoint: unexpected end of input in an unterminated object, "
        + "expected a key or '}'\n"
    ),
    (
      "[]",
      "c.json: error: not a checkpoint of 'rasp replay --save-state': no "
        + "\"format\":\"rasp-checkpoint\"\n"
    ),
    (
      #"{"format":"rasp-checkpoint","version":7}"#,
      "c.json: error: at version: a checkpoint of version 7, which this rasp cannot read (it "
        + "reads versions 1 and 2): save it again with this rasp\n"
    ),
  ])
  func aBadCheckpointIsRefusedNamingWhereItIsWrong(text: String, message: String) throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", "")
    try directory.write("c.json", text)
    let run = replay(["--resume", "c.json", "events.jsonl"], in: directory)
    #expect(run.status == 2)
    #expect(run.standardError == message)
  }

  @Test func aStateOfTheWrongShapeIsRefusedWithItsPath() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", #"{"type":"nav.push","payload":{"screen":"a"}}"# + "\n")
    #expect(replay(["--save-state", "s.json", "events.jsonl"], in: directory).status == 0)
    let text = try #require(directory.bytes("s.json")).map { Character(UnicodeScalar($0)) }
    try directory.write(
      "s.json", String(text).replacingOccurrences(of: #""stack":["a"]"#, with: #""stack":[1]"#))
    let run = replay(["--resume", "s.json", "events.jsonl"], in: directory)
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "s.json: error: at state.stream.domains.nav.stack[0]: expected a string, found 1\n")
  }

  /// Saves `s.json`, the checkpoint of a log of one launch, with `saved` in its text replaced
  /// by `edited`, as a hand would edit it.
  private func saveLaunch(
    in directory: TemporaryDirectory, replacing saved: String, with edited: String
  ) throws {
    try directory.write("events.jsonl", #"{"type":"lifecycle.launch"}"# + "\n")
    #expect(replay(["--save-state", "s.json", "events.jsonl"], in: directory).status == 0)
    let text = String(decoding: try #require(directory.bytes("s.json")), as: UTF8.self)
    #expect(text.contains(saved))
    try directory.write("s.json", text.replacingOccurrences(of: saved, with: edited))
  }

  @Test(arguments: [
    (#""memoryWarnings":0"#, "state.stream.domains.lifecycle.memoryWarnings"),
    (#""launches":1"#, "state.stream.domains.lifecycle.launches"),
    (#""events":1,"#, "events"), (#""records":1,"#, "records"),
    (#""line":1,"name""#, "inputs[0].line"), (#""seq":1"#, "state.stream.last.seq"),
    (#""line":1,"seq""#, "state.stream.last.line"),
  ])
  func aCountTooLargeToCountOnIsRefused(saved: String, path: String) throws {
    // Counted on by the events after the checkpoint, 2^63 - 1 would overflow.
    let directory = try TemporaryDirectory()
    let huge = saved.replacingOccurrences(
      of: ":[01]", with: ":9223372036854775807", options: .regularExpression)
    try saveLaunch(in: directory, replacing: saved, with: huge)
    try directory.write(
      "events.jsonl",
      #"{"type":"lifecycle.launch"}"# + "\n" + #"{"type":"lifecycle.launch"}"#
        + "\n" + #"{"type":"lifecycle.memoryWarning"}"# + "\n")
    let run = replay(["--resume", "s.json", "events.jsonl"], in: directory)
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "s.json: error: at \(path): expected a count from 0 to 2^53, found 9223372036854775807\n"
    )
  }

  @Test(arguments: ["--save-state", "--resume"])
  func aPipeIsRefusedAsStandardInputIs(option: String) throws {
    // Checked before anything is opened: opening a FIFO would wait for a writer.
    let directory = try TemporaryDirectory()
    try #require(mkfifo(directory.file("pipe"), 0o600) == 0)
    try directory.write("events.jsonl", "")
    let run = replay([option, "s.json", "events.jsonl", "pipe"], in: directory)
    #expect(run.status == 64)
    #expect(
      run.standardError.hasPrefix(
        "rasp: error: option '\(option) <file>' needs files: 'pipe' is a pipe or a device, "
          + "which cannot be read again from a checkpoint's offset\n"))
  }

  @Test func theLastEventsInputMustBeOneOfTheReplays() throws {
    let directory = try TemporaryDirectory()
    try saveLaunch(in: directory, replacing: #""input":0"#, with: #""input":1"#)
    let run = replay(
      ["--resume", "s.json", "--final", "--with-event", "events.jsonl"], in: directory)
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "s.json: error: at state.stream.last.input: expected the position of one of the "
        + "replay's 1 inputs, found 1\n")
  }

  @Test(arguments: [
    (
      ["--checkpoint-every", "5", "a.jsonl"],
      "option '--checkpoint-every <n>' needs '--save-state <file>': where to save"
    ),
    (
      ["--save-state", "s.json", "--checkpoint-every", "x", "a.jsonl"],
      "invalid value 'x' for '--checkpoint-every <n>': expected a whole number of events from 1"
    ),
    (
      ["--resume", "s.json", "-"],
      "option '--resume <file>' needs files: standard input ('-') cannot be read again from a "
        + "checkpoint's offset"
    ),
    (
      ["--save-state", "s.json", "--follow", "a.jsonl"],
      "option '--save-state <file>' cannot be used with '--follow' yet"
    ),
    (
      ["--save-state", "s.json", "--emit", "diff", "a.jsonl"],
      "option '--save-state <file>' cannot be used with '--emit diff' yet"
    ),
  ])
  func usageErrors(arguments: [String], message: String) throws {
    let directory = try TemporaryDirectory()
    let run = replay(arguments, in: directory)
    #expect(run.status == 64)
    #expect(run.standardError.hasPrefix("rasp: error: \(message)\n"))
  }
}
