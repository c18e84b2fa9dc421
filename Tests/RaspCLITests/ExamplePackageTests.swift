import Foundation
import Testing
import RaspTestSupport

/// Builds the example package `Examples/custom-domain` — a Swift domain of its own run by
/// `RaspCommandLine.main(domains:)` — and runs its `cart-rasp` executable on its events.
///
/// The build compiles the rasp libraries again into `.build-examples`, which takes a minute the
/// first time. Set `RASP_SKIP_EXAMPLES=1` to skip it.
@Suite(
  .serialized, .timeLimit(.minutes(10)),
  .disabled(if: ProcessInfo.processInfo.environment["RASP_SKIP_EXAMPLES"] == "1"))
struct ExamplePackageTests {
  static let package = Repository.path("Examples/custom-domain")
  static let scratch = Repository.path(".build-examples")

  /// Builds the package once, and returns the executable's path: awaited by every test, built
  /// by the first, on threads of its own.
  static let executable = Task<Result<String, BuildFailure>, Never> {
    let build = await Shell.run(
      "/usr/bin/env",
      [
        "swift", "build", "--package-path", package, "--scratch-path", scratch,
        "--disable-build-manifest-caching",
      ])
    guard build.status == 0 else {
      return .failure(
        BuildFailure(status: build.status, output: build.standardOutput + build.standardError))
    }
    return .success(scratch + "/debug/cart-rasp")
  }

  /// The example app that records its cart, built with the package.
  static var app: String { scratch + "/debug/cart-app" }

  struct BuildFailure: Error, CustomStringConvertible {
    let status: Int32
    let output: String

    var description: String {
      let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
      let tail = lines.suffix(40).joined(separator: "\n")
      return
        "swift build --package-path Examples/custom-domain failed with status \(status):\n\(tail)"
    }
  }

  @Test func replaysItsEventsWithTheSwiftDomain() async throws {
    let executable = try await Self.executable.value.get()
    let run = await Shell.run(
      executable, ["replay", "--domain", "cart", "events.jsonl"], in: Self.package)
    #expect(run.status == 0, "cart-rasp replay: exit status; standard error:\n\(run.standardError)")
    let expected = try String(contentsOfFile: Self.package + "/expected.jsonl", encoding: .utf8)
    expectSameLines(expected, run.standardOutput, "cart-rasp replay --domain cart events.jsonl")
  }

  @Test func keepsTheBuiltInDomainsAndEveryOption() async throws {
    let executable = try await Self.executable.value.get()
    let run = await Shell.run(
      executable, ["replay", "--select", "geo.heading", "--final", "events.jsonl"], in: Self.package
    )
    #expect(run.status == 0, "standard error:\n\(run.standardError)")
    #expect(run.standardOutput == "90\n")
  }

