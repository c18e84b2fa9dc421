import Foundation
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `rasp redact --log-format gpsd` of gpsd's own test files: NMEA sentences' fields and the
/// TPV reports, checked against `fixtures/redact-gpsd/expected.py`, a checker in Python that
/// shares no code with rasp (it rounds with fractions, and verifies every checksum).
@Suite struct RedactGpsdTests {
  static let log = "fixtures/format-gpsd/eXplorist210.log.chk"
  static let policy = "fixtures/redact-gpsd/pii.json"
  static let checker = "fixtures/redact-gpsd/expected.py"

  private func redact(_ log: String, policy: String, into output: String) -> CommandRun {
    CommandRun.run(
      ["redact", log, "--log-format", "gpsd", "--policy", policy, "-o", output],
      in: Repository.root)
  }

  @Test func sentencesAndReportsAreRoundedAsThePythonCheckerRoundsThem() async throws {
    let directory = try TemporaryDirectory()
    let output = directory.file("share.chk")
    let run = redact(Self.log, policy: Self.policy, into: output)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardError
        == "rasp: warning: \(Self.log):1: 32 lines are neither JSON nor a sentence a rule "
        + "names, copied as they are: no rule could read them\n"
        + "rasp: redacted '\(Self.log)' into '\(output)': 28 of 80 lines changed, 56 values\n")
    let expected = try await BuiltBinary.output(
      "python3 \(Self.checker) \(Self.policy) \(Self.log)")
    #expect(String(decoding: directory.bytes("share.chk") ?? [], as: UTF8.self) == expected)
    // Every checksum is right, and each sentence's position is the next report's.
    await #expect(
      try BuiltBinary.output("python3 \(Self.checker) --check \(output)")
        == "44 sentences, every checksum right\n")
    // rasp replays the redacted log into the original's positions, rounded (by jq); a
    // position that rounds as the one before is no change, and so no snapshot.
    let round =
      "jq -c '.latitude |= ((. * 1000 | round) / 1000) "
      + "| .longitude |= ((. * 1000 | round) / 1000)'"
    let replay = "rasp replay --log-format gpsd --select geo.location"
    await #expect(
      try BuiltBinary.output("\(replay) \(output)")
        == (try BuiltBinary.output("\(replay) \(Self.log) | \(round) | uniq")))
    await #expect(
      try BuiltBinary.output("python3 \(Self.checker) --positions \(output)")
        == "12 positions, each the next report's\n")
  }

  /// `--verify` replays both logs as gpsd logs: the reports' rounded positions are within
  /// their rounding, and the sentences hold no string to leak.
  @Test func theRoundedLogVerifies() throws {
    let directory = try TemporaryDirectory()
    let output = directory.file("share.chk")
    let run = CommandRun.run(
      [
        "redact", Self.log, "--log-format", "gpsd", "--policy", Self.policy, "-o", output,
        "--verify",
      ], in: Repository.root)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardError.hasSuffix(
        "rasp: verified '\(output)': it replays as '\(Self.log)' "
          + "redacted, and no original value of a redacted path is left in it\n"))
  }

  @Test func replaceSetsTheHemisphereAndDropEmptiesItToo() async throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "pii.json",
      #"{"rules":[{"path":"RMC.lat","action":"replace","value":-33.8568},"#
        + #"{"path":"RMC.lon","action":"drop"},{"path":"GGA.lat","action":"drop"}]}"#)
    let log = "fixtures/format-gpsd/april6_2019.log.chk"
    let output = directory.file("share.chk")
    let run = redact(log, policy: directory.file("pii.json"), into: output)
    #expect(run.status == 0, "\(run.standardError)")
    let written = String(decoding: directory.bytes("share.chk") ?? [], as: UTF8.self)
    let expected = try await BuiltBinary.output(
      "python3 \(Self.checker) \(directory.file("pii.json")) \(log)")
    #expect(written == expected)
    // The sentence without a fix keeps its empty fields.
    #expect(written.contains("$GPRMC,,V,,,,,,,,,,N*53\n"))
    #expect(written.contains("$GPRMC,000231.42,A,3351.4080,S,,,0.16,212.28,220899,,,A*"))
    await #expect(
      try BuiltBinary.output("python3 \(Self.checker) --check \(output)")
        == "3 sentences, every checksum right\n")
  }

  @Test func aPolicyNamingAnUnknownSentenceOrFieldOrAnActionThatCannotApplySaysWhere() throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "pii.json",
      """
      {"rules": [
        {"path": "GAG.lat", "action": "drop"},
        {"path": "GGA.latt", "action": "drop"},
        {"path": "RMC.lon", "action": "hash"},
        {"path": "GLL.lat", "action": "replace", "value": "here"},
        {"path": "GGA.time", "action": "round", "decimals": 0}
      ]}
      """)
    let run = CommandRun.run(
      [
        "redact", Repository.path(Self.log), "--log-format", "gpsd", "--policy", "pii.json",
        "-o", "share.chk",
      ], in: directory.path)
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "pii.json:2:12: error: at rules[0].path: unknown NMEA sentence 'GAG'. Did you mean "
        + "'GGA'?\n"
        + "pii.json:3:12: error: at rules[1].path: unknown field 'latt' of GGA. Did you mean "
        + "'GGA.lat'?\n"
        + "pii.json:4:33: error: at rules[2].action: 'hash' does not apply to RMC.lon: RMC.lon "
        + "takes 'round', 'replace', 'drop'\n"
        + "pii.json:5:53: error: at rules[3].value: 'replace' of GLL.lat takes a number, "
        + "found a string\n"
        + "pii.json:6:34: error: at rules[4].action: 'round' does not apply to GGA.time: "
        + "GGA.time takes 'shift', 'drop'\n")
    #expect(directory.bytes("share.chk") == nil)
  }

  @Test func aSentenceWhoseChecksumIsWrongIsABadLine() throws {
    let directory = try TemporaryDirectory()
    try directory.write("log.chk", "$GPGLL,5313.2228,N,00634.4228,E,200619.295,A*36\n")
    try directory.write("pii.json", #"{"rules":[{"path":"GLL.lat","action":"drop"}]}"#)
    let run = CommandRun.run(
      ["redact", "log.chk", "--log-format", "gpsd", "--policy", "pii.json", "-o", "share.chk"],
      in: directory.path)
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "log.chk:1:45: error: at GLL: the checksum is '36', but the sentence's bytes give "
        + "'35'\n")
  }

  @Test func aSentencePathNamesAJSONKeyWithoutTheGpsdFormat() throws {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", #"{"GGA":{"lat":1},"b":2}"# + "\n")
    try directory.write("pii.json", #"{"rules":[{"path":"GGA.lat","action":"drop"}]}"#)
    let run = CommandRun.run(
      ["redact", "events.jsonl", "--policy", "pii.json", "-o", "share.jsonl"],
      in: directory.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(directory.bytes("share.jsonl") == Array(#"{"GGA":{},"b":2}"#.utf8) + [10])
  }

  @Test func coordinatesRoundExactlyInTheirOwnForm() {
    #expect(NMEARedactor.roundCoordinate("5313.2228", decimals: 3) == "5313.2000")
    #expect(NMEARedactor.roundCoordinate("00634.4228", decimals: 3) == "00634.4400")
    #expect(NMEARedactor.roundCoordinate("00634.4228", decimals: 0) == "00700.0000")
    #expect(NMEARedactor.roundCoordinate("5959.9999", decimals: 2) == "6000.0000")
    #expect(NMEARedactor.roundCoordinate("4829.0005", decimals: 5) == "4829.0004")
    #expect(NMEARedactor.roundCoordinate("4829.0005", decimals: 9) == "4829.00050002")
    #expect(NMEARedactor.roundCoordinate("48x9.0005", decimals: 2) == nil)
    #expect(NMEARedactor.roundNumber("43.0534", decimals: 1) == "43.1")
    #expect(NMEARedactor.roundNumber("-0.04", decimals: 1) == "0.0")
    #expect(NMEARedactor.checksum(Array("GPRMC,,V,,,,,,,,,,N".utf8)) == 0x53)
  }

  /// A `shift` of the sentences' times, by seconds, as the Python checker shifts them with its
  /// datetime: RMC's date rolls over midnight (a leap day, a new year, backwards too), the
  /// decimals of seconds are kept, and every checksum is written anew.
  @Test(arguments: [
    (log, "fixtures/redact-gpsd/shift.json", "28 of 80 lines changed, 32 values"),
    ("fixtures/redact-gpsd/midnight.chk", "fixtures/redact-gpsd/shift.json", "6 of 7 lines"),
    ("fixtures/redact-gpsd/midnight.chk", "back", "6 of 7 lines changed, 10 values"),
  ])
  func timesAreShiftedAsThePythonCheckerShiftsThem(
    log: String, policy: String, summary: String
  ) async throws {
    let directory = try TemporaryDirectory()
    var policy = Repository.path(policy)
    if policy.hasSuffix("back") {
      policy = directory.file("back.json")
      try directory.write(
        "back.json",
        #"{"rules": [{"path": "RMC.time", "action": "shift", "by": -86400.25}, "#
          + #"{"path": "GGA.time", "action": "shift", "by": -86400.25}, "#
          + #"{"path": "GLL.time", "action": "shift", "by": -86400.25}]}"#)
    }
    let output = directory.file("share.chk")
    let run = redact(log, policy: policy, into: output)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains(summary), "\(run.standardError)")
    let expected = try await BuiltBinary.output("python3 \(Self.checker) \(policy) \(log)")
    #expect(String(decoding: directory.bytes("share.chk") ?? [], as: UTF8.self) == expected)
    #expect(
      try await BuiltBinary.output("python3 \(Self.checker) --check \(output)").hasSuffix(
        "sentences, every checksum right\n"))
  }
}
