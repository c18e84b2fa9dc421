#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a command to completion, reading its standard output through a pipe, and measures it:
/// wall time, CPU time and peak resident memory.
///
/// The command is started with `posix_spawnp` and reaped with `wait4`, whose `rusage` gives its
/// CPU time. Its peak memory cannot come from that `rusage` alone: Linux carries the high-water
/// mark of the process that calls `exec` into the new program's `ru_maxrss`, and with
/// `posix_spawn` (`vfork`) that is the benchmark's own mark. So when `/usr/bin/time` exists the
/// command runs under it (`/usr/bin/time -f %M -o <file>`), whose small `fork`ed child reports
/// the command's own peak; otherwise the `wait4` figure is used, an upper bound.
///
/// Standard input is `/dev/null`; standard output is either `/dev/null` (for timing: writing costs
/// nothing) or a pipe read to the end (for checking: the sample keeps the first and last lines);
/// standard error goes to a file in the scratch directory, shown when the command fails.
///
/// ```swift
/// let result = try ChildProcess.run("jq", ["-nc", "-f", "reduce.jq", "log"],
///                                   output: .pipe(sampleLimit: 1000), scratch: "bench-output")
/// print(result.seconds, result.peakKilobytes)
/// ```
enum ChildProcess {
  /// Where the command's standard output goes.
  enum Output {
    /// `/dev/null`.
    case null
    /// A pipe that this process reads to the end, keeping `sampleLimit` lines at each end and,
    /// with `hashing`, hashing every byte (``OutputSample/hash``).
    case pipe(sampleLimit: Int, hashing: Bool = false)
  }

  /// How a run went.
  struct Result {
    /// The exit status, or 128 plus the signal that ended the command.
    var status: Int32
    /// Wall-clock seconds from spawning to reaping.
    var seconds: Double
    /// CPU seconds in user mode.
    var userSeconds: Double
    /// CPU seconds in the kernel.
    var systemSeconds: Double
    /// The peak resident set size in kibibytes.
    var peakKilobytes: Int
    /// The standard output's size, line count, first and last lines; empty for `.null`.
    var output: OutputSample
    /// The standard error's text.
    var standardError: String
  }

  /// The program that reports a child's own peak memory, when installed.
  static let timeTool = "/usr/bin/time"
  static var hasTimeTool: Bool { access(timeTool, X_OK) == 0 }
  /// Where the peak memory figures come from, for a report.
  static var peakMemorySource: String {
    hasTimeTool
      ? "`/usr/bin/time -f %M`" : "`wait4` ru_maxrss, an upper bound: /usr/bin/time is missing"
  }

  /// Runs a command like ``run(_:_:output:scratch:)``, and throws unless it succeeded; what it
  /// wrote on standard error is told of as a warning.
  ///
  /// - Parameters:
  ///   - executable: A path, or a name looked up in `PATH`.
  ///   - arguments: The arguments, without the program's name.
  ///   - output: Where standard output goes.
  ///   - scratch: A directory for standard error and the memory report.
  ///   - quiet: Whether a command that writes on standard error fails, for a pipeline whose
  ///     first command's exit status is lost.
  /// - Returns: The measurements.
  /// - Throws: ``BenchError/toolFailed(command:status:standardError:)`` for a status other
  ///   than 0, or a non-empty standard error when `quiet`.
  static func runChecked(
    _ executable: String, _ arguments: [String], output: Output, scratch: String,
    quiet: Bool = false
  ) throws(BenchError) -> Result {
    let result = try run(executable, arguments, output: output, scratch: scratch)
    guard result.status == 0, !quiet || result.standardError.isEmpty else {
      throw .toolFailed(
        command: ([executable] + arguments).map(shellQuoted).joined(separator: " "),
        status: result.status, standardError: result.standardError)
    }
    if !result.standardError.isEmpty {
      printProgress("warning: '\(executable)' wrote on standard error: \(result.standardError)")
    }
    return result
  }

