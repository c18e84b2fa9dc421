import Foundation
import RaspTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-C during `rasp shrink`, with the built binary: sent at a point the test sees — while
/// the fourth try's `--cmd` has said so and waits on a FIFO the test holds — never after a
/// time.
@Suite struct InterruptedShrinkTests {
  @Test func ctrlCWritesTheSmallestFailingLogSoFarAndSaysItIsNotMinimal() async throws {
    let log = PlantedCulpritLog(events: 400, keys: 4, seed: 21)
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log.text)
    #expect(mkfifo(directory.file("go"), 0o600) == 0)
    let dir = directory.path
    // Each try counts itself; the fourth says so on 'ready' and waits for a line on 'go'.
    let script = """
      n=$(cat '\(dir)/count' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '\(dir)/count'
      if [ $n -eq 4 ]; then echo ready > '\(dir)/ready'; read line < '\(dir)/go'; fi
      test "$(grep -c '"n":' "$1")" -eq 3
      """
    let watch = try DirectoryWatch(dir)
    try await onThreadOfItsOwn { checks in
      let command = try SpawnedCommand(
        [
          "shrink", directory.file("events.jsonl"), "--cmd", script, "-o",
          directory.file("min.jsonl"),
        ],
        outputDirectory: dir)
      command.closeInput()
      // The fourth try has begun, and waits for a line on 'go'.
      guard watch.wait(until: { directory.bytes("ready") == Array("ready\n".utf8) }) else {
        checks.expect(false, "the fourth try began")
        return
      }
      command.signal(SIGINT)
      let go = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file("go")))
      try go.write(contentsOf: Data("go\n".utf8))
      try go.close()
      checks.expect(command.wait(), equals: .signaled(SIGINT))
    }
    let errors = String(decoding: directory.bytes("stderr") ?? [], as: UTF8.self)
    #expect(errors.hasSuffix("rasp: note: the result is not minimal: the search was interrupted\n"))
    #expect(errors.contains(" · 4 replays"), "\(errors)")
    // The best so far, written: the tries before were of the empty log and a half, which
    // did not fail, so it still holds every planted line.
    let shrunk = String(decoding: directory.bytes("min.jsonl") ?? [], as: UTF8.self)
    for line in log.culpritLines.split(separator: "\n") {
      #expect(shrunk.contains(line))
    }
  }
}
