import Dispatch
import RaspReplay

/// A one-line progress display on standard error, redrawn ten times a second while a command
/// reads, and erased at its end: `rasp: 1200000 lines · 2.4 M lines/s · 120.0 MB of 480.0 MB
/// (25%) · 2 s left`.
///
/// It draws on the environment's ``RaspStatusLine``, through which the environment's standard
/// output and standard error write: whatever a command prints while it runs — data on a
/// terminal's standard output, a bad line's message — erases the line first and lands where
/// the line was; the next redraw puts the line back below it. So the line is always the last
/// row, and gone when the command ends.
///
/// When it shows (``isWanted(_:standardError:standardOutput:readsTerminal:variables:)``): on
/// a terminal's standard error, outside CI, and only where rasp is the one writing to that
/// terminal — not when standard output is a pipe, whose reader (`less`, `head`, `jq`) writes
/// there too without rasp knowing when (git, for the same reason, sends its standard error
/// into its own pager), and not while rasp reads what a person types at that terminal. The
/// first draw waits half a second, as cargo's does, so a short command never flashes one.
///
/// A command of its own shows one in three lines:
///
/// ```swift
/// let progress = ReplayProgress(totalBytes: size)   // counted by the replay, or by hand
/// let display = ProgressDisplay.start(
///   counting: progress, choice: .automatic, readsTerminal: false, in: environment)
/// defer { display?.stop() }
/// // … write to environment.standardOutput and standardError as usual …
/// ```
final class ProgressDisplay: @unchecked Sendable {
  /// When a command shows its progress line: `--progress`, `--no-progress`, or neither.
  enum Choice: Equatable {
    /// When ``ProgressDisplay/isWanted(_:standardError:standardOutput:readsTerminal:variables:)``
    /// says.
    case automatic
    /// Always, on any standard error: `--progress`.
    case always
    /// Never: `--no-progress`.
    case never
  }

  /// The counts shown.
  let progress: ReplayProgress
  /// The line drawn on.
  private let line: RaspStatusLine
  /// Standard error, for its width.
  private let standardError: any RaspOutputStream
  /// When the display started.
  private let startTime = ContinuousClock.now
  /// The timer that redraws, while the display runs.
  private var timer: DispatchSourceTimer?
  /// The text of the line after a time, for a command that counts something else than lines
  /// read (`rasp shrink`); `nil` for ``line(bytes:lines:totalBytes:elapsed:)``.
  private let describe: (@Sendable (Duration) -> String)?

  /// How long after the start the line is first drawn.
  static let delay = Duration.milliseconds(500)
  /// How often it is redrawn after that.
  static let interval = Duration.milliseconds(100)

  /// A display of `progress` on `environment`'s status line, not started.
  ///
  /// - Parameters:
  ///   - progress: The counts shown.
  ///   - environment: Where to draw.
  ///   - describe: The line's text after a time, instead of the counts of `progress`.
  init(
    progress: ReplayProgress, environment: RaspEnvironment,
    describe: (@Sendable (Duration) -> String)? = nil
  ) {
    self.progress = progress
    self.describe = describe
    line = environment.statusLine
    standardError = environment.standardError
    line.begin(
      on: (environment.standardError as? RaspStatusLine.Guarded)?.stream
        ?? environment.standardError,
      outputSharesTerminal: environment.standardOutput.destination.isSameTerminal(
        as: environment.standardError.destination))
  }

  /// Starts a display of `progress` when `choice` and the environment want one (see
  /// ``isWanted(_:standardError:standardOutput:readsTerminal:variables:)``).
  ///
  /// ```swift
  /// let display = ProgressDisplay.start(
  ///   counting: progress, choice: options.progress, readsTerminal: false, in: environment)
  /// defer { display?.stop() }
  /// ```
  ///
  /// - Parameters:
  ///   - progress: The counts, which the command adds to as it reads.
  ///   - choice: The command line's choice.
  ///   - readsTerminal: Whether the command reads a terminal (a person typing).
  ///   - environment: Where to draw; its standard output and error keep clear of the line.
  ///   - describe: The line's text after a time, instead of the counts of `progress`.
  /// - Returns: The display, drawing from half a second on; `nil` when none is wanted.
  static func start(
    counting progress: ReplayProgress, choice: Choice, readsTerminal: Bool,
    in environment: RaspEnvironment, describing describe: (@Sendable (Duration) -> String)? = nil
  ) -> ProgressDisplay? {
    guard
      isWanted(
        choice, standardError: environment.standardError.destination,
        standardOutput: environment.standardOutput.destination, readsTerminal: readsTerminal,
        variables: environment.variables)
    else { return nil }
    let display = ProgressDisplay(progress: progress, environment: environment, describe: describe)
    display.start()
    return display
  }

