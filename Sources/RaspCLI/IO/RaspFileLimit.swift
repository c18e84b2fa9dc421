#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspReplay

/// The process's limit on open files, which a replay of many logs meets: every input of a
/// replay stays open while it runs, and `--concat app.log.*` over years of rotated parts can
/// name more files than the usual soft limit of 1,024.
///
/// The command line raises the soft limit to the hard one when it starts, as Go programs and
/// many servers do: the hard limit is what the system lets the process have, and the soft one
/// only a default. A replay that still runs out says how many files it may open.
///
/// ```swift
/// RaspFileLimit.raiseToHardLimit()
/// RaspFileLimit.softLimit   // 524288 where the hard limit is that
/// ```
enum RaspFileLimit {
  /// Raises the soft limit on open files to the hard limit; does nothing when it cannot.
  static func raiseToHardLimit() {
    var limit = rlimit()
    guard getrlimit(limitNumber, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(limitNumber, &limit)
  }

  /// How many files the process may have open, when the system says.
  static var softLimit: Int? {
    var limit = rlimit()
    guard getrlimit(limitNumber, &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
    return Int(exactly: limit.rlim_cur)
  }

  /// The reason a file could not be opened, `errno` being `code`: the system's message, and,
  /// when the process has too many files open, how many it may have and how to allow more.
  ///
  /// ```swift
  /// RaspFileLimit.reason(EMFILE)
  /// // "Too many open files (a replay keeps each of its inputs open, and this process may have
  /// // 1024 files open: raise the limit with 'ulimit -n')"
  /// ```
  static func reason(_ code: Int32) -> String {
    let message = RaspSystemError.message(code)
    guard code == EMFILE else { return message }
    let allowed = softLimit.map { "this process may have \($0) files open" } ?? "files are limited"
    return message + " (a replay keeps each of its inputs open, and \(allowed):"
      + " raise the limit with 'ulimit -n')"
  }

  #if canImport(Glibc)
    private static let limitNumber = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
  #else
    private static let limitNumber = RLIMIT_NOFILE
  #endif
}
