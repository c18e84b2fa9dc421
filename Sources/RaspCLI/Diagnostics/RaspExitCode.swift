/// The exit statuses of `rasp`, after diff(1) and sysexits(3).
///
/// | Status | Meaning                                                   |
/// |--------|-----------------------------------------------------------|
/// | 0      | Success (also when a reader of the output went away).     |
/// | 1      | Differences found (`check`, `diff`).                      |
/// | 2      | Bad input or a runtime error: a bad line, an unreadable file. |
/// | 64     | Usage error: an unknown option, a missing argument.       |
/// | 129, 130, 143 | Stopped by `SIGHUP`, `SIGINT` (Ctrl-C) or `SIGTERM`: 128 + signal number. |
///
/// A signal stops `rasp` after it printed what it had replayed; the status is the one a shell
/// reports for a command killed by the signal, as `rasp` then dies of it.
///
/// ```swift
/// let status = RaspCommandLine.run(arguments: ["replay", "--bogus"], environment: environment)
/// status == RaspExitCode.usage.rawValue   // true
/// ```
public enum RaspExitCode: Int32, Sendable {
  /// Everything went well.
  case success = 0
  /// The compared snapshot streams differ.
  case differences = 1
  /// Bad input or a runtime error.
  case failure = 2
  /// The command line is wrong.
  case usage = 64
  /// `SIGHUP` stopped the command.
  case hungUp = 129
  /// `SIGINT` (Ctrl-C) stopped the command.
  case interrupted = 130
  /// `SIGTERM` stopped the command.
  case terminated = 143

  /// The status for a command stopped by `signal`: 128 plus its number.
  ///
  /// ```swift
  /// RaspExitCode.signal(SIGINT)   // .interrupted (130)
  /// ```
  ///
  /// - Parameter signal: `SIGHUP`, `SIGINT` or `SIGTERM`; any other counts as `SIGINT`.
  /// - Returns: The status.
  public static func signal(_ signal: Int32) -> RaspExitCode {
    RaspExitCode(rawValue: 128 + signal) ?? .interrupted
  }
}
