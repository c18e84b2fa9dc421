#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspReplay

/// Everything a run of the command touches outside itself: its streams, variables and files.
///
/// The `rasp` executable passes the real process environment; tests pass memory streams and a
/// working directory, so that every command can be run and checked in-process.
///
/// ```swift
/// let output = RaspMemoryOutput()
/// let environment = RaspEnvironment(
///   standardInput: .memory(JSONMemorySource(Array(log.utf8))),
///   standardOutput: output, standardError: RaspMemoryOutput(),
///   variables: [:], workingDirectory: "fixtures/example")
/// let status = RaspCommandLine.run(arguments: ["replay"], environment: environment)
/// ```
public struct RaspEnvironment {
  /// Standard input, read by `-` or when no file is given.
  public var standardInput: RaspInputSource
  /// Standard output: data only.
  ///
  /// What is written here goes through ``statusLine``, which erases a progress line first
  /// when standard output is the terminal it is drawn on.
  public var standardOutput: any RaspOutputStream {
    get { guardedOutput }
    set { guardedOutput = statusLine.guarding(newValue, as: .output) }
  }
  /// Standard error: diagnostics, summaries, the progress line.
  ///
  /// What is written here goes through ``statusLine``, which erases a progress line first.
  public var standardError: any RaspOutputStream {
    get { guardedError }
    set { guardedError = statusLine.guarding(newValue, as: .error) }
  }
  /// The progress line of the terminal, shared by every copy of this environment.
  let statusLine: RaspStatusLine
  private var guardedOutput: RaspStatusLine.Guarded
  private var guardedError: RaspStatusLine.Guarded
  /// Environment variables (`CI`, `NO_COLOR`, …).
  public var variables: [String: String]
  /// The directory relative paths are resolved against; `nil` for the process's own.
  public var workingDirectory: String?
  /// A failure for ``RaspAtomicFileWriter`` to simulate, for tests; `nil` in real runs.
  var writeFault: RaspWriteFault?
  /// Where a request to stop replays comes from: the process's `SIGINT`, `SIGTERM` and
  /// `SIGHUP` in ``process()``; `nil` (nothing stops them) by default.
  ///
  /// ```swift
  /// environment.interruption = ReplayInterruption()   // a test can stop a replay
  /// ```
  public var interruption: ReplayInterruption?
  /// How many processors the command may use, for the default of `--jobs`.
  var processorCount = Self.onlineProcessors()
  /// When diagnostics are coloured: `auto` unless the command takes `--color` (see
  /// ``RaspDiagnostics/reportingErrors(_:environment:_:)``).
  var colorChoice = RaspColorChoice.auto
  /// The command's name in help, usage lines and messages: `rasp`, or the name of a command
  /// built on ``RaspCommandLine`` with domains of its own (`cart-rasp`), which
  /// ``RaspCommandLine/main(domains:)`` takes from the path it was run by.
  ///
  /// ```swift
  /// environment.programName = "cart-rasp"   // cart-rasp: error: …, Usage: cart-rasp replay …
  /// ```
  public var programName = "rasp"

  /// Creates an environment.
  ///
  /// ```swift
  /// let environment = RaspEnvironment(standardInput: .memory(JSONMemorySource([])),
  ///                                   standardOutput: RaspMemoryOutput(),
  ///                                   standardError: RaspMemoryOutput())
  /// ```
  ///
  /// - Parameters:
  ///   - standardInput: Standard input.
  ///   - standardOutput: Standard output.
  ///   - standardError: Standard error.
  ///   - variables: Environment variables.
  ///   - workingDirectory: The directory relative paths are resolved against.
  public init(
    standardInput: RaspInputSource, standardOutput: any RaspOutputStream,
    standardError: any RaspOutputStream, variables: [String: String] = [:],
    workingDirectory: String? = nil
  ) {
    self.standardInput = standardInput
    let statusLine = RaspStatusLine()
    self.statusLine = statusLine
    guardedOutput = statusLine.guarding(standardOutput, as: .output)
    guardedError = statusLine.guarding(standardError, as: .error)
    self.variables = variables
    self.workingDirectory = workingDirectory
  }

  /// The number of processors online, at least 1.
  static func onlineProcessors() -> Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  }

  /// The environment of this process: file descriptors 0, 1 and 2, and its variables.
  ///
  /// ```swift
  /// exit(RaspCommandLine.run(arguments: args, environment: .process()))
  /// ```
  public static func process() -> RaspEnvironment {
    var variables: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let text = String(cString: pointer)
      if let equals = text.firstIndex(of: "=") {
        variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      entry += 1
    }
    var environment = RaspEnvironment(
      standardInput: .descriptor(0), standardOutput: RaspFileOutput(descriptor: 1),
      standardError: RaspFileOutput(descriptor: 2), variables: variables)
    environment.interruption = RaspInterruptCleanup.interruption
    return environment
  }

  /// The path to use for a path the user gave, relative to ``workingDirectory``.
  ///
  /// ```swift
  /// environment.resolve("events.jsonl")   // "fixtures/example/events.jsonl"
  /// ```
  ///
  /// - Parameter path: A path as the user wrote it.
  /// - Returns: The path to open.
  public func resolve(_ path: String) -> String {
    guard let workingDirectory, !path.hasPrefix("/") else { return path }
    return workingDirectory.hasSuffix("/") ? workingDirectory + path : workingDirectory + "/" + path
  }

  /// Opens a file for reading.
  ///
  /// ```swift
  /// let source = try environment.openForReading("events.jsonl")
  /// ```
  ///
  /// - Parameter path: The path as the user wrote it.
  /// - Returns: A source that closes the file when the last copy of it is released.
  /// - Throws: ``RaspCommandError/cannotOpen(_:reason:)``.
  public func openForReading(_ path: String) throws(RaspCommandError) -> RaspInputSource {
    let descriptor = open(resolve(path), O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .cannotOpen(path, reason: RaspFileLimit.reason(errno))
    }
    let file = RaspOpenFile(descriptor: descriptor)
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      throw .cannotOpen(path, reason: RaspSystemError.message(EISDIR))
    }
    return .file(file)
  }

  /// Reads a whole file (a golden file, a spec).
  ///
  /// ```swift
  /// let bytes = try environment.readFile("expected.jsonl")
  /// ```
  ///
  /// - Parameter path: The path as the user wrote it.
  /// - Returns: The file's bytes.
  /// - Throws: ``RaspCommandError/cannotOpen(_:reason:)``.
  public func readFile(_ path: String) throws(RaspCommandError) -> [UInt8] {
    var source = try openForReading(path)
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count: Int
      do {
        count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
      } catch {
        throw .cannotOpen(path, reason: "\(error)")
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[..<count])
    }
  }

  /// Whether a file exists at `path`.
  ///
  /// ```swift
  /// if !environment.fileExists("expected.jsonl") { … }
  /// ```
  ///
  /// - Parameter path: The path as the user wrote it.
  /// - Returns: `true` when something exists there.
  public func fileExists(_ path: String) -> Bool {
    access(resolve(path), F_OK) == 0
  }
}