  /// Whether a command shows its progress line: `--progress` forces it and `--no-progress`
  /// forbids it; otherwise only when standard error is a terminal, not a dumb one (`TERM=dumb`
  /// cannot erase a line), outside CI (`CI` set, as CI services set it), standard output is
  /// no pipe (a reader such as `less` or `head` shares the terminal), and the command does
  /// not read what a person types there.
  ///
  /// ```swift
  /// ProgressDisplay.isWanted(
  ///   .automatic, standardError: .terminal(device: 1), standardOutput: .pipe,
  ///   readsTerminal: false, variables: [:])   // false: `| less`
  /// ```
  ///
  /// - Parameters:
  ///   - choice: The command line's choice.
  ///   - standardError: What standard error writes to.
  ///   - standardOutput: What standard output writes to.
  ///   - readsTerminal: Whether an input is a terminal.
  ///   - variables: The environment's variables (`CI`, `TERM`).
  /// - Returns: Whether to show the line.
  static func isWanted(
    _ choice: Choice, standardError: RaspOutputDestination,
    standardOutput: RaspOutputDestination, readsTerminal: Bool, variables: [String: String]
  ) -> Bool {
    switch choice {
    case .always: return true
    case .never: return false
    case .automatic:
      return standardError.isTerminal
        && !RaspEnvironment.isContinuousIntegration(variables: variables)
        && variables["TERM"] != "dumb"
        && standardOutput != .pipe && !readsTerminal
    }
  }

  /// Starts redrawing, on a timer of its own.
  func start() {
    let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
    func milliseconds(_ duration: Duration) -> DispatchTimeInterval {
      .milliseconds(Int(duration / .milliseconds(1)))
    }
    timer.schedule(
      deadline: .now() + milliseconds(Self.delay), repeating: milliseconds(Self.interval),
      leeway: .milliseconds(20))
    timer.setEventHandler { [weak self] in self?.redraw() }
    self.timer = timer
    timer.resume()
  }

  /// Stops redrawing and erases the line.
  func stop() {
    timer?.cancel()
    timer = nil
    line.end()
  }

  /// Draws the line with the counts of now, cut to the terminal's width.
  func redraw(now: ContinuousClock.Instant = .now) {
    var text =
      describe?(now - startTime)
      ?? Self.line(
        bytes: progress.bytesRead, lines: progress.linesRead, totalBytes: progress.totalBytes,
        elapsed: now - startTime)
    // A line wider than the terminal would wrap, and erasing would clear only its last row.
    if let columns = standardError.terminalColumns, text.count >= columns {
      text = String(text.prefix(max(0, columns - 1)))
    }
    line.draw(text)
  }

  /// The text of the line: `rasp: 1200000 lines · 2.4 M lines/s · 120.0 MB of 480.0 MB (25%)
  /// · 2 s left`, without the size when it is not known. Counts are plain digits, as in
  /// `--stats` (and git's and cargo's progress).
  ///
  /// ```swift
  /// ProgressDisplay.line(bytes: 50, lines: 10, totalBytes: 100, elapsed: .seconds(1))
  /// // "rasp: 10 lines · 10 lines/s · 50 B of 100 B (50%) · 1 s left"
  /// ```
  static func line(bytes: Int, lines: Int, totalBytes: Int?, elapsed: Duration) -> String {
    let seconds =
      Double(elapsed.components.seconds)
      + Double(elapsed.components.attoseconds) / 1e18
    var parts = ["rasp: \(lines) \(lines == 1 ? "line" : "lines")"]
    if seconds > 0 {
      let rate = rate(Double(lines) / seconds)
      parts.append("\(rate) \(rate == "1" ? "line" : "lines")/s")
    }
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
}
