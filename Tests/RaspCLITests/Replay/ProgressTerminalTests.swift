import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The built `rasp` at a real terminal (a pseudo-terminal, as `script` and `ssh` give it), read
/// the way a person reads it: the progress line never garbles output, is gone when rasp ends,
/// stays off a pager and `head`, and does not show while rasp waits for typed input.
///
/// Each test waits for what it is to see, however long the machine takes; the few that check
/// that something does *not* appear wait a second first (the line would be drawn half a second
/// after the start), so a slow machine can only hide a mistake, never fail a good build.
@Suite(.serialized) struct ProgressTerminalTests {
  static func event(_ heading: Int) -> String {
    #"{"type":"geo.heading","payload":{"heading":\#(heading)}}"# + "\n"
  }

  /// Whether a row of the screen is the progress line.
  static func isProgress(_ row: String) -> Bool {
    row.hasPrefix("rasp: ") && row.contains(" · ")
  }

  /// Whether the screen's last row is the progress line, below `data`: rows that are exactly
  /// `data`, then the line.
  static func showsProgress(below data: [String]) -> (TerminalScreen) -> Bool {
    { screen in
      let lines = screen.lines
      return lines.count > data.count && lines.last.map(isProgress) == true
    }
  }

  @Test func aFollowedFileKeepsTheLineBelowItsOutputAndErasesItAtTheEnd() async throws {
    try await onThreadOfItsOwn { checks in
      let directory = try TemporaryDirectory()
      try directory.write("f.log", Self.event(1))
      let terminal = try PseudoTerminal()
      let command = try TerminalCommand(
        ["replay", "--follow", "--select", "geo.heading", directory.file("f.log")],
        on: terminal, input: .null)
      try terminal.read(until: Self.showsProgress(below: ["1"]))
      checks.expect(terminal.screen.lines.first, equals: "1")
      guard let file = FileHandle(forWritingAtPath: directory.file("f.log")) else {
        throw PseudoTerminal.Failure(description: "cannot open f.log")
      }
      file.seekToEndOfFile()
      file.write(Data(Self.event(2).utf8))
      try file.close()
      // The new line, then the progress line drawn again below it.
      try terminal.read(until: { $0.lines.dropLast().contains { $0.hasSuffix("2") } })
      try terminal.read(until: Self.showsProgress(below: ["1", "2"]))
      let lines = terminal.screen.lines
      checks.expect(Array(lines.dropLast()), equals: ["1", "2"])
      command.signal(SIGINT)
      try terminal.readToEnd()
      checks.expect(command.wait(), equals: 130)
      checks.expect(terminal.screen.lines, equals: ["1", "2"])
    }
  }

  @Test func aPipeLikeTailFKeepsTheLineBelowItsOutput() async throws {
    try await onThreadOfItsOwn { checks in
      let terminal = try PseudoTerminal()
      let command = try TerminalCommand(
        ["replay", "--select", "geo.heading", "-"], on: terminal, input: .pipe)
      try command.write(Self.event(1))
      try terminal.read(until: Self.showsProgress(below: ["1"]))
      try command.write(Self.event(2))
      try terminal.read(until: { $0.lines.dropLast().contains { $0.hasSuffix("2") } })
      try terminal.read(until: Self.showsProgress(below: ["1", "2"]))
      checks.expect(Array(terminal.screen.lines.dropLast()), equals: ["1", "2"])
      checks.expect(terminal.screen.lines.last?.hasPrefix("rasp: 2 lines · ") == true)
      command.closeInput()
      try terminal.readToEnd()
      checks.expect(command.wait(), equals: 0)
      checks.expect(terminal.screen.lines, equals: ["1", "2"])
    }
  }

  @Test func theFinalAnswerStandsAloneOnItsLine() async throws {
    try await onThreadOfItsOwn { checks in
      let terminal = try PseudoTerminal()
      let command = try TerminalCommand(
        ["replay", "--final", "--select", "geo.heading", "-"], on: terminal, input: .pipe)
      try command.write(Self.event(1) + Self.event(2) + Self.event(64))
      try terminal.read(until: Self.showsProgress(below: []))
      checks.expect(terminal.screen.lines.last?.hasPrefix("rasp: 3 lines · ") == true)
      command.closeInput()
      try terminal.readToEnd()
      checks.expect(command.wait(), equals: 0)
      checks.expect(terminal.screen.lines, equals: ["64"])
    }
  }