  @Test func checksAndDiffsWithTheSwiftDomain() async throws {
    let executable = try await Self.executable.value.get()
    let check = await Shell.run(
      executable, ["check", "--domain", "cart", "--golden", "expected.jsonl", "events.jsonl"],
      in: Self.package)
    #expect(check.status == 0, "cart-rasp check: standard error:\n\(check.standardError)")
    let snapshots = try String(contentsOfFile: Self.package + "/expected.jsonl", encoding: .utf8)
    let count = snapshots.split(separator: "\n").count
    #expect(check.standardError == "cart-rasp: \(count) snapshots match 'expected.jsonl'\n")
    let changed = snapshots.replacingOccurrences(of: "A-1", with: "A-2")
    #expect(changed != snapshots, "the golden file names item A-1")
    let diff = await Shell.run(
      executable, ["diff", "expected.jsonl", "-"], in: Self.package, input: Array(changed.utf8))
    #expect(diff.status == 1, "cart-rasp diff: standard error:\n\(diff.standardError)")
    let lines = diff.standardOutput.split(separator: "\n")
    #expect(
      lines.first == "snapshot 1 (<stdin>:1) differs from expected.jsonl:1:",
      "\(diff.standardOutput)")
    #expect(
      lines.contains { $0.hasPrefix("-") && $0.hasSuffix(#""sku": "A-1""#) }, "the expected item")
    #expect(
      lines.contains { $0.hasPrefix("+") && $0.hasSuffix(#""sku": "A-2""#) }, "the actual item")
  }

  @Test func recordsAnAppsCartAsALogThatReplaysAndChecks() async throws {
    let executable = try await Self.executable.value.get()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("cart-app-" + UUID().uuidString).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let app = await Shell.run(Self.app, ["session.jsonl", "session.golden.jsonl"], in: directory)
    #expect(app.status == 0, "cart-app: standard error:\n\(app.standardError)")
    // Five sends, of which the reducer refuses one: four events recorded.
    #expect(app.standardOutput == "recorded 4 events, dropped 0\n")
    let log = try String(contentsOfFile: directory + "/session.jsonl", encoding: .utf8)
    #expect(
      log == """
        {"type":"cart.add","ts":"2026-11-22T10:00:00Z","payload":{"price":1999,"quantity":1,\
        "sku":"A-1"}}
        {"type":"cart.add","ts":"2026-11-22T10:00:01Z","payload":{"price":550,"quantity":2,\
        "sku":"B-2"}}
        {"type":"cart.remove","ts":"2026-11-22T10:00:02Z","payload":{"sku":"A-1"}}
        {"type":"cart.checkout","ts":"2026-11-22T10:00:03Z"}

        """)
    let replay = await Shell.run(
      executable, ["replay", "--domain", "cart", "session.jsonl"], in: directory)
    #expect(replay.status == 0, "cart-rasp replay: standard error:\n\(replay.standardError)")
    #expect(
      replay.standardOutput == """
        {"cart":{"items":[{"price":1999,"quantity":1,"sku":"A-1"}],"orders":0,"total":1999}}
        {"cart":{"items":[{"price":1999,"quantity":1,"sku":"A-1"},\
        {"price":550,"quantity":2,"sku":"B-2"}],"orders":0,"total":3099}}
        {"cart":{"items":[{"price":550,"quantity":2,"sku":"B-2"}],"orders":0,"total":1100}}
        {"cart":{"items":[],"orders":1,"total":0}}

        """)
    let check = await Shell.run(
      executable, ["check", "--golden", "session.golden.jsonl", "session.jsonl"], in: directory)
    #expect(check.status == 0, "cart-rasp check: standard error:\n\(check.standardError)")
    #expect(check.standardError == "cart-rasp: 4 snapshots match 'session.golden.jsonl'\n")
  }

  @Test func comparesTheCartWithItsNextVersion() async throws {
    let executable = try await Self.executable.value.get()
    let run = await Shell.run(
      executable,
      ["compare", "--domain", "cart", "--allow", "add:cart.count", "events.jsonl", "free.jsonl"],
      in: Self.package)
    #expect(run.status == 1, "cart-rasp compare: standard error:\n\(run.standardError)")
    // By hand: the next version adds `count` to every state of events.jsonl's five cart
    // events, which --allow allows; free.jsonl's second add has no price, which the old
    // version rejects and the next takes as free.
    let expected = """
      events.jsonl: only allowed differences (5)
      free.jsonl: divergent at event 2 (free.jsonl:2):
        event {"payload":{"sku":"G-1"},"ts":"2026-11-22T11:00:05Z","type":"cart.add"}
      - the old version rejects it: free.jsonl:2:58: missing required field 'payload.price'
        {
          "cart": {
            ... (1 unchanged),
            "items": [
              ... (1 unchanged),
      +       [1]: {"price":0,"quantity":1,"sku":"G-1"}
            ],
            ... (2 unchanged)
          }
        }

      """
    #expect(run.standardOutput == expected)
    let summary = "cart-rasp: 2 logs: 0 identical, 1 with only allowed differences, 1 divergent\n"
    #expect(run.standardError.hasSuffix(summary))
    // docs/compare.md shows the same output.
    let page = try String(contentsOfFile: Repository.path("docs/compare.md"), encoding: .utf8)
    #expect(page.contains(expected + summary))
    let identical = await Shell.run(
      executable, ["compare", "--domain", "cart", "events.jsonl"], in: Self.package)
    #expect(identical.status == 1, "without --allow, the new member is a divergence")
    #expect(
      identical.standardOutput.hasPrefix("events.jsonl: divergent at event 1 (events.jsonl:1):"))
  }

  @Test func namesItselfInItsHelpAndItsErrors() async throws {
    let executable = try await Self.executable.value.get()
    let help = await Shell.run(executable, ["replay", "--help"], in: Self.package)
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("cart-rasp replay [--select <path>]"))
    #expect(!help.standardOutput.contains("Usage: rasp "))
    let usage = await Shell.run(executable, ["replay", "--selct", "x"], in: Self.package)
    #expect(usage.status == 64)
    #expect(usage.standardError.hasPrefix("cart-rasp: error: unknown option '--selct'"))
    #expect(usage.standardError.contains("See 'cart-rasp replay --help'"))
  }

  @Test func reportsEventsThatItsReducerRefuses() async throws {
    let executable = try await Self.executable.value.get()
    let log = #"{"type":"cart.remove","payload":{"sku":"Z-9"}}"# + "\n"
    let run = await Shell.run(executable, ["replay"], in: Self.package, input: Array(log.utf8))
    #expect(run.status == 2)
    #expect(run.standardOutput.isEmpty)
    #expect(run.standardError == "<stdin>:1:1: error: event rejected: 'Z-9' is not in the cart\n")
  }
}

/// Runs a program and collects what it printed, waiting on threads of its own.
enum Shell {
  struct Result {
    let status: Int32
    let standardOutput: String
    let standardError: String
  }

  static func run(
    _ program: String, _ arguments: [String], in directory: String? = nil, input: [UInt8] = []
  ) async -> Result {
    do {
      let result = try await TestProcess.run(program, arguments, in: directory, input: input)
      return Result(
        status: result.status, standardOutput: result.text, standardError: result.standardError)
    } catch {
      return Result(
        status: -1, standardOutput: "", standardError: "cannot run \(program): \(error)")
    }
  }
}
