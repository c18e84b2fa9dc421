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
        == "rasp: 2500000 lines · 1.3 M lines/s · 60.0 MB of 240.0 MB (25%) · 6 s left")
    // A pipe: no total, no time left.
    #expect(
      ProgressDisplay.line(bytes: 1_500, lines: 12, totalBytes: nil, elapsed: .milliseconds(500))
        == "rasp: 12 lines · 24 lines/s · 1.5 kB read")
    // Everything read: no time left.
    #expect(
      ProgressDisplay.line(bytes: 100, lines: 3, totalBytes: 100, elapsed: .seconds(1))
        == "rasp: 3 lines · 3 lines/s · 100 B of 100 B (100%)")
    // One line, one a second.
    #expect(
      ProgressDisplay.line(bytes: 47, lines: 1, totalBytes: nil, elapsed: .seconds(1))
        == "rasp: 1 line · 1 line/s · 47 B read")
    #expect(
      ProgressDisplay.line(bytes: 0, lines: 0, totalBytes: nil, elapsed: .zero)
        == "rasp: 0 lines · 0 B read")
    #expect(ProgressDisplay.rate(9_999) == "9999")
    #expect(ProgressDisplay.rate(12_345) == "12.3 k")
    #expect(ProgressDisplay.size(2_500_000_000) == "2.5 GB")
    #expect(ProgressDisplay.duration(0.2) == "1 s")
    #expect(ProgressDisplay.duration(125) == "2 min 5 s")
    #expect(ProgressDisplay.duration(3_725) == "1 h 2 min")
  }

  @Test func countsArePlainDigitsAsInTheStatsSummary() {
    var statistics = ReplayStatistics()
    statistics.addSkippedInExport(1_000_000)
    #expect(statistics.summary.hasPrefix("rasp: 1000000 lines read"))
    #expect(
      ProgressDisplay.line(bytes: 0, lines: 1_000_000, totalBytes: nil, elapsed: .zero)
        .hasPrefix("rasp: 1000000 lines"))
  }

  @Test func showsOnlyWhereRaspAloneWritesToTheTerminal() {
    typealias Choice = ProgressDisplay.Choice
    let terminal = RaspOutputDestination.terminal(device: 7)
    func wanted(
      _ choice: Choice = .automatic, error: RaspOutputDestination = terminal,
      output: RaspOutputDestination = terminal, readsTerminal: Bool = false,
      variables: [String: String] = [:]
    ) -> Bool {
      ProgressDisplay.isWanted(
        choice, standardError: error, standardOutput: output, readsTerminal: readsTerminal,
        variables: variables)
    }
    // At a prompt, into a file, into /dev/null.
    #expect(wanted())
    #expect(wanted(output: .file))
    #expect(wanted(output: .terminal(device: 8)))
    // `2> errors.txt`, `| less` and `| head`, typed input, CI, a dumb terminal.
    #expect(!wanted(error: .file))
    #expect(!wanted(error: .pipe))
    #expect(!wanted(output: .pipe))
    #expect(!wanted(readsTerminal: true))
    #expect(!wanted(variables: ["CI": "true"]))
    #expect(wanted(variables: ["CI": "0"]))
    #expect(!wanted(variables: ["TERM": "dumb"]))
    // The options decide over all of it.
    #expect(wanted(.always, error: .pipe, output: .pipe, readsTerminal: true))
    #expect(!wanted(.never))
  }

  /// An environment whose standard output and error are `output` and `error`.
  private func environment(
    output: RaspMemoryOutput, error: RaspMemoryOutput
  ) -> RaspEnvironment {
    RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: output,
      standardError: error)
  }

  /// `text` with every rate as `0 lines/s`.
  private func sameRate(_ text: String) -> String {
    text.replacingOccurrences(
      of: #"\d+ lines?/s"#, with: "0 lines/s", options: .regularExpression)
  }

  @Test func erasesItsLineBeforeAMessageAndAtTheEnd() throws {
    let standardError = RaspMemoryOutput(isTerminal: true)
    let environment = environment(output: RaspMemoryOutput(), error: standardError)
    let display = ProgressDisplay(
      progress: ReplayProgress(totalBytes: nil), environment: environment)
    try environment.standardError.write("first\n")
    display.redraw()
    try environment.standardError.write("second\n")
    try environment.standardOutput.write("data on a file\n")
    try environment.standardError.write("third\n")
    display.redraw()
    display.stop()
    display.redraw()
    let line = "\r" + "rasp: 0 lines · 0 lines/s · 0 B read" + "\u{1B}[K"
    let erase = "\r\u{1B}[K"
    #expect(
      sameRate(standardError.text) == "first\n" + line + erase + "second\n" + "third\n" + line
        + erase)
  }

  @Test func erasesItsLineBeforeDataOnTheSameTerminal() throws {
    // One terminal for both streams: what a person sees, in the order it was written.
    let terminal = RaspMemoryOutput(isTerminal: true)
    let environment = environment(output: terminal, error: terminal)
    let display = ProgressDisplay(
      progress: ReplayProgress(totalBytes: nil), environment: environment)
    display.redraw()
    try environment.standardOutput.write("1\n")
    try environment.standardOutput.write("2\n")
    display.redraw()
    display.stop()
    let line = "\r" + "rasp: 0 lines · 0 lines/s · 0 B read" + "\u{1B}[K"
    let erase = "\r\u{1B}[K"
    #expect(sameRate(terminal.text) == line + erase + "1\n2\n" + line + erase)
  }

  @Test func isCutToTheTerminalsWidth() {
    let standardError = RaspMemoryOutput(isTerminal: true)
    standardError.terminalColumns = 20
    let display = ProgressDisplay(
      progress: ReplayProgress(totalBytes: nil),
      environment: environment(output: RaspMemoryOutput(), error: standardError))
    display.redraw()
    display.stop()
    #expect(standardError.text == "\r" + "rasp: 0 lines · 0 l" + "\u{1B}[K" + "\r\u{1B}[K")
  }

  @Test func optionsChooseAndRefuseBoth() throws {
    func choice(_ arguments: [String]) throws -> ProgressDisplay.Choice {
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

  @Test func underCIOrWithNoProgressNothingIsDrawn() async throws {
    for line in [
      "CI=true rasp replay --select geo.heading -",
      "rasp replay --no-progress --select geo.heading -",
    ] {
      try await onThreadOfItsOwn { checks in
        let terminal = try PseudoTerminal()
        let command = try TerminalCommand(shell: line, on: terminal, input: .pipe)
        try command.write(#"{"type":"geo.heading","payload":{"heading":4}}"# + "\n")
        try terminal.read(until: { $0.lines.contains("4") })
        terminal.readQuietly(for: .seconds(1))
        command.closeInput()
        try terminal.readToEnd()
        checks.expect(command.wait(), equals: 0)
        checks.expect(terminal.text, equals: "4\r\n")
      }
    }
  }

  @Test func standardOutputToAFileKeepsTheLineOnTheTerminal() async throws {
    try await onThreadOfItsOwn { checks in
      let directory = try TemporaryDirectory()
      let terminal = try PseudoTerminal()
      let command = try TerminalCommand(
        ["replay", "--final", "--select", "geo.heading", "-"], on: terminal, input: .pipe,
        output: .file(directory.file("out.jsonl")))
      try command.write(#"{"type":"geo.heading","payload":{"heading":239}}"# + "\n")
      try terminal.read(until: { $0.lines.last?.hasPrefix("rasp: 1 line · ") == true })
      command.closeInput()
      try terminal.readToEnd()
      checks.expect(command.wait(), equals: 0)
      checks.expect(
        terminal.text.hasSuffix("\r\u{1B}[K"), "not erased: \(terminal.text.debugDescription)")
      checks.expect(terminal.screen.lines.isEmpty)
      checks.expect(directory.bytes("out.jsonl"), equals: Array("239\n".utf8))
    }
  }

  @Test func progressForcesTheLineOntoAnyStandardError() async throws {
    try await onThreadOfItsOwn { checks in
      let directory = try TemporaryDirectory()
      let terminal = try PseudoTerminal()
      let errors = directory.file("stderr")
      let watch = try DirectoryWatch(directory.path)
      let command = try TerminalCommand(
        ["replay", "--progress", "--final", "-"], on: terminal, input: .pipe, output: .null,
        error: .file(errors))
      try command.write(#"{"type":"geo.heading","payload":{"heading":1}}"# + "\n")
      // Looks at the file whenever it changes, for what it waits to see; nothing is timed.
      let drawn = watch.wait {
        String(decoding: directory.bytes("stderr") ?? [], as: UTF8.self).contains("rasp: 1 line · ")
      }
      checks.expect(drawn, "the progress line was never drawn")
      command.closeInput()
      checks.expect(command.wait(), equals: 0)
      let text = String(decoding: directory.bytes("stderr") ?? [], as: UTF8.self)
      checks.expect(text.hasPrefix("\rrasp: 1 line · "))
      checks.expect(text.hasSuffix("\r\u{1B}[K"))
    }
    // A piped replay without it says nothing on standard error.
    let piped = try await BuiltBinary.shell("rasp replay --final fixtures/example/events.jsonl")
    #expect(piped.status == 0)
    #expect(piped.standardError.isEmpty)
  }
}
