import Foundation
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspCLI

/// `--verify`'s search for original numbers: each test plants one value left as it was, and
/// expects it named (by a check apart: the planted value is found in the output by `grep`);
/// values a rule wrote, and short numbers of other members, are no leak.
@Suite struct RedactLeakSearchTests {
  private static func redact(_ log: String, policy: String, _ extra: [String] = [])
    throws -> (run: CommandRun, output: String)
  {
    let directory = try TemporaryDirectory()
    try directory.write("events.jsonl", log)
    try directory.write("pii.json", policy)
    let run = CommandRun.run(
      ["redact", "events.jsonl", "--policy", "pii.json", "-o", "share.jsonl", "--verify"]
        + extra, in: directory.path)
    return (run, String(decoding: directory.bytes("share.jsonl") ?? [], as: UTF8.self))
  }

  /// A shifted `ts` whose value is also another member's, unredacted: 13 significant digits
  /// are searched wherever they are.
  @Test func aShiftedTimeLeftElsewhereIsALeak() throws {
    let log =
      #"{"type":"a","ts":1795339800250}"# + "\n"
      + #"{"type":"a","ts":1795339801250,"payload":{"sent":1795339801250}}"# + "\n"
    let (run, output) = try Self.redact(
      log, policy: #"{"rules":[{"path":"ts","action":"shift","by":-1000}]}"#)
    #expect(run.status == 1)
    #expect(
      run.standardError.hasSuffix(
        "rasp: error: --verify: share.jsonl:2: at payload.sent: the value of ts at "
          + "events.jsonl:2 is left in the output\n"), "\(run.standardError)")
    #expect(output.contains(#""sent":1795339801250"#))
  }

  /// Times 1000 apart shifted by 1000: each becomes another's original, which the rule wrote;
  /// no leak.
  @Test func aShiftedTimeEqualToAnothersOriginalIsNoLeak() throws {
    let log = (0..<5).map { #"{"type":"a","ts":\#(1_795_339_800_000 + 1000 * $0)}"# + "\n" }
    let (run, output) = try Self.redact(
      log.joined(), policy: #"{"rules":[{"path":"ts","action":"shift","by":1000}]}"#)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(output.contains(#""ts":1795339801000"#))
  }

  /// A rounded latitude left unrounded in a copy, and a dropped accuracy of 12 left in a
  /// member of the same name; a heading of 12 is no leak of it.
  @Test func aRoundedNumberAndAShortNumberOfTheSameNameLeak() throws {
    let policy =
      #"{"rules":[{"path":"payload.latitude","action":"round","decimals":2},"#
      + #"{"path":"payload.accuracy","action":"drop"}]}"#
    let rounded = try Self.redact(
      #"{"type":"a","payload":{"latitude":52.520008,"heading":12,"accuracy":12}}"# + "\n"
        + #"{"type":"a","meta":{"lat":52.520008}}"# + "\n", policy: policy)
    #expect(rounded.run.status == 1)
    #expect(
      rounded.run.standardError.hasSuffix(
        "share.jsonl:2: at meta.lat: the value of payload.latitude at events.jsonl:1 is left "
          + "in the output\n"), "\(rounded.run.standardError)")
    let short = try Self.redact(
      #"{"type":"a","payload":{"latitude":52.5,"heading":12,"accuracy":12}}"# + "\n"
        + #"{"type":"a","meta":{"accuracy":12,"heading":12}}"# + "\n", policy: policy)
    #expect(short.run.status == 1)
    #expect(
      short.run.standardError.hasSuffix(
        "share.jsonl:2: at meta.accuracy: the value of payload.accuracy at events.jsonl:1 is "
          + "left in the output\n"), "\(short.run.standardError)")
    let none = try Self.redact(
      #"{"type":"a","payload":{"latitude":52.5,"heading":12,"accuracy":12}}"# + "\n",
      policy: policy)
    #expect(none.run.status == 0, "\(none.run.standardError)")
    #expect(none.output.contains(#""heading":12"#))
  }

  /// A gpsd log whose RMC times are shifted but not GGA's: GGA's time of the same fix is the
  /// RMC's original, and is named in its sentence.
  @Test func anNMEATimeLeftUnshiftedIsALeak() throws {
    let log = "fixtures/redact-gpsd/midnight.chk"
    let directory = try TemporaryDirectory()
    try directory.write(
      "pii.json", #"{"rules":[{"path":"RMC.time","action":"shift","by":3600}]}"#)
    let sentences = try Data(contentsOf: URL(fileURLWithPath: Repository.path(log)))
    try directory.write(
      "events.chk",
      "$GPRMC,000001.00,A,5313.2228,N,00634.4228,E,00.0,000.0,010306,00,W*52\n"
        + String(decoding: sentences, as: UTF8.self))
    let run = CommandRun.run(
      [
        "redact", "events.chk", "--log-format", "gpsd", "--policy", "pii.json", "-o",
        "share.chk", "--verify",
      ], in: directory.path)
    #expect(run.status == 1, "\(run.standardError)")
    #expect(
      run.standardError.hasSuffix(
        "rasp: error: --verify: share.chk:7: at GGA.time: the value of RMC.time at "
          + "events.chk:1 is left in the output\n"), "\(run.standardError)")
    let written = String(decoding: directory.bytes("share.chk") ?? [], as: UTF8.self)
    #expect(written.contains("$GPGGA,000001.00,"))
    #expect(!written.contains("$GPRMC,000001.00,"))
  }

  @Test func significantDigitsAreThoseOfTheShortestForm() {
    #expect(RedactLeakSearch.significantDigits(52.52) == 4)
    #expect(RedactLeakSearch.significantDigits(1200) == 2)
    #expect(RedactLeakSearch.significantDigits(0.000125) == 3)
    #expect(RedactLeakSearch.significantDigits(1_795_339_800_250) == 12)
    #expect(RedactLeakSearch.significantDigits(200_619.3) == 7)
  }
}

/// Leaks in the JSON that strings hold (kcat messages).
@Suite struct RedactLeakSearchHeldTextTests {
  /// An hourly time shifted by an hour, inside a message's `payload`, is the next message's
  /// original, which the rule wrote: no leak; the same time left in a note of the text is one.
  @Test func aShiftedTimeInAHeldTextIsNoLeakButOneLeftIsOne() throws {
    let message = { (hour: Int, note: String) in
      #"{"topic":"t","payload":"{\"type\":\"a\",\"ts\":\"2026-12-04T\#(hour):00:00Z\""#
        + note + #"}"}"# + "\n"
    }
    let policy = #"{"rules":[{"path":"payload.ts","action":"shift","by":3600}]}"#
    let directory = try TemporaryDirectory()
    try directory.write("pii.json", policy)
    try directory.write("events.jsonl", message(10, "") + message(11, ""))
    try directory.write(
      "leak.jsonl", message(10, "") + message(11, #",\"note\":\"at 2026-12-04T10:00:00Z\""#))
    for (log, status) in [("events.jsonl", 0), ("leak.jsonl", 1)] {
      let run = CommandRun.run(
        ["redact", log, "--policy", "pii.json", "-o", "share-\(log)", "--verify"],
        in: directory.path)
      #expect(run.status == status, "\(run.standardError)")
      if status == 1 {
        #expect(
          run.standardError.hasSuffix(
            "share-leak.jsonl:2: at payload.note: the value of payload.ts at leak.jsonl:1 is "
              + "left in the output\n"), "\(run.standardError)")
      }
    }
  }
}