  /// The first line a command prints, such as its version.
  ///
  /// - Parameters:
  ///   - executable: A path, or a name looked up in `PATH`.
  ///   - arguments: The arguments, such as `--version`.
  ///   - scratch: A directory for standard error and the memory report.
  /// - Returns: The line, without its line end.
  /// - Throws: ``BenchError`` when the command cannot start or fails.
  static func firstLine(
    _ executable: String, _ arguments: [String], scratch: String
  ) throws(BenchError) -> String {
    let result = try runChecked(
      executable, arguments, output: .pipe(sampleLimit: 1), scratch: scratch)
    return String(decoding: result.output.head.first ?? [], as: UTF8.self)
  }

  /// Runs `executable` with `arguments` and waits for it.
  ///
  /// - Parameters:
  ///   - executable: A path, or a name looked up in `PATH`.
  ///   - arguments: The arguments, without the program's name.
  ///   - output: Where standard output goes.
  ///   - scratch: A directory for standard error and the memory report.
  /// - Returns: The measurements.
  /// - Throws: ``BenchError`` when the command cannot be started.
  static func run(
    _ executable: String, _ arguments: [String], output: Output, scratch: String
  ) throws(BenchError) -> Result {
    let errorPath = scratch + "/child.stderr"
    let memoryPath = scratch + "/child.time"
    let measured = hasTimeTool
    let argv =
      measured
      ? [timeTool, "-f", "%M", "-o", memoryPath, executable] + arguments
      : [executable] + arguments
    _ = unlink(memoryPath)

    var sampleLimit = 0
    var hashing = false
    var pipeEnds: [Int32] = [-1, -1]
    if case .pipe(let limit, let hashes) = output {
      sampleLimit = limit
      hashing = hashes
      guard makeCloseOnExecPipe(&pipeEnds) else { throw .system("pipe", errno) }
      // A larger pipe means fewer switches between the writer and the benchmark (F_SETPIPE_SZ).
      _ = fcntl(pipeEnds[1], 1031, Int32(1 << 20))
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if pipeEnds[1] >= 0 {
      posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
      posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
      posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

    let cArguments = argv.map { strdup($0) } + [nil]
    defer { for argument in cArguments { free(argument) } }
    let clock = ContinuousClock()
    let start = clock.now
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, argv[0], &actions, nil, cArguments, environ)
    if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
    guard spawned == 0 else {
      if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
      throw .system("cannot start '\(argv[0])'", spawned)
    }

    var sample = OutputSample(limit: sampleLimit, hashing: hashing)
    if pipeEnds[0] >= 0 {
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
      defer { buffer.deallocate() }
      while true {
        let count = read(pipeEnds[0], buffer.baseAddress, buffer.count)
        if count > 0 {
          sample.consume(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        } else if count == 0 || errno != EINTR {
          break
        }
      }
      close(pipeEnds[0])
    }

    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw .system("wait4", errno) }
    }
    let elapsed = clock.now - start

    let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    var peak = usage.ru_maxrss
    if measured, let report = FileBytes.contents(of: memoryPath),
      let line = String(decoding: report, as: UTF8.self).split(separator: "\n").last,
      let kilobytes = Int(line)
    {
      peak = kilobytes
    }
    return Result(
      status: exitStatus, seconds: elapsed.seconds,
      userSeconds: usage.ru_utime.seconds, systemSeconds: usage.ru_stime.seconds,
      peakKilobytes: peak, output: sample,
      standardError: String(decoding: FileBytes.contents(of: errorPath) ?? [], as: UTF8.self))
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

extension timeval {
  /// The time in seconds.
  var seconds: Double { Double(tv_sec) + Double(tv_usec) / 1e6 }
}

/// `text` as one word for `sh`: as it is when it holds only safe characters, else in single
/// quotes.
func shellQuoted(_ text: String) -> String {
  let safe = text.unicodeScalars.allSatisfy {
    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
      || "-_./=:,+@%".unicodeScalars.contains($0)
  }
  guard !safe || text.isEmpty else { return text }
  return "'" + text.replacing("'", with: #"'\''"#) + "'"
}
