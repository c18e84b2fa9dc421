import Foundation
import RaspTestSupport
import Testing

/// `--log-format gpsd` and `--log-format owntracks` on real files of gpsd's and the OwnTracks
/// Recorder's repositories (`fixtures/format-gpsd`, `fixtures/format-owntracks`), checked
/// against a reading of the same files written here, with Foundation's JSON parser: the final
/// `geo` state is the last fix and the last valid course of the file, and the summary counts
/// every line once and every report's two events.
@Suite struct SensorPresetTests {
  /// What the reference reading found in a file.
  struct Expected {
    var latitude: Double?
    var longitude: Double?
    var accuracy: Double?
    var heading: Double?
    /// Events applied: one per fix, one per course.
    var applied = 0
    /// Lines whose events are read: two events each.
    var reports = 0
    var lines = 0
  }

  /// gpsd: a TPV report is a fix when it has `lat` and `lon` (its `eph` the accuracy, or none),
  /// a course when it has `track`; every other line (SKY, NMEA sentences) is none.
  static func gpsdReference(_ text: String) throws -> Expected {
    var expected = Expected()
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).dropLast()
    {
      expected.lines += 1
      guard line.hasPrefix("{") else { continue }
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      guard object["class"] as? String == "TPV" else { continue }
      expected.reports += 1
      if let latitude = object["lat"] as? Double, let longitude = object["lon"] as? Double {
        expected.latitude = latitude
        expected.longitude = longitude
        expected.accuracy = object["eph"] as? Double
        expected.applied += 1
      }
      if let track = object["track"] as? Double {
        expected.heading = track
        expected.applied += 1
      }
    }
    return expected
  }

  /// OwnTracks: the JSON after a `.rec` line's time and tabs; a `location` is a fix (its
  /// `acc` the accuracy) and, when its `cog` is not -1, a course.
  static func ownTracksReference(_ text: String) throws -> Expected {
    var expected = Expected()
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).dropLast()
    {
      expected.lines += 1
      let json = try #require(line.firstIndex(of: "{").map { line[$0...] })
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
      guard object["_type"] as? String == "location" else { continue }
      expected.reports += 1
      expected.latitude = try #require(object["lat"] as? Double)
      expected.longitude = try #require(object["lon"] as? Double)
      expected.accuracy = object["acc"] as? Double
      expected.applied += 1
      if let course = object["cog"] as? Double, course != -1 {
        expected.heading = course
        expected.applied += 1
      }
    }
    return expected
  }

  static func replay(_ arguments: [String]) async throws -> (String, String, Int32) {
    let result = try await TestProcess.run(
      BuiltBinary.path, arguments, environment: BuiltBinary.environment)
    return (
      String(decoding: result.standardOutput, as: UTF8.self), result.standardError, result.status
    )
  }

  /// Checks the final state and the summary of `--log-format format` on `file`.
  static func check(_ format: String, _ file: String, _ expected: Expected) async throws {
    #expect(expected.reports > 0 && expected.applied > 0, "\(file)")
    let (output, errors, status) = try await replay(
      ["replay", "--log-format", format, "--final", "--select", "geo", "--stats", file])
    #expect(status == 0, "\(errors)")
    let state = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    let location = try #require(state["location"] as? [String: Any])
    #expect(location["latitude"] as? Double == expected.latitude, "\(file)")
    #expect(location["longitude"] as? Double == expected.longitude, "\(file)")
    #expect(state["accuracy"] as? Double == expected.accuracy, "\(file)")
    #expect(state["heading"] as? Double == expected.heading, "\(file)")
    let ignored = 2 * expected.reports - expected.applied + expected.lines - expected.reports
    let lines = expected.lines == 1 ? "1 line" : "\(expected.lines) lines"
    #expect(
      errors
        == "rasp: \(lines) read, \(expected.reports) of them batches of "
        + "\(2 * expected.reports) events: \(expected.applied) applied, 0 skipped, "
        + "\(ignored) ignored (\(ignored) dropped by the log format), 0 blank\n")
  }

  @Test(arguments: ["april6_2019.log.chk", "eXplorist210.log.chk"])
  func gpsdEndsAtTheLastFixAndTheLastCourse(_ name: String) async throws {
    let file = Repository.path("fixtures/format-gpsd/\(name)")
    let expected = try Self.gpsdReference(String(contentsOfFile: file, encoding: .utf8))
    try await Self.check("gpsd", file, expected)
  }

  @Test func ownTracksEndsAtTheLastLocationAndTheLastCourseThatIsNotMinusOne() async throws {
    let file = Repository.path("fixtures/format-owntracks/demo-iphone.rec")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let expected = try Self.ownTracksReference(text)
    #expect(expected.reports == 23)
    try await Self.check("owntracks", file, expected)
  }

  /// The messages of a `.rec` file without the Recorder's time and tabs, as the app publishes
  /// them: the same snapshots.
  @Test func ownTracksReadsPlainJSONAsTheRecorderLines() async throws {
    let file = Repository.path("fixtures/format-owntracks/demo-iphone.rec")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let plain = text.split(separator: "\n").map { line in
      line.firstIndex(of: "{").map { String(line[$0...]) } ?? String(line)
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("rasp-owntracks-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let plainFile = directory.appendingPathComponent("plain.jsonl").path
    try (plain.joined(separator: "\n") + "\n").write(
      toFile: plainFile, atomically: true, encoding: .utf8)
    let (fromRec, _, recStatus) = try await Self.replay(
      ["replay", "--log-format", "owntracks", "--select", "geo", file])
    let (fromPlain, _, plainStatus) = try await Self.replay(
      ["replay", "--log-format", "owntracks", "--select", "geo", plainFile])
    #expect(recStatus == 0 && plainStatus == 0)
    #expect(!fromRec.isEmpty)
    #expect(fromRec == fromPlain)
  }

  /// Each of a line's events has its own number (`seq`), in the order of the map's `emit`,
  /// and the line's number; a keyed replay writes the same bytes on any number of threads.
  @Test func eachEventOfALineHasItsOwnNumberAndTheSameLine() async throws {
    let file = Repository.path("fixtures/format-gpsd/april6_2019.log.chk")
    let (output, errors, status) = try await Self.replay(
      ["replay", "--log-format", "gpsd", "--with-event", "--select", "geo.heading", file])
    #expect(status == 0, "\(errors)")
    let records = try output.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    // Line 3: a fix and a course (seq 1 and 2); line 5: the same (seq 3 and 4). The select
    // prints a record when the course changes: at seq 2, from null to 212.28.
    let places = records.map { [$0["line"] as? Int, $0["seq"] as? Int] }
    #expect(places == [[3, 1], [3, 2]])
    var outputs: [String] = []
    for jobs in ["1", "2", "3"] {
      let (keyed, keyedErrors, keyedStatus) = try await Self.replay(
        [
          "replay", "--log-format", "owntracks", "--key-by", "source", "--jobs", jobs,
          "--with-event", Repository.path("fixtures/format-owntracks/demo-iphone.rec"),
        ])
      #expect(keyedStatus == 0, "\(keyedErrors)")
      outputs.append(keyed)
    }
    #expect(outputs[0].split(separator: "\n").count == 30)
    #expect(Set(outputs).count == 1)
  }
  /// A replay saved at a line, or between the two events of a line, and resumed prints what
  /// the whole replay prints: the resumed replay numbers the map's types in the table its
  /// kernel names them with (before, every event after the checkpoint was of the unknown
  /// type '').
  @Test(arguments: ["line:40", "#7", "#8"])
  func aReplayOfSeveralEventsALineResumesWhereItStopped(_ until: String) async throws {
    let file = Repository.path("fixtures/format-gpsd/eXplorist210.log.chk")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("rasp-gpsd-resume-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("state.json").path
    let options = ["replay", "--log-format", "gpsd", "--with-event", "--select", "geo"]
    let (whole, _, wholeStatus) = try await Self.replay(options + [file])
    let (first, firstErrors, firstStatus) = try await Self.replay(
      options + ["--save-state", state, "--until", until, file])
    let (rest, restErrors, restStatus) = try await Self.replay(
      options + ["--resume", state, file])
    #expect(wholeStatus == 0 && firstStatus == 0 && restStatus == 0)
    #expect(firstErrors.isEmpty && restErrors.isEmpty, "\(firstErrors)\(restErrors)")
    #expect(!first.isEmpty && !rest.isEmpty)
    #expect(first + rest == whole)
  }
}
