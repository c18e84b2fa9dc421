#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rasp replay -` running with a pipe on each of its standard input and output, so that the
/// latency benchmark can feed it lines while it runs and read its snapshots as they come.
///
/// ``ChildProcess`` runs a command to the end over a file; here the benchmark must hold both
/// ends of the conversation at once, so this type only starts the process and hands out the
/// two descriptors: ``input`` to write events to (closing it is the end of the log) and
/// ``output`` to read snapshots from. Every pipe end is made close-on-exec, so the child keeps
/// only its own standard input and output and sees the end of its input when the benchmark
/// closes ``input``. Standard error goes to a temporary file, shown when the replay fails.
///
/// ```swift
/// let process = try LiveReplayProcess(rasp: ".build/release/rasp")
/// // write lines to process.input, read snapshots from process.output, close both
/// let (status, standardError) = try process.wait()
/// ```
struct LiveReplayProcess {
  /// The arguments after the program: replay standard input, every snapshot.
  static let arguments = ["replay", "-"]

  /// The command line, for messages.
  let command: String
  /// The write end of the child's standard input.
  let input: Int32
  /// The read end of the child's standard output.
  let output: Int32
  private let pid: pid_t
  private let errorPath: String

  /// Starts `rasp replay -`.
  ///
  /// - Parameter rasp: The path of rasp, or a name looked up in `PATH`.
  /// - Throws: ``BenchError/system(_:_:)`` when a pipe, the temporary file or the process
  ///   cannot be made.
  init(rasp: String) throws(BenchError) {
    let argv = [rasp] + Self.arguments
    command = argv.joined(separator: " ")
    var inputEnds: [Int32] = [-1, -1]
    var outputEnds: [Int32] = [-1, -1]
    guard makeCloseOnExecPipe(&inputEnds) else { throw .system("pipe", errno) }
    guard makeCloseOnExecPipe(&outputEnds) else {
      let code = errno
      close(inputEnds[0])
      close(inputEnds[1])
      throw .system("pipe", code)
    }
    for end in inputEnds + outputEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var template = Array("/tmp/rasp-bench-latency-XXXXXX".utf8CString)
    let errorFile = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    let closeAll = { for end in inputEnds + outputEnds { close(end) } }
    guard errorFile >= 0 else {
      let code = errno
      closeAll()
      throw .system("mkstemp", code)
    }
    errorPath = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { close(errorFile) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 clears close-on-exec on the copies, which are all the child keeps.
    posix_spawn_file_actions_adddup2(&actions, inputEnds[0], 0)
    posix_spawn_file_actions_adddup2(&actions, outputEnds[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errorFile, 2)

    let cArguments = argv.map { strdup($0) } + [nil]
    defer { for argument in cArguments { free(argument) } }
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, argv[0], &actions, nil, cArguments, environ)
    close(inputEnds[0])
    close(outputEnds[1])
    guard spawned == 0 else {
      close(inputEnds[1])
      close(outputEnds[0])
      _ = unlink(errorPath)
      throw .system("cannot start '\(argv[0])'", spawned)
    }
    self.pid = pid
    input = inputEnds[1]
    output = outputEnds[0]
  }

  /// Waits for the process to end and removes the file of its standard error.
  ///
  /// Close ``input`` first, or the replay waits for more lines forever.
  ///
  /// - Returns: The exit status, or 128 plus the signal that ended the process, and what it
  ///   wrote on standard error.
  /// - Throws: ``BenchError/system(_:_:)`` when `waitpid` fails.
  func wait() throws(BenchError) -> (status: Int32, standardError: String) {
    defer { _ = unlink(errorPath) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { throw .system("waitpid", errno) }
    }
    let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    let standardError = String(decoding: FileBytes.contents(of: errorPath) ?? [], as: UTF8.self)
    return (exitStatus, standardError)
  }
}
