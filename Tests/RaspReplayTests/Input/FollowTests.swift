import Foundation
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// A file followed as it grows (`rasp replay --follow`): the replay reads what is appended,
/// goes on through rotation and truncation with a notice, holds a partial line, and ends only
/// when interrupted. The test writes to the file whenever the replay says it is waiting, so
/// that nothing depends on timing.
@Suite struct FollowTests {
  /// A new, empty directory for one test's files.
  private static func makeDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("rasp-follow-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  private static func line(_ heading: Int) -> String {
    #"{"type":"geo.heading","payload":{"heading":\#(heading)}}"# + "\n"
  }

  /// Follows `path`, calling `act(records)` at each waiting with the number of records seen so
  /// far; returns every outcome but waiting, described.
  private func follow(
    _ path: String, threading: ReplayConfiguration.Threading,
    act: (Int, ReplayInterruption) throws -> Void
  ) throws -> [String] {
    let interruption = ReplayInterruption()
    var configuration = ReplayConfiguration(domains: [GeoDomain()])
    configuration.selection = try JSONPath("geo.heading")
    configuration.interruption = interruption
    configuration.threading = threading
    let input = try ReplayInput.following(path, name: "app.log")
    #expect(input.isLive && input.isFollowed)
    var replay = Replay(configuration: configuration, inputs: [input])
    var output: [UInt8] = []
    var seen: [String] = []
    var records = 0
    while let outcome = replay.next(appendingTo: &output) {
      switch outcome {
      case .record(let record):
        records += 1
        seen.append("\(record.line ?? 0): " + String(decoding: output[record.range], as: UTF8.self))
      case .waiting: try act(records, interruption)
      case .ignored(let diagnostic): seen.append("ignored \(diagnostic)")
      case .checkpoint: break
      case .notice(let notice): seen.append("note: \(notice.message)")
      case .skipped(let diagnostic): seen.append("skipped \(diagnostic)")
      case .end(let summary):
        let counts = summary.statistics
        seen.append("end \(summary.ending): \(counts.read) read, \(counts.applied) applied")
      }
    }
    return seen
  }

  @Test(arguments: [ReplayConfiguration.Threading.single, .automatic])
  func readsWhatIsAppendedThroughRotationAndTruncationUntilInterrupted(
    threading: ReplayConfiguration.Threading
  ) throws {
    let directory = try Self.makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/app.log"
    try Self.line(1).write(toFile: path, atomically: false, encoding: .utf8)
    var done: Set<Int> = []
    let seen = try follow(path, threading: threading) { records, interruption in
      // Each step once, after the records written before it were all read.
      guard done.insert(records).inserted else { return }
      let handle = FileHandle(forWritingAtPath: path)
      switch records {
      case 1:
        // Appended, in two writes: the line is replayed only once it is whole.
        try handle?.seekToEnd()
        try handle?.write(contentsOf: Data(Self.line(2).prefix(20).utf8))
        try handle?.write(contentsOf: Data(Self.line(2).dropFirst(20).utf8))
      case 2:
        // Rotated: moved away, and a new file created in its place.
        try FileManager.default.moveItem(atPath: path, toPath: directory + "/app.log.1")
        try (Self.line(3) + Self.line(4)).write(toFile: path, atomically: false, encoding: .utf8)
      case 4:
        // Truncated in place, then written again, shorter than what was read.
        try handle?.truncate(atOffset: 0)
        try handle?.write(contentsOf: Data(Self.line(5).utf8))
      case 5:
        // A line and the start of another, read together; then Ctrl-C: the half line is
        // not replayed.
        try handle?.seekToEnd()
        try handle?.write(contentsOf: Data((Self.line(6) + Self.line(7).prefix(10)).utf8))
      case 6:
        interruption.request(signal: SIGINT)
      default:
        break
      }
      try handle?.close()
    }
    #expect(
      seen == [
        "1: 1", "2: 2",
        "note: 'app.log' was replaced; reading the new file from its start",
        "1: 3", "2: 4",
        "note: 'app.log' was truncated; reading it again from its start",
        "1: 5", "2: 6",
        "note: the last line of 'app.log' was unfinished when the replay stopped (10 bytes): "
          + "not replayed",
        "end interrupted(signal: 2): 6 read, 6 applied",
      ])
  }

  @Test func aLineCutOffByARotationIsNotReplayed() throws {
    // The writer was cut off in the middle of a line when the log was rotated: that line is
    // told of, not read as a whole one (it would be a bad line).
    let directory = try Self.makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/app.log"
    try (Self.line(1) + Self.line(2).prefix(15)).write(
      toFile: path, atomically: false, encoding: .utf8)
    let seen = try follow(path, threading: .single) { records, interruption in
      if records == 1, FileManager.default.fileExists(atPath: path + ".1") {
        interruption.request(signal: SIGTERM)
      } else if records == 1 {
        try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
        try Self.line(3).write(toFile: path, atomically: false, encoding: .utf8)
      } else {
        interruption.request(signal: SIGTERM)
      }
    }
    #expect(
      seen == [
        "1: 1",
        "note: the last line of 'app.log' before it was replaced was unfinished (15 bytes): "
          + "not replayed",
        "note: 'app.log' was replaced; reading the new file from its start",
        "1: 3",
        "end interrupted(signal: 15): 2 read, 2 applied",
      ])
  }

  @Test func aFileThatCannotBeOpenedIsAnError() throws {
    let directory = try Self.makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(throws: RaspInputError.self) {
      try ReplayInput.following(directory + "/missing.log", name: "missing.log")
    }
    #expect(throws: RaspInputError.self) {
      try ReplayInput.following(directory, name: "a directory")
    }
  }
}
