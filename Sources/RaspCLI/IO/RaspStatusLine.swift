import Rasp

/// The one line at the bottom of a terminal that a progress display keeps up to date, and the
/// rule that keeps everything else off it: every write that reaches that terminal — a message
/// on standard error, data on standard output when it is the same terminal — erases the line
/// first, under one lock, so that nothing is ever written after it on the same row. The next
/// redraw puts the line back below what was written.
///
/// Every ``RaspEnvironment`` has one, shared by its copies, and its
/// ``RaspEnvironment/standardOutput`` and ``RaspEnvironment/standardError`` write through it
/// (``Guarded``); while no display draws, a write only takes the lock. A command never draws
/// on it itself: it starts a ``ProgressDisplay``.
///
/// ```swift
/// environment.statusLine.begin(on: standardError, outputSharesTerminal: true)
/// environment.statusLine.draw("rasp: 12 lines · 1.5 kB read")
/// try environment.standardOutput.write("12\n")   // erases the line, then writes
/// environment.statusLine.end()                    // erased for good
/// ```
final class RaspStatusLine: @unchecked Sendable {
  /// Which of the two streams a write goes to.
  enum Role {
    /// Standard output: it erases the line only when it is the line's terminal.
    case output
    /// Standard error, where the line is drawn.
    case error
  }

  private struct State {
    /// Whether a line is kept, from ``begin(on:outputSharesTerminal:)`` to ``end()``.
    var isKept = false
    /// Whether the line is on the screen now.
    var isShown = false
    /// Whether standard output is the terminal the line is drawn on.
    var outputSharesTerminal = false
  }

  private let state = RaspMutex(State())
  /// Where the line is drawn while it is kept; read and written only under the lock of
  /// `state` (a stream is no `Sendable` value to keep in it).
  nonisolated(unsafe) private var stream: (any RaspOutputStream)?

  /// What erases the line: back to its start, and clear to the end of the line.
  static let erase = Array("\r\u{1B}[K".utf8)

  /// Starts keeping a line on `stream`, standard error as it is (not ``Guarded``).
  ///
  /// - Parameters:
  ///   - stream: The terminal the line is drawn on.
  ///   - outputSharesTerminal: Whether standard output writes to that terminal too.
  func begin(on stream: any RaspOutputStream, outputSharesTerminal: Bool) {
    state.withLock { state in
      self.stream = stream
      state.isKept = true
      state.outputSharesTerminal = outputSharesTerminal
    }
  }

  /// Draws `text` as the line, in place of what it showed, unless a write holds the terminal
  /// now (the next draw comes soon) or the line has ended.
  ///
  /// - Parameter text: One line of text, no wider than the terminal.
  func draw(_ text: String) {
    let bytes = Array(("\r" + text + "\u{1B}[K").utf8)
    _ = state.withLockIfAvailable { state in
      guard state.isKept, let stream = self.stream else { return }
      try? stream.write(bytes)
      state.isShown = true
    }
  }

  /// Erases the line, if shown, and stops drawing it.
  func end() {
    state.withLock { state in
      if state.isShown, let stream = self.stream { try? stream.write(Self.erase) }
      state = State()
      self.stream = nil
    }
  }

  /// Writes `bytes` to `stream`, first erasing the line when the write reaches its terminal.
  func write(
    _ bytes: UnsafeRawBufferPointer, to stream: any RaspOutputStream, as role: Role
  ) throws(RaspOutputError) {
    let result: Result<Void, RaspOutputError> = state.withLock { state in
      if state.isShown, role == .error || state.outputSharesTerminal, let line = self.stream {
        try? line.write(Self.erase)
        state.isShown = false
      }
      return Result { () throws(RaspOutputError) in try stream.write(bytes) }
    }
    try result.get()
  }

  /// `stream`, writing through this line as `role`; a stream that already does is returned
  /// as it is.
  func guarding(_ stream: any RaspOutputStream, as role: Role) -> Guarded {
    if let guarded = stream as? Guarded, guarded.line === self, guarded.role == role {
      return guarded
    }
    return Guarded(stream: (stream as? Guarded)?.stream ?? stream, line: self, role: role)
  }

  /// A stream that writes through a status line: what an environment's standard output and
  /// standard error are.
  final class Guarded: RaspOutputStream {
    /// The stream written to.
    let stream: any RaspOutputStream
    /// The line it keeps clear of.
    let line: RaspStatusLine
    /// Which stream it is.
    let role: Role

    init(stream: any RaspOutputStream, line: RaspStatusLine, role: Role) {
      self.stream = stream
      self.line = line
      self.role = role
    }

    func write(_ bytes: RawSpan) throws(RaspOutputError) {
      try bytes.withUnsafeBytes { (raw) throws(RaspOutputError) in
        try line.write(raw, to: stream, as: role)
      }
    }

    var isTerminal: Bool { stream.isTerminal }
    var destination: RaspOutputDestination { stream.destination }
    var terminalColumns: Int? { stream.terminalColumns }
  }
}
