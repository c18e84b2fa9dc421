import Foundation
import RaspTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built `rasp` running as a child process whose standard input the test writes, with every
/// signal at its default action — as a command typed at a terminal — whatever the test runner
/// ignores (Foundation's `Process` passes ignored signals on, so `SIGINT` would not reach a
/// child of a runner started in the background).
///
/// ```swift
/// let command = try SpawnedCommand(
///   ["check", "-", "--golden", path, "--update"], outputDirectory: directory)
/// try command.write("{\"type\":\"geo.heading\",\"payload\":{\"heading\":1}}\n")
/// command.signal(SIGINT)
/// #expect(command.wait() == .signaled(SIGINT))
/// ```
final class SpawnedCommand {
  /// How a child process ended.
  enum Ending: Equatable, Sendable {
    case exited(Int32)
    case signaled(Int32)
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  let processID: pid_t
  private var input: Int32
  /// The pipe's end the test reads standard output from, with `pipingOutput`.
  private var outputEnd: Int32 = -1
  /// What the test read of standard output so far, with `pipingOutput`.
  private(set) var output: [UInt8] = []

  /// Starts `rasp <arguments>` in `BuiltBinary.environment`; its standard output and standard
  /// error go to `stdout` and `stderr` in `outputDirectory`, or its standard output to a pipe
  /// the test reads (``readOutput(lines:)``) with `pipingOutput`.
  init(_ arguments: [String], outputDirectory: String, pipingOutput: Bool = false) throws {
    var pipeEnds: [Int32] = [0, 0]
    guard makeCloseOnExecPipe(&pipeEnds) else { throw Failure(description: "pipe: \(errno)") }
    var outputEnds: [Int32] = [-1, -1]
    if pipingOutput {
      guard makeCloseOnExecPipe(&outputEnds) else {
        close(pipeEnds[0])
        close(pipeEnds[1])
        throw Failure(description: "pipe: \(errno)")
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
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    if pipingOutput {
      posix_spawn_file_actions_adddup2(&actions, outputEnds[1], 1)
    } else {
      posix_spawn_file_actions_addopen(
        &actions, 1, outputDirectory + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }
    posix_spawn_file_actions_addopen(
      &actions, 2, outputDirectory + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var everySignal = sigset_t()
    sigfillset(&everySignal)
    var noSignal = sigset_t()
    sigemptyset(&noSignal)
    posix_spawnattr_setsigdefault(&attributes, &everySignal)
    posix_spawnattr_setsigmask(&attributes, &noSignal)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    let argv = ([BuiltBinary.path] + arguments).map { strdup($0) } + [nil]
    let environment =
      BuiltBinary.environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [
        nil
      ]
    defer { (argv + environment).forEach { free($0) } }
    var child: pid_t = 0
    let code = posix_spawn(&child, BuiltBinary.path, &actions, &attributes, argv, environment)
    close(pipeEnds[0])
    if pipingOutput { close(outputEnds[1]) }
    guard code == 0 else {
      close(pipeEnds[1])
      if pipingOutput { close(outputEnds[0]) }
      throw Failure(description: "posix_spawn: \(code)")
    }
    processID = child
    input = pipeEnds[1]
    outputEnd = outputEnds[0]
  }

  deinit {
    closeInput()
    if outputEnd >= 0 { close(outputEnd) }
    if waitpid(processID, nil, WNOHANG) == 0 {
      kill(processID, SIGKILL)
      waitpid(processID, nil, 0)
    }
  }

  /// Writes `text` to the command's standard input.
  func write(_ text: String) throws {
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw Failure(description: "write: \(errno)") }
  }

  /// Closes the command's standard input: the end of its input.
  func closeInput() {
    if input >= 0 { close(input) }
    input = -1
  }

  /// Reads standard output (with `pipingOutput`) until it holds `count` lines, or to its end
  /// when `count` is nil or the command closes it first: a test interrupts the command at a
  /// point it sees, never after a time. Blocks its thread (see `onThreadOfItsOwn`).
  ///
  /// - Returns: Whether standard output holds `count` lines.
  @discardableResult
  func readOutput(lines count: Int? = nil) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var lines = output.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    while outputEnd >= 0 {
      if let count, lines >= count { return true }
      let read = buffer.withUnsafeMutableBytes { Glibc.read(outputEnd, $0.baseAddress, $0.count) }
      if read < 0, errno == EINTR { continue }
      guard read > 0 else {
        close(outputEnd)
        outputEnd = -1
        break
      }
      output += buffer[..<read]
      lines += buffer[..<read].reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    }
    return count.map { lines >= $0 } ?? true
  }

  /// Sends `signal` to the command.
  func signal(_ number: Int32) { kill(processID, number) }

  /// Waits for the command to end, blocking this thread.
  func wait() -> Ending { Self.wait(for: processID) }

  /// Waits for the command to end on a thread of its own, not one of Swift's cooperative
  /// threads.
  func ending() async throws -> Ending {
    let processID = processID
    return try await onThreadOfItsOwn { Self.wait(for: processID) }
  }

  private static func wait(for processID: pid_t) -> Ending {
    var status: Int32 = 0
    while waitpid(processID, &status, 0) < 0, errno == EINTR {}
    let signal = status & 0x7F
    return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
  }
}
