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

  /// Builds the package once, and returns the executable's path.
  static let executable: Result<String, BuildFailure> = {
    let build = Shell.run(
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
  }()

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

  @Test func replaysItsEventsWithTheSwiftDomain() throws {
    let executable = try Self.executable.get()
    let run = Shell.run(
      executable, ["replay", "--domain", "cart", "events.jsonl"], in: Self.package)
    #expect(run.status == 0, "cart-rasp replay: exit status; standard error:\n\(run.standardError)")
    let expected = try String(contentsOfFile: Self.package + "/expected.jsonl", encoding: .utf8)
    expectSameLines(expected, run.standardOutput, "cart-rasp replay --domain cart events.jsonl")
  }

  @Test func keepsTheBuiltInDomainsAndEveryOption() throws {
    let executable = try Self.executable.get()
    let run = Shell.run(
      executable, ["replay", "--select", "geo.heading", "--final", "events.jsonl"], in: Self.package
    )
    #expect(run.status == 0, "standard error:\n\(run.standardError)")
    #expect(run.standardOutput == "90\n")
  }

  @Test func checksAndDiffsWithTheSwiftDomain() throws {
    let executable = try Self.executable.get()
    let check = Shell.run(
      executable, ["check", "--domain", "cart", "--golden", "expected.jsonl", "events.jsonl"],
      in: Self.package)
    #expect(check.status == 0, "cart-rasp check: standard error:\n\(check.standardError)")
    let snapshots = try String(contentsOfFile: Self.package + "/expected.jsonl", encoding: .utf8)
    let count = snapshots.split(separator: "\n").count
    #expect(check.standardError == "cart-rasp: \(count) snapshots match 'expected.jsonl'\n")
    let changed = snapshots.replacingOccurrences(of: "A-1", with: "A-2")
    #expect(changed != snapshots, "the golden file names item A-1")
    let diff = Shell.run(
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

  @Test func recordsAnAppsCartAsALogThatReplaysAndChecks() throws {
    let executable = try Self.executable.get()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("cart-app-" + UUID().uuidString).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let app = Shell.run(Self.app, ["session.jsonl", "session.golden.jsonl"], in: directory)
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
    let replay = Shell.run(
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
    let check = Shell.run(
      executable, ["check", "--golden", "session.golden.jsonl", "session.jsonl"], in: directory)
    #expect(check.status == 0, "cart-rasp check: standard error:\n\(check.standardError)")
    #expect(check.standardError == "cart-rasp: 4 snapshots match 'session.golden.jsonl'\n")
  }

  @Test func namesItselfInItsHelpAndItsErrors() throws {
    let executable = try Self.executable.get()
    let help = Shell.run(executable, ["replay", "--help"], in: Self.package)
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("cart-rasp replay [--select <path>]"))
    #expect(!help.standardOutput.contains("Usage: rasp "))
    let usage = Shell.run(executable, ["replay", "--selct", "x"], in: Self.package)
    #expect(usage.status == 64)
    #expect(usage.standardError.hasPrefix("cart-rasp: error: unknown option '--selct'"))
    #expect(usage.standardError.contains("See 'cart-rasp replay --help'"))
  }

  @Test func reportsEventsThatItsReducerRefuses() throws {
    let executable = try Self.executable.get()
    let log = #"{"type":"cart.remove","payload":{"sku":"Z-9"}}"# + "\n"
    let run = Shell.run(executable, ["replay"], in: Self.package, input: Array(log.utf8))
    #expect(run.status == 2)
    #expect(run.standardOutput.isEmpty)
    #expect(run.standardError == "<stdin>:1:1: error: event rejected: 'Z-9' is not in the cart\n")
  }
}

/// Runs a program and collects what it printed.
enum Shell {
  /// Bytes read on another thread, handed over after `DispatchGroup.wait()`.
  private final class Collected: @unchecked Sendable {
    var data = Data()
  }

  struct Result {
    let status: Int32
    let standardOutput: String
    let standardError: String
  }

  static func run(
    _ program: String, _ arguments: [String], in directory: String? = nil, input: [UInt8] = []
  ) -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let output = Pipe()
    let errors = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = standardInput
    do {
      try process.run()
    } catch {
      return Result(
        status: -1, standardOutput: "", standardError: "cannot run \(program): \(error)")
    }
    // Read standard error on another thread while the process runs, so that neither pipe can
    // fill up and block it.
    let errorText = Collected()
    let errorHandle = errors.fileHandleForReading
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      errorText.data = errorHandle.readDataToEndOfFile()
    }
    standardInput.fileHandleForWriting.write(Data(input))
    try? standardInput.fileHandleForWriting.close()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorText.data, as: UTF8.self))
  }
}
