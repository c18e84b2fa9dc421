import Foundation
import RaspDomains
import RaspJSON
import RaspTestSupport
import Testing

@testable import RaspReplay

/// A keyed replay (`--key-by`) gives each key the records its events would give replayed
/// alone: checked against unkeyed replays of each key's lines, picked out independently.
@Suite struct ReplayKeysTests {
  /// The records of a replay of `text` (and the summary's counts, last).
  private func records(
    _ text: String, format: LogFormat = .rasp,
    threading: ReplayConfiguration.Threading = .automatic,
    _ configure: (inout ReplayConfiguration) -> Void = { _ in }
  ) -> [String] {
    var configuration = ReplayConfiguration(domains: [GeoDomain(), NavDomain()])
    configuration.format = format
    configuration.threading = threading
    configuration.errorMode = .skip
    configure(&configuration)
    var replay = Replay(memory: text, configuration: configuration)
    var described: [String] = []
    replay.forEachOutcome { outcome, bytes in
      switch outcome {
      case .record:
        described.append(String(decoding: bytes ?? [], as: UTF8.self))
      case .skipped(let diagnostic): described.append("skipped \(diagnostic)")
      case .end(let summary):
        let counts = summary.statistics
        described.append(
          "end: \(counts.applied) applied, \(counts.keys) keys, \(counts.withoutKey) without")
      default: break
      }
    }
    return described
  }

  /// The records alone, without the bad lines (a pop from an empty stack) and the end.
  private func recordsOnly(
    _ text: String, _ configure: (inout ReplayConfiguration) -> Void = { _ in }
  )
    -> [String]
  {
    records(text, configure).dropLast().filter { !$0.hasPrefix("skipped ") }
  }

