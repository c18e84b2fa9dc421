import Foundation
import Rasp
import RaspDomains

/// Where a recorder takes each event's `ts`: the system's clock, or one a test controls.
///
/// The clock is read once per recorded event, under the recorder's lock, so the times in a log
/// follow the order of its lines.
///
/// ```swift
/// struct FixedClock: RaspRecorderClock {
///   func now() -> RaspTimestamp { RaspTimestamp(seconds: 1_795_336_200, nanoseconds: 0) }
/// }
/// ```
public protocol RaspRecorderClock: Sendable {
  /// The current time.
  ///
  /// - Returns: The time to write as the next event's `ts`.
  func now() -> RaspTimestamp
}

/// The system's wall clock (`CLOCK_REALTIME`), to the nanosecond: a recorder's default.
///
/// ```swift
/// let recorder = try RaspRecorder(
///   path: "session.jsonl", configuration: RaspRecorderConfiguration(clock: RaspSystemClock()))
/// ```
public struct RaspSystemClock: RaspRecorderClock {
  /// Creates the clock.
  ///
  /// ```swift
  /// let clock = RaspSystemClock()
  /// ```
  public init() {}

  /// The time now, from `clock_gettime(CLOCK_REALTIME)`.
  ///
  /// ```swift
  /// RaspSystemClock().now().seconds   // 1795336200
  /// ```
  ///
  /// - Returns: The current time.
  public func now() -> RaspTimestamp {
    Self.now()
  }

  /// The time now, without a clock value: what ``now()`` returns.
  static func now() -> RaspTimestamp {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return RaspTimestamp(seconds: Int64(time.tv_sec), nanoseconds: Int32(time.tv_nsec))
  }
}

/// A clock that tests control: it starts at a given time and moves on by a fixed step at each
/// reading, or only when told to.
///
/// With a step, every recorded event gets its own, predictable time, so a recorded log is the
/// same bytes on every run.
///
/// ```swift
/// let clock = RaspManualClock(
///   start: RaspTimestamp(seconds: 1_795_336_200, nanoseconds: 0), step: .milliseconds(250))
/// clock.now()   // 2026-11-22T08:30:00Z
/// clock.now()   // 2026-11-22T08:30:00.25Z
/// ```
public final class RaspManualClock: RaspRecorderClock {
  private let state: RaspMutex<(current: RaspTimestamp, step: Duration)>

  /// Creates a clock at `start` that moves on by `step` after each reading.
  ///
  /// ```swift
  /// let clock = RaspManualClock(start: RaspTimestamp(seconds: 0, nanoseconds: 0))
  /// ```
  ///
  /// - Parameters:
  ///   - start: The first time it reads.
  ///   - step: How far it moves after each reading; zero (the default) to move only with
  ///     ``advance(by:)``.
  public init(start: RaspTimestamp, step: Duration = .zero) {
    state = RaspMutex((start, step))
  }

  /// Returns the current time, then moves on by the step.
  ///
  /// ```swift
  /// let time = clock.now()
  /// ```
  ///
  /// - Returns: The current time.
  public func now() -> RaspTimestamp {
    state.withLock { state in
      let time = state.current
      state.current = Self.adding(state.step, to: time)
      return time
    }
  }

  /// Moves the clock on.
  ///
  /// ```swift
  /// clock.advance(by: .seconds(5))
  /// ```
  ///
  /// - Parameter duration: How far; a negative duration moves it back.
  public func advance(by duration: Duration) {
    state.withLock { $0.current = Self.adding(duration, to: $0.current) }
  }

  /// `time` moved on by `duration`, to the nanosecond.
  private static func adding(_ duration: Duration, to time: RaspTimestamp) -> RaspTimestamp {
    let (seconds, attoseconds) = duration.components
    let nanoseconds = Int64(time.nanoseconds) + attoseconds / 1_000_000_000
    // Floor division, so that a negative sum borrows a whole second.
    let second: Int64 = 1_000_000_000
    let carry = nanoseconds >= 0 ? nanoseconds / second : (nanoseconds + 1) / second - 1
    let total = time.seconds &+ seconds &+ carry
    let remainder = nanoseconds - carry * second
    return RaspTimestamp(seconds: total, nanoseconds: Int32(remainder))
  }
}
