import RaspJSON
import Testing

@testable import RaspCLI

@Suite struct IgnoredPathsTests {
  private func ignored(_ texts: [String]) throws -> IgnoredPaths {
    IgnoredPaths(
      texts: texts, paths: try texts.map { try JSONPath($0, allowsPatterns: true) })
  }

  @Test func aPathThatAppearsInALaterSnapshotMatches() throws {
    var paths = try ignored(["geo.location.latitude", "**.changedAt", "nav.stack.*"])
    paths.note(try JSONParser.parse(#"{"geo":{"location":null},"nav":{"stack":[]}}"#))
    #expect(paths.isWaiting)
    paths.note(
      try JSONParser.parse(
        #"{"geo":{"location":{"latitude":1}},"lifecycle":{"changedAt":2},"nav":{"stack":["a"]}}"#
      ))
    #expect(!paths.isWaiting)
    #expect(paths.warning == nil)
  }

  @Test func warnsOfEachPathThatMatchedNothingWithTheNearestSeen() throws {
    var paths = try ignored(["geo.headng", "nav.stack[3]", "zzz"])
    paths.note(try JSONParser.parse(#"{"geo":{"heading":1},"nav":{"stack":["a","b"]}}"#))
    #expect(
      paths.warning == """
        rasp: warning: --ignore 'geo.headng' matched nothing in any snapshot; did you mean \
        'geo.heading'?
        rasp: warning: --ignore 'nav.stack[3]' matched nothing in any snapshot; did you mean \
        'nav.stack[0]'?
        rasp: warning: --ignore 'zzz' matched nothing in any snapshot

        """)
  }

  @Test func stopsWalkingAfterTenThousandSnapshotsAndSaysSo() throws {
    var paths = try ignored(["geo.headings"])
    let snapshot = try JSONParser.parse(#"{"geo":{"heading":1}}"#)
    for _ in 0..<10_000 {
      paths.note(snapshot)
      paths.note(snapshot)
    }
    #expect(!paths.isWaiting)
    #expect(
      paths.warning
        == "rasp: warning: --ignore 'geo.headings' matched nothing in the first 10000 snapshots; "
        + "did you mean 'geo.heading'?\n")
  }
}
