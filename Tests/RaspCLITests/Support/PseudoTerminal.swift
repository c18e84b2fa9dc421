import Foundation
import RaspTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pseudo-terminal that a command writes to as to a person's terminal: the test reads what
/// it shows (``screen``) and types on it (``type(_:)``).
///
/// The command gets the terminal's other side as its standard input, output or error (see
/// ``TerminalCommand``); `isatty` is true there, and `\n` becomes `\r\n` as on any terminal.
///
/// ```swift
/// let terminal = try PseudoTerminal()
/// let command = try TerminalCommand(["replay", "--final", "-"], on: terminal, input: .pipe)
/// try command.write(log)
/// command.closeInput()
/// try terminal.read(until: { _ in false })   // to the end
/// #expect(terminal.screen.lines == [answer])
/// ```
final class PseudoTerminal {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The side the test reads and types on.
  let primary: Int32
  /// The path of the side a command opens.
  let secondaryPath: String
  /// The terminal's width.
  let columns: Int
  /// Everything the terminal was sent so far.
  private(set) var output: [UInt8] = []
  /// Whether every command on the other side closed it.
  private(set) var isClosed = false

  /// A new pseudo-terminal `columns` wide and `rows` high.
  init(columns: Int = 100, rows: Int = 30) throws {
    // posix_openpt and ptsname are not in Swift's Glibc module: Linux's own way, the
    // multiplexer /dev/ptmx, then TIOCSPTLCK (unlock) and TIOCGPTN (the number in /dev/pts).
    let descriptor = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else { throw Failure(description: "/dev/ptmx: \(errno)") }
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard ioctl(descriptor, 0x4004_5431, &unlock) == 0, ioctl(descriptor, 0x8004_5430, &number) == 0
    else {
      close(descriptor)
      throw Failure(description: "TIOCSPTLCK/TIOCGPTN: \(errno)")
    }
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(descriptor, UInt(TIOCSWINSZ), &size)
    primary = descriptor
    secondaryPath = "/dev/pts/\(number)"
    self.columns = columns
  }

  deinit { close(primary) }

  /// What a person sees now.
  var screen: TerminalScreen { TerminalScreen(output, columns: columns) }

  /// Everything sent so far, as text, escape sequences and all.
  var text: String { String(decoding: output, as: UTF8.self) }

  /// Types `text`, as at the keyboard: the terminal echoes it and passes it to the command
  /// reading it (a line at a time).
  func type(_ text: String) throws {
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(primary, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw Failure(description: "write: \(errno)") }
  }

  /// Reads what arrives until `condition` holds for the screen, or every command on the
  /// other side closed the terminal.
  ///
  /// Nothing here depends on how fast the machine is: it waits for what it is told to see.
  /// `limit` only keeps a test that would never see it from hanging.
  ///
  /// - Returns: Whether `condition` held.
  @discardableResult
  func read(
    until condition: (TerminalScreen) -> Bool, limit: Duration = .seconds(300)
  ) throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition(screen) {
      guard !isClosed else { return false }
      let left = deadline - .now
      guard left > .zero else {
        throw Failure(description: "not seen in \(limit): \(screen.lines)")
      }
      readOnce(waitingAtMost: left)
    }
    return true
  }

  /// Reads until every command on the other side closed the terminal.
  func readToEnd(limit: Duration = .seconds(300)) throws {
    let deadline = ContinuousClock.now + limit
    while !isClosed {
      let left = deadline - .now
      guard left > .zero else {
        throw Failure(description: "still open after \(limit): \(screen.lines)")
      }
      readOnce(waitingAtMost: left)
    }
  }

  /// Reads what arrives during `duration`, whatever it is.
  ///
  /// Only for what must *not* appear: a test waits this long before looking, and passes
  /// whether the machine is fast or slow (a slow one may only miss a mistake, never fail).
  func readQuietly(for duration: Duration) {
    let deadline = ContinuousClock.now + duration
    while !isClosed {
      let left = deadline - .now
      guard left > .zero else { return }
      readOnce(waitingAtMost: left)
    }
  }

  /// Waits for bytes at most `limit`, and reads those there are.
  private func readOnce(waitingAtMost limit: Duration) {
    let (seconds, attoseconds) = limit.components
    let milliseconds = Int32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 60_000))
    var request = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
    let ready = poll(&request, 1, milliseconds)
    guard ready > 0 else { return }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { Glibc.read(primary, $0.baseAddress, $0.count) }
    if count > 0 {
      output.append(contentsOf: buffer[..<count])
    } else if count == 0 || errno != EINTR && errno != EAGAIN {
      // EIO: the last descriptor of the other side was closed.
      isClosed = true
    }
  }
}

/// A command run with its standard streams on a ``PseudoTerminal``, a pipe the test writes,
/// a file, or `/dev/null`, each chosen; every signal at its default, in a session of its own
/// whose controlling terminal is the pseudo-terminal (so that `less` can open `/dev/tty`).
///
/// ```swift
/// let command = try TerminalCommand(
///   ["replay", "--select", "geo.heading", "-"], on: terminal, input: .pipe)
/// try command.write(#"{"type":"geo.heading","payload":{"heading":1}}"# + "\n")
/// ```
final class TerminalCommand {
  /// Where one of the command's standard streams goes.
  enum Stream: Equatable {
    /// The pseudo-terminal.
    case terminal
    /// A pipe the test writes (standard input only).
    case pipe
    /// A file.
    case file(String)
    /// `/dev/null`.
    case null
  }

  let processID: pid_t
  private var input: Int32 = -1

