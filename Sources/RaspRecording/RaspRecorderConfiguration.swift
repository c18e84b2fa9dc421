import RaspDomains

/// How a recorder writes: its clock, its buffer, what it does when the disk falls behind,
/// when it starts a new part, and whether it writes a golden file beside the log.
///
/// The defaults lose nothing: a buffer of 16,384 events, senders that wait when it is full,
/// one part of any size, no golden file.
///
/// ```swift
/// var configuration = RaspRecorderConfiguration()
/// configuration.whenFull = .drop
/// configuration.maxPartBytes = 64 << 20
/// configuration.goldenPath = "session.golden.jsonl"
/// let recorder = try RaspRecorder(path: "session.jsonl", configuration: configuration)
/// ```
public struct RaspRecorderConfiguration: Sendable {
  /// What a send does when the buffer is full because the disk is slower than the events.
  ///
  /// ```swift
  /// configuration.whenFull = .wait
  /// ```
  public enum FullBufferPolicy: Sendable, Equatable {
    /// The sending thread waits until the writer has made room: nothing is lost, and the app
    /// slows down to the disk's pace. The default.
    case wait
    /// The event is not recorded (it is still applied) and counted in
    /// ``RaspRecorder/droppedCount``; the count is written at the log's end.
    case drop
  }

  /// Where each event's `ts` comes from; the system's clock by default.
  public var clock: any RaspRecorderClock
  /// The most events waiting to be written; 16,384 by default.
  ///
  /// Each recorded aggregator reserves room for this many events (and their states, with a
  /// golden file) when it is attached, so that recording never allocates afterwards.
  public var maxPendingEvents: Int
  /// What a send does when the buffer is full; ``FullBufferPolicy/wait`` by default.
  public var whenFull: FullBufferPolicy
  /// The size at which the log goes on in a new part (`session.1.jsonl`, `session.2.jsonl`,
  /// …), or `nil` (the default) for one file of any size. A part holds whole lines only, and
  /// at least one.
  public var maxPartBytes: Int?
  /// Where to write the golden file — one snapshot per recorded event, as `rasp replay`
  /// prints it for the log — or `nil` (the default) for none.
  public var goldenPath: String?
  /// The domains of the replay the golden file is for: their states, in name order, make each
  /// snapshot. The built-in domains by default, as `rasp replay` has them; a custom domain
  /// (`cart-rasp`'s cart) must be listed before it is recorded.
  public var goldenDomains: [any RaspDomain]
  /// The longest a recorded line waits in the buffer before it is written, in milliseconds;
  /// 50 by default. ``RaspRecorder/flush()`` writes at once.
  public var maxLatencyMilliseconds: Int

  /// Creates the default configuration.
  ///
  /// ```swift
  /// let configuration = RaspRecorderConfiguration(clock: RaspManualClock(start: start))
  /// ```
  ///
  /// - Parameters:
  ///   - clock: Where each event's `ts` comes from.
  ///   - maxPendingEvents: The most events waiting to be written.
  ///   - whenFull: What a send does when the buffer is full.
  ///   - maxPartBytes: The size at which the log goes on in a new part, or `nil`.
  ///   - goldenPath: Where to write the golden file, or `nil`.
  ///   - goldenDomains: The domains of the replay the golden file is for.
  public init(
    clock: any RaspRecorderClock = RaspSystemClock(), maxPendingEvents: Int = 16_384,
    whenFull: FullBufferPolicy = .wait, maxPartBytes: Int? = nil, goldenPath: String? = nil,
    goldenDomains: [any RaspDomain] = RaspBuiltinDomains.all
  ) {
    self.clock = clock
    self.maxPendingEvents = maxPendingEvents
    self.whenFull = whenFull
    self.maxPartBytes = maxPartBytes
    self.goldenPath = goldenPath
    self.goldenDomains = goldenDomains
    self.maxLatencyMilliseconds = 50
  }
}
