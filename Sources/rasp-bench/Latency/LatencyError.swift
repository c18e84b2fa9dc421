/// Why `rasp-bench latency` gave no figures: it could not run, or the replay did not answer
/// every line with one snapshot.
///
/// The benchmark's figures only mean something when line `i` of the output is the snapshot of
/// event `i`, so any replay that fails, stops reading, or prints a different number of lines
/// ends the benchmark instead of being measured. Each case carries what a reader needs to see
/// why — the command, the counts, and the replay's standard error — and its exit status: 1 for
/// a replay that misbehaved, 2 for a benchmark that could not run, as in `rasp-bench replay`.
enum LatencyError: Error, CustomStringConvertible {
  /// A pipe, a thread, the process or a read failed in the benchmark itself.
  case cannotRun(BenchError)
  /// The replay exited with a status other than 0.
  case replayFailed(command: String, status: Int32, standardError: String)
  /// The replay stopped reading its input before the last line (write(2) failed with `code`).
  case inputRefused(
    command: String, linesWritten: Int, lines: Int, code: Int32, standardError: String)
  /// The replay printed another number of snapshot lines than there were events.
  case wrongLineCount(
    command: String, expected: Int, actual: Int, hasUnfinishedLine: Bool, standardError: String)

  /// The exit status the benchmark ends with.
  var exitStatus: Int32 {
    switch self {
    case .cannotRun: 2
    case .replayFailed, .inputRefused, .wrongLineCount: 1
    }
  }

  var description: String {
    switch self {
    case .cannotRun(let error):
      return error.description
    case .replayFailed(let command, let status, let standardError):
      return "'\(command)' exited with status \(status)" + Self.quoted(standardError)
    case .inputRefused(let command, let written, let lines, let code, let standardError):
      let reason = BenchError.system("write", code).description
      return "'\(command)' stopped reading its input after \(BenchFormat.lines(written)) of "
        + "\(BenchFormat.grouped(lines)) (\(reason))" + Self.quoted(standardError)
    case .wrongLineCount(let command, let expected, let actual, let unfinished, let errors):
      let tail = unfinished ? " and an unfinished line" : ""
      return "'\(command)' printed \(BenchFormat.lines(actual))\(tail) for "
        + "\(BenchFormat.grouped(expected)) events; every event should give one snapshot line"
        + Self.quoted(errors)
    }
  }

  /// The replay's standard error after a colon and a line break, without its last line feed,
  /// or nothing when it is empty.
  private static func quoted(_ standardError: String) -> String {
    let text = standardError.hasSuffix("\n") ? String(standardError.dropLast()) : standardError
    return text.isEmpty ? "" : ":\n" + text
  }
}
