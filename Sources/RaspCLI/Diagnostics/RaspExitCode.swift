/// The exit statuses of `rasp`, after diff(1) and sysexits(3).
///
/// | Status | Meaning                                                   |
/// |--------|-----------------------------------------------------------|
/// | 0      | Success (also when a reader of the output went away).     |
/// | 1      | Differences found (`check`, `diff`).                      |
/// | 2      | Bad input or a runtime error: a bad line, an unreadable file. |
/// | 64     | Usage error: an unknown option, a missing argument.       |
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
}
