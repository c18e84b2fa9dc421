import Dispatch
import RaspReplay
import Synchronization

/// A one-line progress display on standard error, redrawn ten times a second while a replay
/// runs, and erased at its end.
///
/// It stands in for standard error during the replay: whatever the command writes there — a bad
/// line's message, a notice — goes through ``write(_:)``, which erases the progress line first,
/// so that messages never land in the middle of it; the next redraw puts it back below them.
/// The line is drawn with a carriage return and erased with `ESC [ K`, so on a terminal it
/// stays one line.
///
/// ```swift
/// let display = ProgressDisplay(progress: progress, standardError: environment.standardError)
/// display.start()
/// // … the replay, writing its diagnostics to `display` …
/// display.stop()
/// ```
final class ProgressDisplay: RaspOutputStream, @unchecked Sendable {
  /// What the display shows, and whether it is still drawn.
  private struct State {
    /// Whether the progress line is on the screen now.
    var isShown = false
    /// Whether ``stop()`` was called: nothing is drawn after it.
    var isStopped = false
  }

  /// The counts of the replay.
  let progress: ReplayProgress
  /// The real standard error.
  private let standardError: any RaspOutputStream
  /// When the replay started.
  private let startTime = ContinuousClock.now
  private let state = Mutex(State())
  /// Read at the start of every critical section and written at its end, for ThreadSanitizer,
  /// which cannot follow `Mutex`'s hand-over inside the kernel on Linux.
  private let handoff = Atomic<Int>(0)
  /// The timer that redraws, while the display runs.
  private var timer: DispatchSourceTimer?

  /// How often the line is redrawn: ten times a second at most.
  static let interval = Duration.milliseconds(100)

  /// A display of `progress` on `standardError`.
  init(progress: ReplayProgress, standardError: any RaspOutputStream) {
    self.progress = progress
    self.standardError = standardError
  }

  /// Whether a replay shows progress: `--progress` forces it, `--no-progress` forbids it;
  /// otherwise only when standard error is a terminal and the command does not run under CI.
  ///
  /// ```swift
  /// ProgressDisplay.isWanted(
  ///   .automatic, standardErrorIsTerminal: true, isContinuousIntegration: false)   // true
  /// ```
  static func isWanted(
    _ choice: ReplayOptions.ProgressChoice, standardErrorIsTerminal: Bool,
    isContinuousIntegration: Bool
  ) -> Bool {
    switch choice {
    case .always: true
    case .never: false
    case .automatic: standardErrorIsTerminal && !isContinuousIntegration
    }
  }

  /// Starts redrawing, on a timer of its own.
  func start() {
    let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
    timer.schedule(
      deadline: .now() + .milliseconds(100), repeating: .milliseconds(100),
      leeway: .milliseconds(20))
    timer.setEventHandler { [weak self] in self?.redraw() }
    self.timer = timer
    timer.resume()
  }

  /// Stops redrawing and erases the line.
  func stop() {
    timer?.cancel()
    timer = nil
    locked { state in
      state.isStopped = true
      if state.isShown { try? standardError.write(Self.erase) }
      state.isShown = false
    }
  }

  /// Draws the line with the counts of now.
  func redraw(now: ContinuousClock.Instant = .now) {
    let line = Self.line(
      bytes: progress.bytesRead, lines: progress.linesRead, totalBytes: progress.totalBytes,
      elapsed: now - startTime)
    locked { state in
      guard !state.isStopped else { return }
      try? standardError.write("\r" + line + "\u{1B}[K")
      state.isShown = true
    }
  }

  /// Writes a message to standard error, erasing the progress line first.
  func write(_ bytes: UnsafeRawBufferPointer) throws(RaspOutputError) {
    let result: Result<Void, RaspOutputError> = locked { state in
      if state.isShown {
        try? standardError.write(Self.erase)
        state.isShown = false
      }
      return Result { () throws(RaspOutputError) in try standardError.write(bytes) }
    }
    try result.get()
  }

  /// Whether standard error is a terminal.
  var isTerminal: Bool { standardError.isTerminal }

  /// What erases the line: back to its start, and clear to the end of the line.
  static let erase = Array("\r\u{1B}[K".utf8)

  /// The text of the line: `rasp: 1,200,000 lines · 2.4 M lines/s · 120.0 MB of 480.0 MB (25%) ·
  /// 2 s left`, without the size when it is not known.
  ///
  /// ```swift
  /// ProgressDisplay.line(bytes: 50, lines: 10, totalBytes: 100, elapsed: .seconds(1))
  /// // "rasp: 10 lines · 10 lines/s · 50 B of 100 B (50%) · 1 s left"
  /// ```
  static func line(bytes: Int, lines: Int, totalBytes: Int?, elapsed: Duration) -> String {
    let seconds =
      Double(elapsed.components.seconds)
      + Double(elapsed.components.attoseconds) / 1e18
    var parts = ["rasp: \(grouped(lines)) lines"]
    if seconds > 0 { parts.append("\(rate(Double(lines) / seconds)) lines/s") }
    if let totalBytes, totalBytes > 0 {
      let percent = min(100, bytes * 100 / totalBytes)
      parts.append("\(size(bytes)) of \(size(totalBytes)) (\(percent)%)")
      if seconds > 0, bytes > 0, bytes < totalBytes {
        let left = Double(totalBytes - bytes) / (Double(bytes) / seconds)
        parts.append("\(duration(left)) left")
      }
    } else {
      parts.append("\(size(bytes)) read")
    }
    return parts.joined(separator: " · ")
  }

  /// `1234567` as `1,234,567`.
  static func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return text
  }

  /// A rate: `950`, `12.3 k`, `2.4 M`.
  static func rate(_ value: Double) -> String {
    if value >= 1e6 { return oneDecimal(value / 1e6) + " M" }
    if value >= 1e4 { return oneDecimal(value / 1e3) + " k" }
    return String(Int(value.rounded()))
  }

  /// A size: `512 B`, `12.3 kB`, `120.0 MB`, `2.5 GB` (powers of 1,000).
  static func size(_ bytes: Int) -> String {
    let value = Double(bytes)
    if value >= 1e9 { return oneDecimal(value / 1e9) + " GB" }
    if value >= 1e6 { return oneDecimal(value / 1e6) + " MB" }
    if value >= 1e3 { return oneDecimal(value / 1e3) + " kB" }
    return "\(bytes) B"
  }

  /// A time left: `5 s`, `2 min 5 s`, `1 h 2 min`.
  static func duration(_ seconds: Double) -> String {
    let total = Int(seconds.rounded(.up))
    if total >= 3600 { return "\(total / 3600) h \(total % 3600 / 60) min" }
    if total >= 60 { return "\(total / 60) min \(total % 60) s" }
    return "\(total) s"
  }

  /// `12.34` as `12.3`.
  private static func oneDecimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }

  /// Runs `body` under the lock, with the hand-over edge ThreadSanitizer needs.
  private func locked<Result>(_ body: (inout State) -> Result) -> Result {
    state.withLock { state in
      _ = handoff.load(ordering: .acquiring)
      defer { handoff.store(0, ordering: .releasing) }
      return body(&state)
    }
  }
}
