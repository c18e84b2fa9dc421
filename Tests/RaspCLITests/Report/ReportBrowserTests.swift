import Foundation
import RaspJSON
import RaspTestSupport
import Testing

/// Reports opened in a real browser (headless chromium), asserted on the DOM their script
/// left, against what `rasp replay` itself prints.
@Suite(
  .enabled(if: HeadlessBrowser.shouldRun, "chromium is not installed: run 'make browser'"),
  .serialized)
struct ReportBrowserTests {
  static let example = Repository.path("fixtures/example/events.jsonl")

  /// Writes the report of `arguments` into a temporary folder and returns its path.
  func report(_ arguments: [String], in directory: TemporaryDirectory) throws -> String {
    let path = directory.file("report.html")
    let run = CommandRun.run(["report"] + arguments + ["-o", path], in: directory.path)
    #expect(FileManager.default.fileExists(atPath: path), "no report: \(run.standardError)")
    return path
  }

  func json(_ text: String?) throws -> JSONValue {
    try JSONParser.parse(Array((text ?? "").utf8))
  }

  @Test(arguments: [1, 5, 13, 20])
  func showsTheSnapshotReplayAtPrintsAndTheDiffEmitDiffPrints(event: Int) async throws {
    let directory = try TemporaryDirectory()
    let page = try await HeadlessBrowser.load(
      try report([Self.example], in: directory), fragment: "event=\(event)")
    let at = CommandRun.run(["replay", "--at", "#\(event)", Self.example])
    #expect(try json(page.text(ofID: "snapshot-json")) == json(at.standardOutput))
    let diffs = CommandRun.run(["replay", "--emit", "diff", Self.example]).standardOutput
      .split(separator: "\n")
    #expect(try json(page.text(ofID: "diff-json")) == json(String(diffs[event - 1])))
    #expect(page.dom.contains("data-ready=\"true\""), "the script did not finish")
  }

