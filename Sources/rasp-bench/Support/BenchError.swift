#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a benchmark could not run, or found the tools disagreeing.
enum BenchError: Error, CustomStringConvertible {
  /// A system call failed.
  case system(String, Int32)
  /// A file could not be read or written.
  case file(String)
  /// A tool exited with a failure status, or (status 0) wrote on standard error where that
  /// counts as failing.
  case toolFailed(command: String, status: Int32, standardError: String)
  /// Two tools' outputs differ.
  case mismatch(String)

  /// The exit status a benchmark ends with: 1 when the tools failed or disagree, 2 when the
  /// benchmark itself could not run.
  var exitStatus: Int32 {
    switch self {
    case .mismatch, .toolFailed: 1
    case .system, .file: 2
    }
  }

  var description: String {
    switch self {
    case .system(let call, let code):
      return "\(call): \(String(cString: strerror(code)))"
    case .file(let message):
      return message
    case .toolFailed(let command, let status, let standardError):
      let errors = standardError.isEmpty ? "" : ":\n" + standardError
      guard status != 0 else { return "'\(command)' wrote on standard error\(errors)" }
      return "'\(command)' exited with status \(status)\(errors)"
    case .mismatch(let message):
      return "the outputs differ: " + message
    }
  }
}