  /// A log of devices, interleaved: each line's `device` is its device, or none.
  private static func log(seed: UInt64, count: Int) -> [String] {
    var random = SplitMix64(seed: seed)
    func next(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
    let devices = [#""phone""#, #""watch""#, #""car""#, "7", "true", #"{"id":1}"#, "null", nil]
    return (0..<count).map { _ in
      let device = devices[next(devices.count)]
      let source = device.map { #","device":\#($0)"# } ?? ""
      switch next(3) {
      case 0: return #"{"type":"geo.heading"\#(source),"payload":{"heading":\#(next(360))}}"#
      case 1: return #"{"type":"nav.push"\#(source),"payload":{"screen":"s\#(next(4))"}}"#
      default: return #"{"type":"nav.pop"\#(source)}"#
      }
    }
  }

  /// The lines of `lines` whose `device` is `key` (JSON text; `null` for none), read with
  /// Foundation's parser: a second way of picking a key's events.
  private static func lines(_ lines: [String], ofKey key: String) -> [String] {
    lines.filter { line in
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      let source = object?["device"]
      guard let source, !(source is NSNull) else { return key == "null" }
      let data = try? JSONSerialization.data(withJSONObject: source, options: [.fragmentsAllowed])
      return data.map { String(decoding: $0, as: UTF8.self) } == key
    }
  }

  @Test(arguments: [ReplayConfiguration.Threading.single, .readAhead, .decodeAhead])
  func eachKeysRecordsAreThoseOfItsEventsReplayedAlone(
    threading: ReplayConfiguration.Threading
  ) throws {
    let lines = Self.log(seed: 7, count: 400)
    let keyed = records(lines.joined(separator: "\n"), threading: threading) {
      $0.keyPath = try? JSONPath("device")
    }
    let keys = [#""phone""#, #""watch""#, #""car""#, "7", "true", #"{"id":1}"#, "null"]
    var seen = 0
    for key in keys {
      let alone = recordsOnly(Self.lines(lines, ofKey: key).joined(separator: "\n"))
      let prefix = #"{"key":\#(key),"state":"#
      let mine = keyed.filter { $0.hasPrefix(prefix) }.map {
        String($0.dropFirst(prefix.count).dropLast())
      }
      #expect(mine == Array(alone), "key \(key)")
      seen += mine.count
    }
    let skipped = keyed.filter { $0.hasPrefix("skipped ") }.count
    #expect(seen + skipped == keyed.count - 1, "every record has one of the keys")
    // Events without a device have the key null, as those with null have, and are counted
    // when applied: the lines of the key null replayed alone, less those with a device and
    // those skipped.
    let nullLines = Self.lines(lines, ofKey: "null")
    let skippedAlone = Set(
      records(nullLines.joined(separator: "\n")).compactMap { line -> Int? in
        guard line.hasPrefix("skipped log:") else { return nil }
        return Int(line.dropFirst("skipped log:".count).prefix { $0 != ":" })
      })
    let applied = nullLines.indices.filter {
      !nullLines[$0].contains(#""device":"#) && !skippedAlone.contains($0 + 1)
    }.count
    #expect(applied > 0 && applied < nullLines.count)
    #expect(keyed.last == "end: \(400 - skipped) applied, 7 keys, \(applied) without")
  }

  @Test func selectsDiffsAndFinalsAreTheKeysOwn() throws {
    let lines = Self.log(seed: 11, count: 300)
    let text = lines.joined(separator: "\n")
    let keys = [#""phone""#, #""watch""#, #""car""#, "7", "true", #"{"id":1}"#, "null"]
    for key in keys {
      let alone = Self.lines(lines, ofKey: key).joined(separator: "\n")
      func mine(_ keyed: [String], _ member: String) -> [String] {
        let prefix = #"{"key":\#(key),"\#(member)":"#
        return keyed.filter { $0.hasPrefix(prefix) }.map {
          String($0.dropFirst(prefix.count).dropLast())
        }
      }
      func mineDiffs(_ keyed: [String]) -> [String] {
        let suffix = #","key":\#(key)}"#
        return keyed.filter { $0.hasSuffix(suffix) && $0.hasPrefix(#"{"diff":"#) }
          .map { String($0.dropFirst(#"{"diff":"#.count).dropLast(suffix.count)) }
      }
      let selected = records(text) {
        $0.keyPath = try? JSONPath("device")
        $0.selection = try? JSONPath("nav.stack")
      }
      let selectedAlone = recordsOnly(alone) { $0.selection = try? JSONPath("nav.stack") }
      #expect(mine(selected, "value") == selectedAlone, "select, key \(key)")
      let diffs = records(text) {
        $0.keyPath = try? JSONPath("device")
        $0.emit = .diff
      }
      #expect(mineDiffs(diffs) == recordsOnly(alone) { $0.emit = .diff }, "\(key)")
      let final = records(text) {
        $0.keyPath = try? JSONPath("device")
        $0.isFinal = true
      }
      #expect(mine(final, "state") == recordsOnly(alone) { $0.isFinal = true })
    }
  }

  @Test func finalRecordsComeInTheOrderJqSortsTheKeys() async throws {
    let keys = [
      #""b""#, "10", "null", #"[1,2]"#, "false", #"{"a":2}"#, "2", #""a""#, #"[1]"#, "true",
      #"{"a":1,"b":0}"#, #""B""#, "-1.5", #"{"a":1}"#, #""é""#, "[]",
    ]
    #expect(try await finalKeyOrder(of: keys) == jqSorted(keys))
  }

  /// Keys that are all strings are sorted by their first eight bytes, then byte by byte: keys
  /// around eight bytes long, beginning alike, empty, or beyond ASCII.
  @Test func finalRecordsOfStringKeysComeInTheOrderJqSortsThem() async throws {
    let keys = [
      "abcdefgh", "abcdefg", "abcdefghi", "abcdefgha", "abcdefgh~", "abcdefgg~", "a", "ab", "",
      " ", "A", "b", "é", "ée", "zzzzzzzzzzzz", "device-10", "device-9", "device-100",
      "device-1", "abcdefgh!", "abcdefghé", "日本", "日本語のキー", "~",
    ].map { "\"\($0)\"" }
    #expect(try await finalKeyOrder(of: keys) == jqSorted(keys))
  }

  /// The keys of a `--final` replay of one event per key, in the order it prints them.
  private func finalKeyOrder(of keys: [String]) throws -> [String] {
    let final = records(
      keys.map { #"{"type":"geo.heading","k":\#($0),"payload":{"heading":1}}"# }
        .joined(separator: "\n")
    ) {
      $0.keyPath = try? JSONPath("k")
      $0.isFinal = true
      $0.selection = try? JSONPath("geo.heading")
    }
    var ordered: [String] = []
    for line in final.dropLast() {
      let start = line.index(line.startIndex, offsetBy: #"{"key":"#.count)
      let end = try #require(line.range(of: #","value":"#, options: .backwards)).lowerBound
      ordered.append(String(line[start..<end]))
    }
    return ordered
  }

  /// JSON values sorted by jq itself, written compactly, one a line.
  private func jqSorted(_ values: [String]) async throws -> [String] {
    let sorted = try await TestProcess.run(
      "/usr/bin/env", ["jq", "-c", "-s", "sort | .[]"],
      input: Array(values.joined(separator: "\n").utf8)
    ).text
    return sorted.split(separator: "\n").map(String.init)
  }

  @Test func keysAreReadWhereASpecsFromReadsThem() throws {
    // The payload, the envelope, a field of the line; a Kafka message's key and its event's
    // own field; the same key written two ways is one key.
    let lines = [
      #"{"type":"geo.heading","ts":"2026-01-01T00:00:00Z","meta":{"s":"a"},"#
        + #""payload":{"heading":1,"d":"x"}}"#,
      #"{"type":"geo.heading","ts":"2026-01-01T00:00:00Z","meta":{"s":"\u0061"},"#
        + #""payload":{"heading":2,"d":"y"}}"#,
      #"{"type":"nav.push","meta":{"s":"b"},"payload":{"screen":"s","d":"x"}}"#,
    ].joined(separator: "\n")
    func keys(_ path: String) -> [String] {
      records(lines) {
        $0.keyPath = try? JSONPath(path)
        $0.selection = try? JSONPath("geo.heading")
        $0.includesEvent = false
      }.map { line in
        guard let range = line.range(of: #","value""#) else { return line }
        return String(line[line.index(line.startIndex, offsetBy: 7)..<range.lowerBound])
      }
    }
    // Each key's heading is printed when it changes: the nav.push of "x" changes none.
    #expect(keys("payload.d") == [#""x""#, #""y""#, "end: 3 applied, 2 keys, 0 without"])
    // A key's first event prints its value, as a replay's first does: the nav.push of "b".
    #expect(keys("meta.s") == [#""a""#, #""a""#, #""b""#, "end: 3 applied, 2 keys, 0 without"])
    #expect(
      keys("type") == [
        #""geo.heading""#, #""geo.heading""#, #""nav.push""#, "end: 3 applied, 2 keys, 0 without",
      ])
    #expect(
      keys("ts") == [
        #""2026-01-01T00:00:00Z""#, #""2026-01-01T00:00:00Z""#, "null",
        "end: 3 applied, 2 keys, 1 without",
      ])
    let kcat = try #require(LogFormat.preset(named: "kcat"))
    let messages = [
      #"{"topic":"t","key":"k1","#
        + #""payload":"{\"type\":\"geo.heading\",\"payload\":{\"heading\":1}}"}"#,
      #"{"topic":"t","key":"k2","#
        + #""payload":"{\"type\":\"geo.heading\",\"key\":\"own\",\"payload\":{\"heading\":2}}"}"#,
    ].joined(separator: "\n")
    #expect(
      records(messages, format: kcat) {
        $0.keyPath = try? JSONPath("key")
        $0.selection = try? JSONPath("geo.heading")
      } == [
        #"{"key":"k1","value":1}"#, #"{"key":"own","value":2}"#,
        "end: 2 applied, 2 keys, 0 without",
      ])
  }

  @Test func longKeysThatBeginAlikeAreDifferentKeys() throws {
    // Keys past sixteen bytes, alike in their first sixteen, among many: the table tells them
    // apart by all their bytes, through its growth.
    var lines: [String] = []
    for round in 0..<3 {
      for number in 0..<700 {
        let key = "session-0000000000-\(number)"
        lines.append(#"{"type":"geo.heading","k":"\#(key)","payload":{"heading":\#(round)}}"#)
      }
    }
    let final = records(lines.joined(separator: "\n")) {
      $0.keyPath = try? JSONPath("k")
      $0.isFinal = true
      $0.selection = try? JSONPath("geo.heading")
    }
    #expect(final.count == 701)
    #expect(final.last == "end: 2100 applied, 700 keys, 0 without")
    #expect(final.dropLast().allSatisfy { $0.hasSuffix(#","value":2}"#) })
    let names = final.dropLast().map { $0.dropFirst(#"{"key":""#.count).prefix { $0 != "\"" } }
    #expect(Set(names).count == 700)
    #expect(names == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
  }

  @Test func aKeyWrittenTwoWaysIsOneKey() throws {
    // DEL raw and escaped; a large integer, and the same number as a float and with an
    // exponent; a length; a key that cannot be read is a bad line, not the key null.
    func keys(_ values: [String], path: String = "payload.k") -> [String] {
      let lines = values.enumerated().map { index, value in
        #"{"type":"geo.heading","payload":{"k":\#(value),"heading":\#(index)}}"#
      }
      return records(lines.joined(separator: "\n")) {
        $0.keyPath = try? JSONPath(path)
        $0.isFinal = true
        $0.selection = try? JSONPath("geo.heading")
      }
    }
    #expect(
      keys([#""\u007f""#, "\"\u{7F}\""])
        == [#"{"key":"\u007f","value":1}"#, "end: 2 applied, 1 keys, 0 without"])
    // A whole number written without an exponent is kept exactly; with one, it is the nearest
    // double, 12345678901234567168, another key (sorted first: equal as doubles, by text).
    #expect(
      keys(["12345678901234567890", "1.2345678901234567890e19", "12345678901234567890.0"])
        == [
          #"{"key":1.2345678901234567e+19,"value":1}"#, #"{"key":12345678901234567890,"value":2}"#,
          "end: 3 applied, 2 keys, 0 without",
        ])
    // Whole numbers past 2^53, sorted by their exact values, which their doubles do not tell
    // apart (100000000000000000000 sorts after 99999999999999999998, not before, as bytes do).
    #expect(
      keys(["100000000000000000000", "99999999999999999998"])
        == [
          #"{"key":99999999999999999998,"value":1}"#, #"{"key":100000000000000000000,"value":0}"#,
          "end: 2 applied, 2 keys, 0 without",
        ])
    #expect(
      keys(["0", "-0", "0.0", "-0e0"])
        == [#"{"key":0,"value":3}"#, "end: 4 applied, 1 keys, 0 without"])
    #expect(
      keys(["[1,2]", "[3]", "[4,5]"], path: "payload.k|length")
        == [
          #"{"key":1,"value":1}"#, #"{"key":2,"value":2}"#, "end: 3 applied, 2 keys, 0 without",
        ])
    #expect(
      keys(["1", "1e400"]) == [
        "skipped log:2:38: invalid value for field 'payload.k': the key number '1e400' is out of "
          + "the range of a double",
        #"{"key":1,"value":0}"#, "end: 1 applied, 1 keys, 0 without",
      ])
  }

  @Test func anEventWithoutAKeyIsABadLineUnderStrict() throws {
    let lines = [
      #"{"type":"geo.heading","source":"a","payload":{"heading":1}}"#,
      #"{"type":"geo.heading","payload":{"heading":2}}"#,
    ].joined(separator: "\n")
    #expect(
      records(lines) {
        $0.keyPath = try? JSONPath("source")
        $0.isStrict = true
        $0.selection = try? JSONPath("geo.heading")
      } == [
        #"{"key":"a","value":1}"#,
        "skipped log:2:1: missing required field 'source'",
        "end: 1 applied, 1 keys, 0 without",
      ])
  }

  @Test(arguments: [false, true])
  func anEventWithNullAtThePathHasItsPath(strict: Bool) throws {
    // `null` is a value, as in a spec's `from`: the key `null`, neither a bad line under
    // `--strict` nor counted as an event without a key. The path missing is.
    let lines = [
      #"{"type":"geo.heading","k":null,"payload":{"heading":1}}"#,
      #"{"type":"geo.heading","payload":{"heading":2}}"#,
      #"{"type":"geo.heading","k":"a","payload":{"heading":3}}"#,
    ].joined(separator: "\n")
    let seen = records(lines) {
      $0.keyPath = try? JSONPath("k")
      $0.isStrict = strict
      $0.selection = try? JSONPath("geo.heading")
    }
    let second =
      strict ? "skipped log:2:1: missing required field 'k'" : #"{"key":null,"value":2}"#
    #expect(
      seen == [
        #"{"key":null,"value":1}"#, second, #"{"key":"a","value":3}"#,
        strict ? "end: 2 applied, 2 keys, 0 without" : "end: 3 applied, 2 keys, 1 without",
      ])
  }

  @Test(arguments: [false, true])
  func aKeyAfterAPayloadIsReadWhateverItHolds(strict: Bool) throws {
    // A line that ends in `}}` is read as if its payload ended there, and its members after
    // the payload are read only if something fails: an envelope's `source` that is not a
    // string, after the payload, is the bad line it is, and makes no key.
    let lines = [
      #"{"type":"geo.heading","payload":{"heading":1},"source":"gps"}"#,
      #"{"type":"geo.heading","payload":{"heading":2},"source":{"a":1}}"#,
      #"{"type":"geo.heading","payload":{"heading":3},"meta":{"k":"b"}}"#,
    ].joined(separator: "\n")
    for (path, keys) in [("source", [#""gps""#, "null"]), ("meta.k", ["null", #""b""#])] {
      for jobs in [1, 2] {
        let seen = records(lines) {
          $0.keyPath = try? JSONPath(path)
          $0.isStrict = strict
          $0.jobs = jobs
          $0.selection = try? JSONPath("geo.heading")
        }
        let bad = "skipped log:2:56: field 'source' must be a string, found an object"
        let third =
          strict && path == "source"
          ? "skipped log:3:1: missing required field 'source'"
          : #"{"key":\#(keys[1]),"value":3}"#
        let first =
          strict && path == "meta.k"
          ? "skipped log:1:1: missing required field 'meta.k'"
          : #"{"key":\#(keys[0]),"value":1}"#
        #expect(Array(seen.dropLast()) == [first, bad, third], "\(path), -j \(jobs)")
        let applied = 3 - 1 - (strict ? 1 : 0)
        #expect(seen.last?.hasPrefix("end: \(applied) applied, \(applied) keys,") == true)
      }
    }
  }

  @Test(arguments: [false, true])
  func eventsFoundAheadCountAsTheyDoInTheirTurn(strict: Bool) throws {
    // The kernel looks up the keys of the events a few lines ahead; an event without a key,
    // or with a key not seen yet, must still be counted or refused in its turn. Every fifth
    // line has no source, every seventh a new one.
    let lines = (0..<300).map { index -> String in
      let source: String
      switch index {
      case _ where index % 5 == 4: source = ""
      case _ where index % 7 == 6: source = #","source":"new\#(index)""#
      default: source = #","source":"s\#(index % 3)""#
      }
      return #"{"type":"geo.heading"\#(source),"payload":{"heading":\#(index % 360)}}"#
    }
    let keyless = (0..<300).filter { $0 % 5 == 4 }.count
    let newKeys = (0..<300).filter { $0 % 7 == 6 && $0 % 5 != 4 }.count
    let described = records(lines.joined(separator: "\n")) {
      $0.keyPath = try? JSONPath("source")
      $0.isStrict = strict
      $0.isFinal = true
    }
    let skipped = described.filter { $0.hasPrefix("skipped ") }
    #expect(skipped.count == (strict ? keyless : 0))
    let keys = 3 + newKeys + (strict ? 0 : 1)
    #expect(described.count == skipped.count + keys + 1)
    #expect(
      described.last
        == "end: \(300 - skipped.count) applied, \(keys) keys, \(strict ? 0 : keyless) without")
    // Each of the three old keys ends with the heading of its last line.
    for key in 0..<3 {
      let last = try #require((0..<300).last { $0 % 3 == key && $0 % 5 != 4 && $0 % 7 != 6 })
      let geo = #"{"accuracy":null,"heading":\#(last % 360),"location":null}"#
      let nav = #"{"modal":null,"stack":[],"tab":null}"#
      #expect(described.contains(#"{"key":"s\#(key)","state":{"geo":\#(geo),"nav":\#(nav)}}"#))
    }
  }
}
