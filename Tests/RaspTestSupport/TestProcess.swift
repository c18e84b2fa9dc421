import Foundation

/// Runs `body` on a thread of its own and awaits its result without blocking one of Swift's
/// cooperative threads: on two cores, a test that waited for a process or a pipe there would
/// leave the other tests no thread to run on.
///
/// ```swift
/// let status = try await onThreadOfItsOwn { waitForTheChild() }
/// ```
///
/// - Parameter body: The blocking work.
/// - Returns: What `body` returned.
/// - Throws: What `body` threw.
public func onThreadOfItsOwn<Value: Sendable>(
  _ body: @escaping @Sendable () throws -> Value
) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}

/// Work started at once on a thread of its own, whose result a test awaits later without
/// blocking one of Swift's cooperative threads.
///
/// Unlike `async let x = onThreadOfItsOwn { … }`, whose child task may wait behind every other
/// test's tasks before it even creates its thread (minutes on a loaded machine under
/// ThreadSanitizer), the thread runs from the moment this is made: a test that then waits, with
/// a time limit, for what the thread does waits for the work, not for a turn on the pool.
///
/// ```swift
/// let sending = StartedThread { for _ in 0..<20 { aggregator.send(.tick) } }
/// #expect(try await recorder.waitUntil { $0.recordedEvents >= 3 })
/// try await sending.value
/// ```
public final class StartedThread<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  /// What the body returned or threw, once it has.
  private var outcome: Result<Value, any Error>?
  /// The test awaiting the outcome before there was one.
  private var awaiting: CheckedContinuation<Value, any Error>?

  /// Starts `body` on a new thread.
  ///
  /// - Parameter body: The blocking work.
  public init(_ body: @escaping @Sendable () throws -> Value) {
    Thread { [self] in
      let result = Result { try body() }
      lock.lock()
      outcome = result
      let waiting = awaiting
      awaiting = nil
      lock.unlock()
      waiting?.resume(with: result)
    }.start()
  }

  /// What the body returned, awaited; rethrows what it threw.
  public var value: Value {
    get async throws {
      try await withCheckedThrowingContinuation { continuation in
        lock.lock()
        if let outcome {
          lock.unlock()
          continuation.resume(with: outcome)
        } else {
          awaiting = continuation
          lock.unlock()
        }
      }
    }
  }
}

/// A program a test runs to its end: its standard input written, its output and its errors
/// read at the same time (neither pipe can fill up and stop it), all on threads of their own.
///
/// ```swift
/// let result = try await TestProcess.run("/bin/sh", ["-c", "echo 1"])
/// #expect(result.text == "1\n")
/// ```
public enum TestProcess {
  /// How a program ended and what it printed.
  public struct Result: Sendable {
    /// Its exit status, or the signal that ended it.
    public let status: Int32
    /// What it wrote on standard output.
    public let standardOutput: Data
    /// What it wrote on standard error, as text.
    public let standardError: String

    /// Standard output as text.
    public var text: String { String(decoding: standardOutput, as: UTF8.self) }

    /// A result with these parts.
    public init(status: Int32, standardOutput: Data, standardError: String) {
      self.status = status
      self.standardOutput = standardOutput
      self.standardError = standardError
    }
  }

  /// Runs `executable` with `arguments` and waits for it to end.
  ///
  /// - Parameters:
  ///   - executable: The program's path.
  ///   - arguments: Its arguments.
  ///   - directory: Its working directory (this process's when `nil`).
  ///   - environment: Its environment (this process's when `nil`).
  ///   - input: Its standard input, or `nil` for `/dev/null`.
  /// - Returns: How it ended and what it printed.
  /// - Throws: When it cannot be started.
  public static func run(
    _ executable: String, _ arguments: [String], in directory: String? = nil,
    environment: [String: String]? = nil, input: [UInt8]? = nil
  ) async throws -> Result {
    try await onThreadOfItsOwn {
      try runBlocking(
        executable, arguments, in: directory, environment: environment, input: input)
    }
  }

  /// ``run(_:_:in:environment:input:)``, blocking the calling thread.
  private static func runBlocking(
    _ executable: String, _ arguments: [String], in directory: String? = nil,
    environment: [String: String]? = nil, input: [UInt8]? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if let environment { process.environment = environment }
    let output = Pipe()
    let errors = Pipe()
    let standardInput = input.map { _ in Pipe() }
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = standardInput ?? FileHandle.nullDevice
    try process.run()
    let errorText = Collected()
    let done = DispatchGroup()
    let errorHandle = errors.fileHandleForReading
    done.enter()
    Thread {
      errorText.data = errorHandle.readDataToEndOfFile()
      done.leave()
    }.start()
    if let input, let writing = standardInput?.fileHandleForWriting {
      done.enter()
      Thread {
        // A program that exits before reading it all is no failure of the writer.
        try? writing.write(contentsOf: Data(input))
        try? writing.close()
        done.leave()
      }.start()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    done.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, standardOutput: outputData,
      standardError: String(decoding: errorText.data, as: UTF8.self))
  }

  /// What a reading thread collected, handed over when it is done.
  private final class Collected: @unchecked Sendable {
    var data = Data()
  }
}