  @Test func aMessageOnStandardErrorAlsoTakesTheLinesPlace() async throws {
    try await onThreadOfItsOwn { checks in
      let terminal = try PseudoTerminal()
      let command = try TerminalCommand(
        ["replay", "--on-error", "skip", "--select", "geo.heading", "-"], on: terminal,
        input: .pipe)
      try command.write(Self.event(1))
      try terminal.read(until: Self.showsProgress(below: ["1"]))
      try command.write("{\"type\":\n" + Self.event(3))
      try terminal.read(until: Self.showsProgress(below: ["1", "error", "3"]))
      command.closeInput()
      try terminal.readToEnd()
      checks.expect(command.wait(), equals: 2)
      let lines = terminal.screen.lines
      checks.expect(lines.count, equals: 4)
      checks.expect(lines.first, equals: "1")
      let message = lines.dropFirst().first ?? ""
      checks.expect(message.hasPrefix("<stdin>:2:") && message.contains(": error: "), "\(lines)")
      checks.expect(lines.dropFirst(2).first, equals: "3")
      checks.expect(lines.last?.hasPrefix("rasp: 3 lines read: ") == true, "\(lines)")
    }
  }

  @Test func typedInputShowsNoProgressLine() async throws {
    try await onThreadOfItsOwn { checks in
      let terminal = try PseudoTerminal()
      let command = try TerminalCommand(
        ["replay", "--select", "geo.heading"], on: terminal, input: .terminal)
      terminal.readQuietly(for: .seconds(1))
      let typed = Self.event(5)
      try terminal.type(typed)
      try terminal.read(until: { $0.lines.last?.hasSuffix("5") == true })
      terminal.readQuietly(for: .seconds(1))
      checks.expect(terminal.screen.lines, equals: [String(typed.dropLast()), "5"])
      try terminal.type("\u{4}")  // Ctrl-D: the end of the input
      try terminal.readToEnd()
      checks.expect(command.wait(), equals: 0)
      checks.expect(terminal.screen.lines, equals: [String(typed.dropLast()), "5"])
    }
  }

  @Test func aPipeToHeadLeavesOnlyWhatHeadPrinted() async throws {
    try await onThreadOfItsOwn { checks in
      let terminal = try PseudoTerminal()
      let command = try TerminalCommand(
        shell: "rasp replay --select geo.heading - | head -1", on: terminal, input: .pipe)
      terminal.readQuietly(for: .seconds(1))
      try command.write(Self.event(1))
      try terminal.read(until: { $0.lines.last?.hasSuffix("1") == true })
      terminal.readQuietly(for: .seconds(1))
      // rasp finds the pipe closed at its next line.
      try command.write(Self.event(2) + Self.event(3))
      command.closeInput()
      try terminal.readToEnd()
      checks.expect(command.wait(), equals: 0)
      checks.expect(terminal.screen.lines, equals: ["1"])
    }
  }

  @Test func aPagerIsNeverDrawnOver() async throws {
    try await onThreadOfItsOwn { checks in
      let terminal = try PseudoTerminal(columns: 80, rows: 24)
      let command = try TerminalCommand(
        shell: "rasp replay --select geo.heading - | less", on: terminal, input: .pipe)
      terminal.readQuietly(for: .seconds(1))
      try command.write(Self.event(11) + Self.event(12) + Self.event(13))
      try terminal.read(until: { $0.lines.contains("13") })
      terminal.readQuietly(for: .seconds(1))
      try terminal.type("q")
      command.closeInput()
      try terminal.readToEnd()
      checks.expect(command.wait(), equals: 0)
      checks.expect(!terminal.text.contains("rasp:"), "\(terminal.text.debugDescription)")
    }
  }

  @Test func aForcedLineStillKeepsClearOfTheOutput() async throws {
    // --progress draws it whatever the streams are; on the terminal it still keeps clear.
    try await onThreadOfItsOwn { checks in
      let terminal = try PseudoTerminal()
      let command = try TerminalCommand(
        ["replay", "--progress", "--select", "geo.heading", "-"], on: terminal, input: .pipe)
      try command.write(Self.event(7))
      try terminal.read(until: Self.showsProgress(below: ["7"]))
      command.closeInput()
      try terminal.readToEnd()
      checks.expect(command.wait(), equals: 0)
      checks.expect(terminal.screen.lines, equals: ["7"])
    }
  }
}
