#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The shell command of `rasp shrink --cmd`: run by `/bin/sh` with each candidate log's file as
/// `$1`; an exit status of 0 means the candidate still fails.
///
/// The candidates are written, one after another, to one file in a directory of their own
/// (`mkdtemp(3)`, under `TMPDIR` or `/tmp`), named as the log is, so that a command that looks
/// at the name's extension sees the same. The command's standard input is `/dev/null`, and
/// its output is thrown away.
///
/// ```swift
/// let command = try ShrinkShellCommand("grep -q boom \"$1\"", logName: "events.jsonl",
///                                      variables: environment.variables)
/// command.succeeds(with: Array("boom\n".utf8))   // true
/// command.remove()
/// ```
final class ShrinkShellCommand {
  /// The command as given.
  let text: String
  /// The directory of the candidate's file.
  private let directory: String
  /// The candidate's file.
  let path: String

  /// Makes the directory of the candidates.
  ///
  /// - Parameters:
  ///   - text: The shell command.
  ///   - logName: The log's path, whose last part names the candidates' file.
  ///   - variables: The environment variables, for `TMPDIR`.
  /// - Throws: ``RaspCommandError/failure(_:)`` when no directory can be made.
  init(_ text: String, logName: String, variables: [String: String]) throws(RaspCommandError) {
    self.text = text
    let base = variables["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array("\(base)/rasp-shrink-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkdtemp($0) != nil } ?? false
    }
    guard made else {
      throw .failure(
        "cannot make a directory for the candidates of '--cmd' in '\(base)': "
          + String(cString: strerror(errno)))
    }
    directory = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let name = logName.split(separator: "/").last.map(String.init) ?? "log.jsonl"
    path = directory + "/" + (name == "-" || name.isEmpty ? "log.jsonl" : name)
  }

  /// Writes the candidate and runs the command on it.
  ///
  /// - Parameter bytes: The candidate log.
  /// - Returns: Whether the command exited with status 0; `false` when it could not be run.
  func succeeds(with bytes: [UInt8]) -> Bool {
    guard store(bytes) else { return false }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ["/bin/sh", "-c", text, "sh", path]
    let cArguments = argv.map { strdup($0) } + [nil]
    defer { for argument in cArguments { free(argument) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, "/bin/sh", &actions, nil, cArguments, environ) == 0 else {
      return false
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return false }
    }
    // Exited (no signal) with status 0.
    return status & 0x7F == 0 && (status >> 8) & 0xFF == 0
  }

  /// Writes the candidate's file whole.
  private func store(_ bytes: [UInt8]) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return -1 }
        return write(descriptor, base + written, bytes.count - written)
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return false }
      written += count
    }
    return true
  }

  /// Removes the candidate's file and its directory.
  func remove() {
    unlink(path)
    rmdir(directory)
  }
}
