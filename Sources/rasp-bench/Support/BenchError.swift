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
  /// A tool exited with a failure status.
  case toolFailed(command: String, status: Int32, standardError: String)
  /// Two tools' outputs differ.
  case mismatch(String)

  var description: String {
    switch self {
    case .system(let call, let code):
      return "\(call): \(String(cString: strerror(code)))"
    case .file(let message):
      return message
    case .toolFailed(let command, let status, let standardError):
      let errors = standardError.isEmpty ? "" : ":\n" + standardError
      return "'\(command)' exited with status \(status)\(errors)"
    case .mismatch(let message):
      return "the outputs differ: " + message
    }
  }
}