  /// Every snapshot the page rebuilds from its keyframes and patches — a generated log long
  /// enough for many keyframes — is the one `rasp replay` prints.
  @Test func rebuildsEverySnapshotThatReplayPrints() async throws {
    let directory = try TemporaryDirectory()
    let log = directory.file("long.jsonl")
    let generated = try await BuiltBinary.shell(
      "rasp-bench generate --events 3000 --seed 11 > '\(log)'")
    try #require(generated.status == 0, "rasp-bench generate: \(generated.standardError)")
    let path = try report([log], in: directory)
    let html = try String(contentsOfFile: path, encoding: .utf8)
    let keyframes = html.components(separatedBy: #""keyframes":"#)[1].prefix(10_000_000)
    #expect(keyframes.components(separatedBy: "[").count > 10, "several keyframes")
    let page = try await HeadlessBrowser.load(path, fragment: "dump=1")
    let shown = (page.text(ofID: "all-snapshots") ?? "").split(separator: "\n")
    let initial = CommandRun.run(["replay", "--at", "2000-01-01T00:00:00Z", log]).standardOutput
    let replayed =
      [Substring(initial.dropLast())]
      + CommandRun.run(["replay", log]).standardOutput.split(separator: "\n")
    #expect(shown.count == replayed.count)
    for (index, (line, expected)) in zip(shown, replayed).enumerated() {
      let same = try json(String(line)) == json(String(expected))
      #expect(same, "snapshot \(index) differs")
      if !same { break }
    }
  }

  @Test func showsTheSelectedValueThatReplayAtPrints() async throws {
    let directory = try TemporaryDirectory()
    let path = try report(["--select", "rest.links", Self.example], in: directory)
    for event in [4, 11, 16] {
      let page = try await HeadlessBrowser.load(path, fragment: "event=\(event)")
      let at = CommandRun.run([
        "replay", "--select", "rest.links", "--at", "#\(event)", Self.example,
      ])
      #expect(try json(page.text(ofID: "snapshot-json")) == json(at.standardOutput), "#\(event)")
    }
  }

  @Test func showsTheInitialStateAtEventZero() async throws {
    let directory = try TemporaryDirectory()
    let page = try await HeadlessBrowser.load(
      try report([Self.example], in: directory), fragment: "event=0")
    let initial = CommandRun.run(["replay", "--at", "2000-01-01T00:00:00Z", Self.example])
    #expect(try json(page.text(ofID: "snapshot-json")) == json(initial.standardOutput))
  }

  @Test func countsWhatReplayStatsCounts() async throws {
    let directory = try TemporaryDirectory()
    let log = directory.file("bad.jsonl")
    try """
    {"type":"geo.heading","payload":{"heading":90}}
    {"type":"geo.heading","payload":{"heading":91},}

    {"type":"zzz.event"}
    {"type":"nav.push","payload":{"screen":"home"}}
    {"type":"geo.heading","payload":{"heading":"north"}}

    """.write(toFile: log, atomically: true, encoding: .utf8)
    let path = directory.file("report.html")
    let run = CommandRun.run(["report", "bad.jsonl", "-o", path], in: directory.path)
    #expect(run.status == 2, "bad lines: the report is written, with status 2")
    let stats = CommandRun.run(
      ["replay", "--stats", "--on-error", "skip", "bad.jsonl"], in: directory.path)
    let line = stats.standardError.split(separator: "\n").last.map(String.init) ?? ""
    let page = try await HeadlessBrowser.load(path)
    #expect(page.text(ofID: "stats-line") == line)
    // "rasp: 6 lines read: 3 applied, 2 skipped, 1 ignored (…), 0 blank"
    let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    #expect(page.text(ofID: "stat-read") == String(numbers[0]))
    #expect(page.text(ofID: "stat-applied") == String(numbers[1]))
    #expect(page.text(ofID: "stat-skipped") == String(numbers[2]))
    #expect(page.text(ofID: "stat-ignored") == String(numbers[3]))
    // Each bad line listed with its place, as replay reports it on standard error.
    for message in stats.standardError.split(separator: "\n") where message.contains(": error: ") {
      let place = message.replacingOccurrences(of: ": error: ", with: ": ")
      #expect(page.dom.contains(place), "bad line not listed: \(place)")
    }
    #expect(page.dom.contains("bad.jsonl:4: an event of unknown type 'zzz.event'"))
  }

  @Test func plotsEveryNumericFieldThatChanges() async throws {
    let directory = try TemporaryDirectory()
    let page = try await HeadlessBrowser.load(try report([Self.example], in: directory))
    // Independently: every number and container length (below a domain) in the snapshots
    // replay prints, and those whose value changes once it has one.
    let snapshots = CommandRun.run(["replay", Self.example]).standardOutput.split(separator: "\n")
    let initial = CommandRun.run(["replay", "--at", "2000-01-01T00:00:00Z", Self.example])
    var histories: [String: [Double?]] = [:]
    var seen = Set<String>()
    for line in [Substring(initial.standardOutput.dropLast())] + snapshots {
      var fields: [String: Double] = [:]
      Self.numbers(in: try JSONParser.parse(Array(line.utf8)), path: "", depth: 0, into: &fields)
      for path in Set(fields.keys).union(seen) {
        histories[path, default: []].append(fields[path])
      }
      seen.formUnion(fields.keys)
    }
    let changing = histories.filter { _, values in
      let first = values.firstIndex { $0 != nil } ?? values.count
      return Set(values[first...].map { $0.map(String.init(describing:)) ?? "gap" }).count > 1
    }
    #expect(page.count(of: "class=\"plot\"") == changing.count, "\(changing.keys.sorted())")
    #expect(page.dom.contains("data-series=\"geo.heading\""))
    #expect(page.dom.contains("data-series=\"nav.stack|length\""))
  }

  /// Numbers by path, and the lengths of containers below a domain as `path|length`.
  static func numbers(
    in value: JSONValue, path: String, depth: Int, into fields: inout [String: Double]
  ) {
    switch value {
    case .number(let number): fields[path] = number.doubleValue
    case .array(let elements):
      if depth >= 2 { fields[path + "|length"] = Double(elements.count) }
      for (index, element) in elements.enumerated() {
        numbers(in: element, path: path + "/\(index)", depth: depth + 1, into: &fields)
      }
    case .object(let object):
      if depth >= 2 { fields[path + "|length"] = Double(object.count) }
      for member in object.members {
        numbers(in: member.value, path: path + "/" + member.key, depth: depth + 1, into: &fields)
      }
    default: break
    }
  }

  @Test func drawsOneTrackPointPerLocation() async throws {
    let directory = try TemporaryDirectory()
    let generated = directory.file("walk.jsonl")
    let run = try await BuiltBinary.shell(
      "rasp-bench generate --events 300 --seed 3 > '\(generated)' 2>/dev/null || "
        + "cp '\(Self.example)' '\(generated)'")
    #expect(run.status == 0)
    let page = try await HeadlessBrowser.load(
      try report([generated], in: directory), fragment: "event=40")
    let locations = try String(contentsOfFile: generated, encoding: .utf8).split(separator: "\n")
      .filter { line in
        (try? JSONParser.parse(Array(line.utf8)))?["type"] == .string("geo.location")
      }.count
    #expect(locations > 1)
    guard let start = page.dom.range(of: "id=\"track-line\"") else {
      Issue.record("no track")
      return
    }
    let tag = page.dom[page.dom[..<start.lowerBound].lastIndex(of: "<")!...].prefix { $0 != ">" }
    let points = tag.components(separatedBy: "points=\"")[1].prefix { $0 != "\"" }
    #expect(points.split(separator: " ").count == locations)
    #expect(page.dom.contains("id=\"track-start\""))
    #expect(page.dom.contains("id=\"track-end\""))
    #expect(page.dom.contains("id=\"track-current\""))
  }

  /// The points of the polyline with `id`, or `nil` when the page has none.
  static func points(ofLine id: String, in page: HeadlessBrowser.Page) -> [Substring]? {
    guard let start = page.dom.range(of: "id=\"\(id)\"") else { return nil }
    guard let open = page.dom[..<start.lowerBound].lastIndex(of: "<") else { return nil }
    let tag = page.dom[open...].prefix { $0 != ">" }
    guard let points = tag.components(separatedBy: "points=\"").dropFirst().first else {
      return nil
    }
    return points.prefix { $0 != "\"" }.split(separator: " ")
  }

  /// Two phones are two tracks, never one line joining them: each key's locations, in order,
  /// make its own path, with its own start and end.
  @Test func drawsOneTrackPerKey() async throws {
    let directory = try TemporaryDirectory()
    let fixes: [(String, Double, Double)] = [
      ("a", 52.5200, 13.4050), ("b", 48.8566, 2.3522), ("a", 52.5201, 13.4052),
      ("b", 48.8567, 2.3524), ("a", 52.5203, 13.4055),
    ]
    let log =
      fixes.map { device, latitude, longitude in
        #"{"type":"geo.location","device":"\#(device)","payload":"#
          + #"{"latitude":\#(latitude),"longitude":\#(longitude)}}"#
      }.joined(separator: "\n") + "\n"
    try directory.write("phones.jsonl", log)
    let page = try await HeadlessBrowser.load(
      try report(["--key-by", "device", directory.file("phones.jsonl")], in: directory))
    // Keys are numbered as first seen: a is 0, b is 1.
    #expect(Self.points(ofLine: "track-line-0", in: page)?.count == 3)
    #expect(Self.points(ofLine: "track-line-1", in: page)?.count == 2)
    #expect(Self.points(ofLine: "track-line", in: page) == nil, "no line joins the keys")
    #expect(page.dom.contains("id=\"track-start-0\"") && page.dom.contains("id=\"track-end-1\""))
    #expect(page.text(ofID: "track-note")?.contains("one track per key (2)") == true)
    let one = try await HeadlessBrowser.load(
      try report(["--key-by", "device", directory.file("phones.jsonl")], in: directory),
      fragment: "key=1")
    #expect(Self.points(ofLine: "track-line-1", in: one)?.count == 2)
    #expect(Self.points(ofLine: "track-line-0", in: one) == nil, "key b alone")
  }

  /// `--assert`: each violation is a mark on the timeline and an entry of the list, whose
  /// button goes to its event — clicked by a test script, the snapshot shown is the one
  /// `rasp replay --at` prints there.
  @Test func marksEachViolationAndGoesThereOnAClick() async throws {
    let directory = try TemporaryDirectory()
    let arguments = [
      "--assert", ".nav.stack | length < 2", "--assert", "never .geo.heading > 300",
      "--assert-final", ".nav.tab == null", Self.example,
    ]
    let check = CommandRun.run(
      ["check", "--max-failures", "0", "--format", "json"] + arguments)
    guard case .array(let violations)? = try json(check.standardOutput)["violations"] else {
      Issue.record("no violations from rasp check: \(check.standardError)")
      return
    }
    #expect(violations.count >= 2)
    let original = try String(contentsOfFile: try report(arguments, in: directory), encoding: .utf8)
    let path = directory.file("plain.html")
    try original.write(toFile: path, atomically: true, encoding: .utf8)
    let page = try await HeadlessBrowser.load(path)
    #expect(!page.isHidden("violations"))
    #expect(page.count(of: "class=\"violation-mark\"") == violations.count)
    for (index, violation) in violations.enumerated() {
      guard case .number(let seq)? = violation["seq"] else { continue }
      // The example log's events are its lines: event n is seq n.
      #expect(page.dom.contains("id=\"violation-\(index)\" data-event=\"\(seq)\""), "\(index)")
    }
    let clicked = try await HeadlessBrowser.load(
      try Self.driven(original, by: Self.violationDriver, in: directory), fragment: "event=1")
    #expect(clicked.text(ofID: "test-done") == "yes", "the test script did not finish")
    guard case .number(let first)? = violations.first?["seq"] else { return }
    #expect(clicked.text(ofID: "test-event") == "\(first)")
    let at = CommandRun.run(["replay", "--at", "#\(first)", Self.example]).standardOutput
    #expect(try json(clicked.text(ofID: "test-snapshot")) == json(at))
  }

  /// Clicks the first violation's button, then waits until the page shows its event.
  static let violationDriver = """
    <script>
    (function () {
      window.requestAnimationFrame = function (draw) { return setTimeout(draw, 16); };
      function out(name, value) {
        var pre = document.createElement('pre');
        pre.id = 'test-' + name;
        pre.textContent = value;
        document.body.appendChild(pre);
      }
      setTimeout(function () {
        var button = document.getElementById('violation-0');
        var wanted = button.getAttribute('data-event');
        button.click();
        var tries = 0;
        (function wait() {
          var shown = document.getElementById('event-number').value;
          if (shown !== wanted && ++tries < 500) { setTimeout(wait, 20); return; }
          out('event', shown);
          out('snapshot', document.getElementById('snapshot-json').textContent);
          out('done', 'yes');
        })();
      }, 50);
    })();
    </script>
    """

  @Test func keepsHostileStringsAsText() async throws {
    let directory = try TemporaryDirectory()
    let log = directory.file("hostile.jsonl")
    let hostile = [
      "</script><script>document.body.setAttribute('data-pwned','1')</script>",
      "<!--", "<img src=x onerror=\\\"document.body.setAttribute('data-pwned','2')\\\">",
      "\u{2028}\u{2029}&amp;", "]]></svg><svg onload=alert(1)>",
    ]
    var lines = hostile.enumerated().map { index, text in
      #"{"type":"data.set","payload":{"key":"k\#(index)\#(text)","value":"\#(text)"}}"#
    }
    lines.append(#"{"type":"data.set","payload":{"key":"__proto__","value":{"polluted":1}}}"#)
    lines.append(#"{"type":"zzz.</script><b>x</b>"}"#)
    lines.append(#"{"type":"nav.push","payload":{"screen":"<b>bold</b>"}},"#)
    try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
    let path = try report(["--on-error", "skip", log], in: directory)
    let page = try await HeadlessBrowser.load(path, fragment: "event=\(hostile.count + 1)")
    #expect(page.dom.contains("data-ready=\"true\""), "the script did not run to its end")
    // The hostile strings are shown as text, escaped in the DOM, never as elements.
    let body = page.dom.components(separatedBy: "<body")[1].prefix { $0 != ">" }
    #expect(!body.contains("data-pwned"), "a payload's script ran")
    #expect(page.count(of: "<script") == 2, "only the page's own two scripts")
    #expect(!page.dom.contains("<img"))
    #expect(!page.dom.contains("<b>"))
    #expect(!page.dom.contains("<svg onload"))
    #expect(page.dom.contains("&lt;/script&gt;&lt;script&gt;document.body.setAttribute"))
    let at = CommandRun.run(["replay", "--on-error", "skip", "--at", "#\(hostile.count + 1)", log])
    #expect(try json(page.text(ofID: "snapshot-json")) == json(at.standardOutput))
  }

  @Test func makesNoNetworkRequest() async throws {
    let directory = try TemporaryDirectory()
    let page = try await HeadlessBrowser.load(try report([Self.example], in: directory))
    #expect(page.requestedURLs.isEmpty, "\(page.requestedURLs)")
    #expect(page.dom.contains("default-src 'none'"))
    for attribute in ["src=\"", "href=\"", "url("] {
      #expect(!page.dom.contains(attribute), "a resource reference: \(attribute)")
    }
    // The net log does see a page that asks for something.
    let control = directory.file("control.html")
    try #"<!DOCTYPE html><img src="http://example.invalid/a.png">"#.write(
      toFile: control, atomically: true, encoding: .utf8)
    await #expect(
      try HeadlessBrowser.load(control).requestedURLs == ["http://example.invalid/a.png"])
  }

  @Test func saysSoWhenTheLogIsEmpty() async throws {
    let directory = try TemporaryDirectory()
    let log = directory.file("empty.jsonl")
    _ = FileManager.default.createFile(atPath: log, contents: Data())
    let page = try await HeadlessBrowser.load(try report([log], in: directory))
    #expect(!page.isHidden("empty"))
    #expect(page.text(ofID: "stat-events") == "0")
    #expect(page.dom.contains("data-ready=\"true\""))
  }

  @Test(arguments: [2, 13, 20])
  func showsEveryKeysStateThatReplayAtPrints(event: Int) async throws {
    let directory = try TemporaryDirectory()
    let path = try report(["--key-by", "source", Self.example], in: directory)
    let page = try await HeadlessBrowser.load(path, fragment: "event=\(event)")
    let at = CommandRun.run(["replay", "--key-by", "source", "--at", "#\(event)", Self.example])
    let expected = try at.standardOutput.split(separator: "\n").map { try json(String($0)) }
    let shown = try (page.text(ofID: "snapshot-json") ?? "").split(separator: "\n").map {
      try json(String($0))
    }
    #expect(shown == expected)
  }

  @Test func picksKeysAndShowsEachKeysState() async throws {
    let directory = try TemporaryDirectory()
    let path = try report(["--key-by", "source", Self.example], in: directory)
    let page = try await HeadlessBrowser.load(path, fragment: "event=9")
    let at = CommandRun.run(["replay", "--key-by", "source", "--at", "#9", Self.example])
    let expected = try at.standardOutput.split(separator: "\n").map { try json(String($0)) }
    let shown = try (page.text(ofID: "snapshot-json") ?? "").split(separator: "\n").map {
      try json(String($0))
    }
    #expect(shown == expected)
    let keys = Set(expected.compactMap { $0["key"] }).count
    #expect(page.count(of: "<option") == keys + 1, "each key, and all keys")
    // One key's state alone: keys are numbered as first seen, so 3 is 'compass'.
    let compass = try await HeadlessBrowser.load(path, fragment: "event=9&key=3")
    let state = expected.first { $0["key"] == .string("compass") }?["state"]
    #expect(try json(compass.text(ofID: "snapshot-json")) == state)
  }

  @Test func plotsTheSelectedValueAlone() async throws {
    let directory = try TemporaryDirectory()
    let page = try await HeadlessBrowser.load(
      try report(["--select", "geo.heading", Self.example], in: directory))
    #expect(page.count(of: "class=\"plot\"") == 1)
    #expect(page.dom.contains("data-series=\"geo.heading\""))
  }

  /// The arrow keys, the legend and hovering a plot, driven by events a test script of its own
  /// sends to the page's handlers: in a copy of the report without its Content-Security-Policy,
  /// which would refuse the test's script (the policy itself is `makesNoNetworkRequest`'s).
  @Test func stepsWithTheKeysHidesAPlotFromTheLegendAndShowsValuesOnHover() async throws {
    let directory = try TemporaryDirectory()
    let original = try String(
      contentsOfFile: try report([Self.example], in: directory), encoding: .utf8)
    let driven = try await HeadlessBrowser.load(
      try Self.driven(original, by: Self.driver, in: directory), fragment: "event=5")
    #expect(driven.text(ofID: "test-done") == "yes", "the test script did not finish")
    let atFour = CommandRun.run(["replay", "--at", "#4", Self.example]).standardOutput
    #expect(try json(driven.text(ofID: "test-after-left")) == json(atFour))
    let initial = CommandRun.run(["replay", "--at", "2000-01-01T00:00:00Z", Self.example])
    #expect(try json(driven.text(ofID: "test-after-home")) == json(initial.standardOutput))
    let plots = Int(driven.text(ofID: "test-plots-before") ?? "") ?? 0
    #expect(plots > 1)
    #expect(driven.text(ofID: "test-plots-after") == String(plots - 1))
    #expect(driven.text(ofID: "test-heading-plot") == "false")
    let accuracy = CommandRun.run(["replay", "--final", "--select", "geo.accuracy", Self.example])
      .standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(
      driven.text(ofID: "test-tooltip")?.hasPrefix("geo.accuracy = \(accuracy)  at #20") == true,
      "\(driven.text(ofID: "test-tooltip") ?? "no tooltip")")
  }

  struct NotAReport: Error {}

  /// Writes a copy of the report `page` that runs the test's `script` at its end, without the
  /// Content-Security-Policy that would refuse it, and returns the copy's path.
  static func driven(_ page: String, by script: String, in directory: TemporaryDirectory)
    throws -> String
  {
    guard let policy = page.range(of: #"<meta http-equiv="Content-Security-Policy""#),
      let policyEnd = page[policy.upperBound...].range(of: ">"),
      let bodyEnd = page.range(of: "</body>", options: .backwards)
    else {
      Issue.record("the report has no policy or no </body>")
      throw NotAReport()
    }
    var copy = page
    copy.replaceSubrange(bodyEnd, with: script + "</body>")
    copy.removeSubrange(policy.lowerBound..<policyEnd.upperBound)
    let path = directory.file("driven.html")
    try copy.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The test's script: each step after the page has drawn the one before. A headless
  /// `--dump-dom` run draws no frames once the page has loaded, so the page's
  /// `requestAnimationFrame` is stood in for by a timer.
  static let driver = """
    <script>
    (function () {
      window.requestAnimationFrame = function (draw) { return setTimeout(draw, 16); };
      function out(name, value) {
        var pre = document.createElement('pre');
        pre.id = 'test-' + name;
        pre.textContent = value;
        document.body.appendChild(pre);
      }
      function key(name) {
        document.body.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));
      }
      function snapshot() { return document.getElementById('snapshot-json').textContent; }
      setTimeout(function () {
        key('ArrowLeft');
        setTimeout(function () {
          out('after-left', snapshot());
          key('Home');
          setTimeout(function () {
            out('after-home', snapshot());
            out('plots-before', String(document.querySelectorAll('.plot').length));
            var box = document.querySelector('input[type=checkbox][data-series="geo.heading"]');
            box.checked = false;
            box.dispatchEvent(new Event('change'));
            out('plots-after', String(document.querySelectorAll('.plot').length));
            var heading = document.querySelector('.plot[data-series="geo.heading"]');
            out('heading-plot', String(!!heading));
            var svg = document.querySelector('.plot[data-series="geo.accuracy"] svg');
            var r = svg.getBoundingClientRect();
            svg.dispatchEvent(new MouseEvent('mousemove',
              { clientX: r.right - 1, clientY: r.top + 5, bubbles: true }));
            out('tooltip', document.getElementById('tooltip').textContent);
            out('done', 'yes');
          }, 200);
        }, 200);
      }, 200);
    })();
    </script>
    """
}
