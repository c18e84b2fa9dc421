import Synchronization

/// A request to stop a replay early and cleanly, from any thread or from a signal handler.
///
/// A replay that sees the request stops at the next line boundary — within a block of lines
/// for a file, at once for a pipe or a followed file it is waiting on — and ends with
/// ``ReplaySummary/Ending/interrupted(signal:)`` and its statistics, every record before that
/// point yielded. `rasp` requests it from its `SIGINT` and `SIGTERM` handlers.
///
/// ```swift
/// let interruption = ReplayInterruption()
/// configuration.interruption = interruption
/// // later, on another thread or in a signal handler:
/// interruption.request(signal: SIGINT)
/// ```
public final class ReplayInterruption: Sendable {
  /// The signal that requested the stop, or 0 before any request.
  private let requestedSignal = Atomic<Int32>(0)
  /// How many replays watch for the request now.
  private let watchers = Atomic<Int>(0)

  /// A request not made yet.
  ///
  /// ```swift
  /// let interruption = ReplayInterruption()
  /// ```
  public init() {}

  /// Asks the replays that watch this request to stop.
  ///
  /// Safe to call from a signal handler: it is one atomic store. A request is for good: later
  /// requests change nothing, and a replay started after it stops at once; make a new
  /// interruption for a new replay.
  ///
  /// ```swift
  /// interruption.request(signal: SIGTERM)
  /// ```
  ///
  /// - Parameter signal: The signal that asked, reported in the replay's end: `SIGINT`,
  ///   `SIGTERM` or `SIGHUP`, or any positive number when no signal did.
  public func request(signal: Int32) {
    _ = requestedSignal.compareExchange(
      expected: 0, desired: max(signal, 1), ordering: .sequentiallyConsistent)
  }

  /// The signal that requested the stop, or `nil` when none has.
  ///
  /// ```swift
  /// interruption.signal   // nil
  /// ```
  public var signal: Int32? {
    let value = requestedSignal.load(ordering: .acquiring)
    return value == 0 ? nil : value
  }

  /// Whether a stop was requested.
  var isRequested: Bool { requestedSignal.load(ordering: .relaxed) != 0 }

  /// Whether a replay watches for the request now, so that a request will stop it: a signal
  /// handler that finds none ends the process instead.
  ///
  /// ```swift
  /// if interruption.isWatched { interruption.request(signal: number) } else { exit(130) }
  /// ```
  public var isWatched: Bool { watchers.load(ordering: .acquiring) > 0 }

  /// Runs `body`, a replay that watches for the request, with ``isWatched`` true.
  ///
  /// ```swift
  /// let result = interruption.watching { runReplay() }
  /// ```
  ///
  /// - Parameter body: The replay.
  /// - Returns: What `body` returns.
  public func watching<Result>(_ body: () -> Result) -> Result {
    watchers.add(1, ordering: .sequentiallyConsistent)
    defer { watchers.subtract(1, ordering: .sequentiallyConsistent) }
    return body()
  }
}
