#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What an output stream writes to, as far as a person at a terminal is concerned: the
/// terminal itself, another program (a pipe: `| less`, `| head`, `| jq`), or somewhere no one
/// watches as it is written (a file, `/dev/null`).
///
/// The progress line needs to know: it is drawn on standard error when that is a terminal,
/// erased before anything reaches the same terminal on standard output, and left out when
/// standard output is a pipe, whose reader writes to that terminal without rasp knowing when.
///
/// ```swift
/// RaspFileOutput(descriptor: 1).destination   // .pipe in `rasp replay log | less`
/// ```
public enum RaspOutputDestination: Equatable, Sendable {
  /// A terminal; `device` tells two terminals apart (`nil` when unknown, as in tests, where
  /// any two are taken for the same).
  case terminal(device: UInt64?)
  /// A pipe or a socket: another program reads what is written.
  case pipe
  /// A regular file, a device that is no terminal, or memory.
  case file

  /// Whether this is a terminal.
  ///
  /// ```swift
  /// RaspOutputDestination.pipe.isTerminal   // false
  /// ```
  public var isTerminal: Bool {
    if case .terminal = self { return true }
    return false
  }

  /// Whether this and `other` are one terminal, such as standard output and standard error
  /// at a shell's prompt.
  ///
  /// ```swift
  /// RaspOutputDestination.terminal(device: 34816).isSameTerminal(as: .terminal(device: 34816))
  /// // true
  /// ```
  ///
  /// - Parameter other: Another destination.
  /// - Returns: `true` when both are terminals and no device number tells them apart.
  public func isSameTerminal(as other: RaspOutputDestination) -> Bool {
    guard case .terminal(let device) = self, case .terminal(let otherDevice) = other else {
      return false
    }
    guard let device, let otherDevice else { return true }
    return device == otherDevice
  }

  /// The destination of an open file descriptor.
  ///
  /// ```swift
  /// RaspOutputDestination.of(descriptor: 2)   // .terminal(device: 34817) at a prompt
  /// ```
  ///
  /// - Parameter descriptor: An open descriptor.
  /// - Returns: Its destination; ``file`` when it cannot be told.
  public static func of(descriptor: Int32) -> RaspOutputDestination {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return .file }
    if isatty(descriptor) == 1 { return .terminal(device: UInt64(status.st_rdev)) }
    let type = status.st_mode & S_IFMT
    return type == S_IFIFO || type == S_IFSOCK ? .pipe : .file
  }
}
