import RaspJSON
import RaspReplay
import Testing

@testable import RaspCLI

@Suite struct ShrinkProgressTests {
  @Test func theLineShowsTheSmallestFailingLogSoFarAndTheReplays() {
    let progress = ShrinkProgress(events: 100_000, keys: nil)
    #expect(
      progress.line(elapsed: .zero) == "rasp: shrinking: events 100000→100000 · 1 replay · 0 s")
    progress.noteKeys(1_000)
    progress.noteReplay()
    progress.noteFailing(events: 50_000, keys: 500)
    progress.noteReplay()
    progress.noteFailing(events: 412)
    #expect(
      progress.line(elapsed: .seconds(75))
        == "rasp: shrinking: keys 1000→500 · events 100000→412 · 3 replays · 1 min 15 s")
  }

  @Test func aDisplayDrawsTheSearchsLineOnATerminal() throws {
    let terminal = RaspMemoryOutput(isTerminal: true)
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: RaspMemoryOutput(),
      standardError: terminal)
    let progress = ShrinkProgress(events: 12, keys: nil)
    let display = ProgressDisplay(
      progress: ReplayProgress(totalBytes: nil), environment: environment,
      describe: { progress.line(elapsed: $0) })
    display.redraw()
    #expect(terminal.text.contains("rasp: shrinking: events 12→12 · 1 replay · 0 s"))
    display.stop()
  }
}
