import Foundation
import RaspJSON
import RaspReplay
import RaspTestSupport
import Testing

@testable import RaspCLI

/// The progress line of `rasp replay` and `rasp check` on standard error.
@Suite struct ProgressDisplayTests {
  @Test func saysLinesRateSizeAndTimeLeft() {
    // 2,500,000 lines in 2 s: 1.25 M lines/s, rounded half up;
    // 60 MB of 240 MB at 30 MB/s: 6 s left.
    #expect(
      ProgressDisplay.line(
        bytes: 60_000_000, lines: 2_500_000, totalBytes: 240_000_000, elapsed: .seconds(2))
        == "rasp: 2,500,000 lines · 1.3 M lines/s · 60.0 MB of 240.0 MB (25%) · 6 s left")
    // A pipe: no total, no time left.
    #expect(
      ProgressDisplay.line(bytes: 1_500, lines: 12, totalBytes: nil, elapsed: .milliseconds(500))
        == "rasp: 12 lines · 24 lines/s · 1.5 kB read")
    // Everything read: no time left.
    #expect(
      ProgressDisplay.line(bytes: 100, lines: 3, totalBytes: 100, elapsed: .seconds(1))
        == "rasp: 3 lines · 3 lines/s · 100 B of 100 B (100%)")
    #expect(ProgressDisplay.grouped(0) == "0")
    #expect(ProgressDisplay.grouped(999) == "999")
    #expect(ProgressDisplay.grouped(1_000) == "1,000")
    #expect(ProgressDisplay.grouped(12_345_678) == "12,345,678")
    #expect(ProgressDisplay.rate(9_999) == "9999")
    #expect(ProgressDisplay.rate(12_345) == "12.3 k")
    #expect(ProgressDisplay.size(2_500_000_000) == "2.5 GB")
    #expect(ProgressDisplay.duration(0.2) == "1 s")
    #expect(ProgressDisplay.duration(125) == "2 min 5 s")
    #expect(ProgressDisplay.duration(3_725) == "1 h 2 min")
  }

  @Test func showsOnATerminalOutsideCIUnlessToldOtherwise() {
    typealias Choice = ReplayOptions.ProgressChoice
    func wanted(_ choice: Choice, terminal: Bool, ci: Bool) -> Bool {
      ProgressDisplay.isWanted(
        choice, standardErrorIsTerminal: terminal, isContinuousIntegration: ci)
    }
    #expect(wanted(.automatic, terminal: true, ci: false))
    #expect(!wanted(.automatic, terminal: false, ci: false))
    #expect(!wanted(.automatic, terminal: true, ci: true))
    #expect(wanted(.always, terminal: false, ci: true))
    #expect(!wanted(.never, terminal: true, ci: false))
  }

  @Test func erasesItsLineBeforeAMessageAndAtTheEnd() throws {
    let standardError = RaspMemoryOutput()
    let progress = ReplayProgress(totalBytes: nil)
    let display = ProgressDisplay(progress: progress, standardError: standardError)
    try display.write("first\n")
    display.redraw()
    try display.write("second\n")
    try display.write("third\n")
    display.redraw()
    display.stop()
    display.redraw()
    let text = String(decoding: standardError.bytes, as: UTF8.self)
    let line = "\r" + "rasp: 0 lines · 0 lines/s · 0 B read" + "\u{1B}[K"
    let erase = "\r\u{1B}[K"
    let sameRate = text.replacingOccurrences(
      of: #"\d+ lines/s"#, with: "0 lines/s", options: .regularExpression)
    #expect(sameRate == "first\n" + line + erase + "second\n" + "third\n" + line + erase)
  }

  @Test func optionsChooseAndRefuseBoth() throws {
    func choice(_ arguments: [String]) throws -> ReplayOptions.ProgressChoice {
      let parsed = try RaspArgumentParser.parse(arguments, spec: ReplayCommand.spec)
      let environment = RaspEnvironment(
        standardInput: .memory(JSONMemorySource([])), standardOutput: RaspMemoryOutput(),
        standardError: RaspMemoryOutput(), workingDirectory: Repository.root)
      return try ReplayOptions(
        parsed: parsed, domains: [], spec: ReplayCommand.spec, environment: environment
      ).progress
    }
    #expect(try choice([]) == .automatic)
    #expect(try choice(["--progress"]) == .always)
    #expect(try choice(["--no-progress"]) == .never)
    #expect(throws: RaspCommandError.self) { try choice(["--progress", "--no-progress"]) }
  }

  /// A log long enough for a debug build to take more than a few tenths of a second.
  private static func longLog() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rasp-progress-\(getpid()).jsonl")
    var text = ""
    for index in 0..<150_000 {
      text += #"{"type":"geo.heading","payload":{"heading":\#(index % 360)}}"# + "\n"
    }
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  @Test func theBinaryShowsItOnATerminalAndNotInAPipeOrUnderCI() throws {
    let log = try Self.longLog()
    defer { try? FileManager.default.removeItem(at: log) }
    let output = log.path + ".out"
    defer { try? FileManager.default.removeItem(atPath: output) }
    // `script` runs the command on a pseudo-terminal: standard error is a terminal there, and
    // what the command writes to it is what `script` prints.
    let onTerminal = try BuiltBinary.shell(
      "script -qec 'rasp replay --final \(log.path) > \(output)' /dev/null")
    let shown = onTerminal.text
    #expect(onTerminal.status == 0)
    #expect(shown.contains("lines/s"), "no progress line on a terminal: \(shown.debugDescription)")
    #expect(shown.hasSuffix("\r\u{1B}[K"), "the line was not erased: \(shown.debugDescription)")
    #expect(shown.contains("of 9.3 MB") || shown.contains(" MB ("), "no size: \(shown)")
    // The data is the same as without a terminal: the last heading, 149,999 % 360.
    let final = try String(contentsOfFile: output, encoding: .utf8)
    #expect(final.contains(#""heading":239,"#))
    let underCI = try BuiltBinary.shell(
      "script -qec 'CI=true rasp replay --final \(log.path) > /dev/null' /dev/null")
    #expect(!underCI.text.contains("lines/s"))
    let declined = try BuiltBinary.shell(
      "script -qec 'rasp replay --no-progress --final \(log.path) > /dev/null' /dev/null")
    #expect(!declined.text.contains("lines/s"))
    let piped = try BuiltBinary.shell("rasp replay --final \(log.path)")
    #expect(piped.standardError.isEmpty)
    #expect(piped.text == final)
    let forced = try BuiltBinary.shell("rasp replay --progress --final \(log.path) > /dev/null")
    #expect(forced.standardError.contains("lines/s"))
    #expect(forced.standardError.hasSuffix("\r\u{1B}[K"))
  }
}
