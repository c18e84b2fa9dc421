#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspCLI
import RaspJSON

/// Replays an input in-process with memory streams, checking that:
///
/// - the run ends with the `--stats` summary, and the summary adds up:
///   `read == applied + skipped + ignored + blank`; every line of the log is read, unless
///   `--on-error fail` stopped the replay at its first bad line, which then counts as skipped;
/// - the exit status is 0 exactly when no line was bad;
/// - the run closes the files it opened (see ``FileDescriptorCheck``);
/// - without `--pretty`, every line of standard output is one JSON value.
enum ReplayCheck {
  /// The file that holds the log for runs that read it from a file: one per process.
  private static let copyPath = "/tmp/rasp-fuzz-\(getpid()).jsonl"
  /// Whether to print each command line and its standard error: `RASP_FUZZ_VERBOSE=1`, to
  /// look at what a crashing input does.
  private static let isVerbose = getenv("RASP_FUZZ_VERBOSE") != nil

  static func run(_ commandLine: FuzzCommandLine) {
    let input = commandLine.log
    let files =
      [commandLine.readsFromFile ? copyPath : "-"] + (commandLine.readsTwice ? [copyPath] : [])
    let usesCopy = files.contains(copyPath)
    if usesCopy { writeCopy(input) }
    defer { if usesCopy { unlink(copyPath) } }
    let output = RaspMemoryOutput()
    let errors = RaspMemoryOutput()
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource(input, chunkSize: commandLine.inputChunkSize)),
      standardOutput: output, standardError: errors, variables: [:], workingDirectory: "/")
    let arguments = commandLine.options + files
    let status = RaspCommandLine.run(arguments: arguments, environment: environment)
    let context = "'rasp \(arguments.joined(separator: " "))' exited \(status)"
    if isVerbose { FuzzFailure.log("\(context)\n\(errors.text)") }
    if usesCopy { FileDescriptorCheck.expectClosed(copyPath, context: context) }
    guard let stats = ReplayStatsLine(lastLineOf: errors.bytes) else {
      FuzzFailure.fail("\(context) without a --stats summary; stderr: \(errors.text)")
    }
    let lines = LineModel.count(of: input) * files.count
    // A batch line counts once in `read`, and each of its events once after it.
    let events = stats.read - stats.batchLines + stats.batchEvents
    guard events == stats.applied + stats.skipped + stats.ignored + stats.blank else {
      FuzzFailure.fail("\(context): '\(stats.text)' does not add up")
    }
    guard (status == 0) == (stats.skipped == 0), status == 0 || status == 2 else {
      FuzzFailure.fail("\(context) after '\(stats.text)'")
    }
    // A replay reads every line, unless --on-error fail stops it at the first bad one.
    let stopped = commandLine.stopsAtBadLine && stats.skipped > 0
    guard stopped ? stats.skipped == 1 && stats.read <= lines : stats.read == lines else {
      FuzzFailure.fail("\(context): '\(stats.text)' for \(lines) lines")
    }
    if !commandLine.isPretty { checkOutputLines(output.bytes, context: context) }
  }

  /// Checks that every line of standard output is one JSON value.
  private static func checkOutputLines(_ bytes: [UInt8], context: String) {
    guard !bytes.isEmpty else { return }
    guard bytes.last == 0x0A else {
      FuzzFailure.fail("\(context): standard output does not end with a line end")
    }
    for line in bytes.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false) {
      let result = Array(line).withUnsafeBufferPointer { buffer in
        Result { () throws(JSONError) -> JSONValue in try JSONParser.parse(buffer) }
      }
      if case .failure(let error) = result {
        FuzzFailure.fail(
          "\(context): output line '\(String(decoding: line, as: UTF8.self))' is not JSON: \(error)"
        )
      }
    }
  }

  /// Writes the input to ``copyPath``.
  private static func writeCopy(_ input: [UInt8]) {
    let descriptor = open(copyPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { FuzzFailure.fail("cannot create \(copyPath): errno \(errno)") }
    defer { close(descriptor) }
    let written = input.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == input.count else {
      FuzzFailure.fail("cannot write \(copyPath): errno \(errno)")
    }
  }
}

/// The summary that `--stats` writes last on standard error:
/// `rasp: 12 lines read: 9 applied, 1 skipped, 2 ignored (1 of unknown type, 1 of other domains), 0 blank`.
struct ReplayStatsLine {
  let text: String
  let read: Int
  let applied: Int
  let skipped: Int
  let ignored: Int
  let blank: Int
  /// Lines that held batches, and their events: `…, 2 of them batches of 5 events: …`.
  let batchLines: Int
  let batchEvents: Int

  /// Reads the summary from the last line of `standardError`, or fails when it is not one.
  init?(lastLineOf standardError: [UInt8]) {
    guard standardError.last == 0x0A else { return nil }
    let lastLine =
      standardError.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false).last ?? []
    text = String(decoding: lastLine, as: UTF8.self)
    let words = text.split(separator: " ").map(String.init)
    /// The number just before the first word `word`.
    func count(before word: String) -> Int? {
      guard let index = words.firstIndex(of: word), index > 0 else { return nil }
      return Int(words[index - 1])
    }
    guard words.first == "rasp:", words.count > 2, words[2] == "lines" || words[2] == "line",
      let read = Int(words[1]), let applied = count(before: "applied,"),
      let skipped = count(before: "skipped,"),
      let ignored = count(before: "ignored,") ?? count(before: "ignored"),
      let blank = count(before: "blank")
    else { return nil }
    // The reasons for ignoring, when given, add up to the ignored count.
    if let opening = text.firstIndex(of: "("), let closing = text.lastIndex(of: ")"),
      opening < closing
    {
      let reasons = text[text.index(after: opening)..<closing].split(separator: ",")
      let counts = reasons.map { Int($0.split(separator: " ").first ?? "") }
      guard !counts.contains(nil), counts.reduce(0, { $0 + $1! }) == ignored else { return nil }
    } else if text.contains("ignored (") {
      return nil
    }
    (self.read, self.applied, self.skipped, self.ignored, self.blank) = (
      read, applied, skipped, ignored, blank
    )
    if let them = words.firstIndex(of: "them"), them > 0, words[them - 1] == "of",
      them >= 2, let lines = Int(words[them - 2]),
      let of = words[(them + 1)...].firstIndex(of: "of"), of + 1 < words.count,
      let events = Int(words[of + 1])
    {
      (batchLines, batchEvents) = (lines, events)
    } else {
      (batchLines, batchEvents) = (0, 0)
    }
  }
}