  /// Runs `rasp <arguments>`.
  convenience init(
    _ arguments: [String], on terminal: PseudoTerminal, input: Stream = .terminal,
    output: Stream = .terminal, error: Stream = .terminal
  ) throws {
    try self.init(
      executable: BuiltBinary.path, [BuiltBinary.path] + arguments, on: terminal, input: input,
      output: output, error: error)
  }

  /// Runs a shell command line, `rasp` first on its `PATH`: a pipeline such as
  /// `rasp replay - | head -1`.
  convenience init(
    shell line: String, on terminal: PseudoTerminal, input: Stream = .terminal,
    output: Stream = .terminal, error: Stream = .terminal
  ) throws {
    try self.init(
      executable: "/bin/sh", ["/bin/sh", "-c", line], on: terminal, input: input,
      output: output, error: error)
  }

  private init(
    executable: String, _ arguments: [String], on terminal: PseudoTerminal, input: Stream,
    output: Stream, error: Stream
  ) throws {
    var pipeEnds: [Int32] = [-1, -1]
    if input == .pipe {
      guard makeCloseOnExecPipe(&pipeEnds) else {
        throw PseudoTerminal.Failure(description: "pipe: \(errno)")
      }
    }
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    defer {
      posix_spawn_file_actions_destroy(&actions)
      posix_spawnattr_destroy(&attributes)
    }
    for (descriptor, stream) in [(Int32(0), input), (1, output), (2, error)] {
      switch stream {
      case .terminal:
        // Opened without O_NOCTTY by the leader of a new session: its controlling terminal.
        posix_spawn_file_actions_addopen(&actions, descriptor, terminal.secondaryPath, O_RDWR, 0)
      case .pipe:
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], descriptor)
      case .file(let path):
        posix_spawn_file_actions_addopen(
          &actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      case .null:
        posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0)
      }
    }
    if input == .pipe {
      posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
      posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    }
    var everySignal = sigset_t()
    sigfillset(&everySignal)
    var noSignal = sigset_t()
    sigemptyset(&noSignal)
    posix_spawnattr_setsigdefault(&attributes, &everySignal)
    posix_spawnattr_setsigmask(&attributes, &noSignal)
    // POSIX_SPAWN_SETSID (0x80 in glibc): a session of its own, before the files are opened.
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | 0x80))
    var variables = BuiltBinary.environment
    variables["TERM"] = "vt100"
    variables["LESS"] = nil
    variables["LESSOPEN"] = nil
    variables["COLUMNS"] = nil
    let argv = arguments.map { strdup($0) } + [nil]
    let environment =
      variables.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + environment).forEach { free($0) } }
    var child: pid_t = 0
    let code = posix_spawn(&child, executable, &actions, &attributes, argv, environment)
    if input == .pipe { close(pipeEnds[0]) }
    guard code == 0 else {
      if input == .pipe { close(pipeEnds[1]) }
      throw PseudoTerminal.Failure(description: "posix_spawn: \(code)")
    }
    processID = child
    self.input = pipeEnds[1]
  }

  deinit {
    closeInput()
    if waitpid(processID, nil, WNOHANG) == 0 {
      kill(processID, SIGKILL)
      waitpid(processID, nil, 0)
    }
  }

  /// Writes `text` to the pipe on the command's standard input.
  func write(_ text: String) throws {
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
    guard written == bytes.count else {
      throw PseudoTerminal.Failure(description: "write: \(errno)")
    }
  }

  /// Closes the pipe on the command's standard input: the end of its input.
  func closeInput() {
    if input >= 0 { close(input) }
    input = -1
  }

  /// Sends `signal` to the command.
  func signal(_ number: Int32) { kill(processID, number) }

  /// Waits for the command to end, and returns its exit status (128 + the signal that
  /// killed it).
  func wait() -> Int32 {
    var status: Int32 = 0
    while waitpid(processID, &status, 0) < 0, errno == EINTR {}
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }
}

/// Runs `body` on a thread of its own and waits for it without blocking one of Swift's
/// cooperative threads: a test that reads a terminal waits in `poll`.
///
/// `#expect` on that thread would not count for the test (it knows no test there): `body`
/// checks with the ``ThreadChecks`` it is given, whose failures are recorded as the test's
/// issues once it returns.
///
/// ```swift
/// try await onThreadOfItsOwn { checks in
///   checks.expect(terminal.screen.lines == ["1"], "\(terminal.screen.lines)")
/// }
/// ```
func onThreadOfItsOwn(
  _ body: @escaping @Sendable (ThreadChecks) throws -> Void
) async throws {
  let checks = ThreadChecks()
  try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
    let thread = Thread { continuation.resume(with: Swift.Result { try body(checks) }) }
    thread.start()
  }
  for failure in checks.failures {
    Issue.record(Comment(rawValue: failure.message), sourceLocation: failure.location)
  }
}

/// The checks of a test's code that runs on a thread of its own (see ``onThreadOfItsOwn(_:)``).
final class ThreadChecks: @unchecked Sendable {
  struct Failure {
    let message: String
    let location: SourceLocation
  }

  private(set) var failures: [Failure] = []

  /// Records a failure unless `condition` holds.
  func expect(
    _ condition: Bool, _ message: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    if !condition {
      failures.append(
        Failure(message: "Expectation failed: " + message(), location: sourceLocation))
    }
  }

  /// Records a failure unless `actual` equals `expected`, with both in the message.
  func expect<Value: Equatable>(
    _ actual: Value, equals expected: Value, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    if actual != expected {
      failures.append(
        Failure(
          message:
            "- expected \(String(reflecting: expected))\n+ actual   \(String(reflecting: actual))",
          location: sourceLocation))
    }
  }
}
