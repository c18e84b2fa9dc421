import Foundation
import Testing

@testable import RaspCLI
import RaspTestSupport

/// `--emit devtools` on a log of any format: each action is the event as rasp read it — its
/// type, payload and time — so that the export, replayed, gives the log's snapshots back.
@Suite struct DevToolsExportOfFormatsTests {
  /// A fixture's log, the options that read it, and the domain options both replays share.
  struct Case: CustomTestStringConvertible, Sendable {
    let fixture: String
    let reading: [String]
    let domains: [String]
    let log: String
    var testDescription: String { fixture }
  }

  static let cases = [
    Case(
      fixture: "format-cloudevents-bad", reading: ["--log-format", "cloudevents"], domains: [],
      log: "events.jsonl"),
    Case(
      fixture: "format-fsa-bad", reading: ["--log-format", "fsa"], domains: [],
      log: "events.jsonl"),
    Case(
      fixture: "format-kcat", reading: ["--log-format", "kcat"], domains: [],
      log: "messages.jsonl"),
    Case(
      fixture: "format-kcat-map", reading: ["--map", "kafka.map.json"],
      domains: ["--spec", "../format-map/shop.json", "--domain", "app", "--domain", "cart"],
      log: "messages.jsonl"),
  ]

  @Test(arguments: cases)
  func theExportReplaysIntoTheLogsSnapshots(_ test: Case) throws {
    let folder = Repository.path("fixtures/" + test.fixture)
    let direct = CommandRun.run(
      ["replay", "--on-error", "skip"] + test.reading + test.domains + [test.log], in: folder)
    let export = CommandRun.run(
      ["replay", "--on-error", "skip", "--emit", "devtools"] + test.reading + test.domains
        + [test.log], in: folder)
    #expect(!direct.standardOutput.isEmpty)
    #expect(export.status == direct.status)
    let imported = CommandRun.run(
      ["replay", "--log-format", "devtools"] + test.domains + ["-"], in: folder,
      input: Array(export.standardOutput.utf8))
    #expect(imported.status == 0, "\(imported.standardError)")
    #expect(imported.standardOutput == direct.standardOutput)
  }

  /// The first action of a fixture's export, as read by hand from its log's first event:
  /// the type as rasp names it with a slash, the payload where the format keeps it, and the
  /// time in milliseconds (`date -u -d 2018-04-26T14:48:09Z +%s%3N`).
  @Test(arguments: [
    (
      "format-cloudevents-bad", ["--log-format", "cloudevents", "events.jsonl"],
      #"{"type":"geo/heading","payload":{"heading":90}}"#, 1_524_754_089_000
    ),
    (
      "format-otel-bad",
      ["--log-format", "otel", "--spec", "browser.json", "--domain", "browser", "requests.jsonl"],
      #"{"type":"browser/page_view","payload":{"url":"/home"}}"#, 1_764_061_200_250
    ),
    (
      "format-segment-batch",
      [
        "--log-format", "segment", "--spec", "music.json", "--domain", "identify", "--domain",
        "track", "calls.jsonl",
      ],
      #"{"type":"identify/identify","#
        + #""payload":{"email":"jake@yahoo.com","name":"Jake Peterson","age":26}}"#,
      1_354_408_208_276
    ),
  ])
  func anActionIsTheEventAsRead(
    fixture: String, arguments: [String], action: String, timestamp: Int
  ) throws {
    let export = CommandRun.run(
      ["replay", "--on-error", "skip", "--emit", "devtools"] + arguments,
      in: Repository.path("fixtures/" + fixture))
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(export.standardOutput.utf8)) as? [String: Any])
    let actions = try #require(document["actionsById"] as? [String: Any])
    let first = try #require(actions["1"] as? [String: Any])
    let expected = try #require(
      try JSONSerialization.jsonObject(with: Data(action.utf8)) as? [String: Any])
    #expect(
      NSDictionary(dictionary: try #require(first["action"] as? [String: Any]))
        == NSDictionary(dictionary: expected))
    #expect(first["timestamp"] as? Int == timestamp)
  }
}
