import Rasp
import RaspDomains
import RaspJSON

/// Records what an app's aggregators apply as a log that `rasp replay` reads and `rasp check`
/// pins: a bug report becomes a log, the log a golden test.
///
/// Attach the recorder to one or more aggregators with ``record(_:as:)``. Every event they
/// apply — from a source, from `send`, a composite's events one by one — becomes one line of
/// rasp's log format, in the order the events were applied, across aggregators too:
///
/// ```json
/// {"type":"geo.heading","ts":"2026-11-22T09:30:00.25Z","source":"compass","payload":{"heading":9}}
/// ```
///
/// `type` is the domain's name and the event's (``RaspRecordableDomain``), `ts` comes from the
/// configured clock, `source` is the ``Rasp/RaspSource/name`` of the source that produced the
/// event (absent for `send` and unnamed sources), and `payload` is what the domain's decoder
/// reads. Rejected events are not applied, and not recorded; a composite that rolls back is
/// not recorded, and its fallback is when it applies.
///
/// **Safe to leave on.** The sending thread only copies the event, its source and the time
/// into a bounded buffer, allocating nothing; a thread of the recorder's own encodes the lines
/// and writes them to the file. When the disk falls behind, the sender waits (the default,
/// which loses nothing) or the event is dropped and counted
/// (``RaspRecorderConfiguration/whenFull``); a count of dropped events is written at the log's
/// end, as a `rasp.dropped` line. A write error stops the
/// recording, goes to every recorded aggregator's failure channel (origin `.recorder`), and
/// never stops the app.
///
/// **Golden file.** With ``RaspRecorderConfiguration/goldenPath``, the recorder also writes,
/// for each recorded event, the snapshot `rasp replay` prints for that line, so that
/// `rasp check --golden` passes on the recording from the first run.
///
/// ```swift
/// let recorder = try RaspRecorder(path: "session.jsonl")
/// try recorder.record(geoAggregator, as: GeoDomain())
/// try recorder.record(navAggregator, as: NavDomain())
/// // … the app runs …
/// recorder.finish()   // writes what is left and closes the log
/// ```
public final class RaspRecorder: Sendable {
  /// The log's path: its first part.
  ///
  /// ```swift
  /// recorder.path   // "session.jsonl"
  /// ```
  public let path: String

  @usableFromInline let channel: RecorderChannel
  /// The taps, and the aggregators to tell about a write error.
  private let attachments: AttachmentList

  /// The recorder's attachments behind a lock, in a class so that the channel's failure
  /// handler can share them.
  private final class AttachmentList: Sendable {
    private let state = RaspMutex(Attachments())

    func withLock<Result>(_ body: (inout Attachments) -> Result) -> Result {
      state.withLock { body(&$0) }
    }
  }

  private struct Attachments {
    var names: Set<String> = []
    var taps: [RaspSubscription] = []
    var reporters: [@Sendable (RaspRecorderError) -> Void] = []
    var isFinished = false
  }

  /// The golden domains' slots by name, fixed at creation.
  @usableFromInline let goldenSlots: [String: Int]
  @usableFromInline let hasGoldenFile: Bool

  /// Starts a recording: creates the log (emptying a file already there, and removing a
  /// previous recording's later parts) and, if configured, the golden file.
  ///
  /// ```swift
  /// let recorder = try RaspRecorder(
  ///   path: "session.jsonl",
  ///   configuration: RaspRecorderConfiguration(goldenPath: "session.golden.jsonl"))
  /// ```
  ///
  /// - Parameters:
  ///   - path: The log's path.
  ///   - configuration: The clock, buffer, policy, parts and golden file.
  /// - Throws: ``RaspRecorderError/cannotCreate(path:code:)`` when a file cannot be created.
  public init(
    path: String, configuration: RaspRecorderConfiguration = RaspRecorderConfiguration()
  ) throws(RaspRecorderError) {
    self.path = path
    let file = try RecorderFile(path: path, maxPartBytes: configuration.maxPartBytes)
    let goldenFile = try configuration.goldenPath.map { path throws(RaspRecorderError) in
      try RecorderFile(path: path, maxPartBytes: nil)
    }
    var golden: [(name: String, state: [UInt8])] = []
    if goldenFile != nil {
      for domain in configuration.goldenDomains
      where !golden.contains(where: { $0.name == domain.name }) {
        golden.append((domain.name, Self.encodedInitialState(of: domain)))
      }
      golden.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }
    hasGoldenFile = goldenFile != nil
    goldenSlots = Dictionary(
      golden.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    let attachments = AttachmentList()
    self.attachments = attachments
    channel = RecorderChannel(
      file: file, goldenFile: goldenFile, golden: golden, configuration: configuration,
      onFailure: { error in
        let reporters = attachments.withLock { $0.reporters }
        for report in reporters { report(error) }
      })
    channel.start()
  }

  deinit {
    finish()
  }

  /// Records every event `aggregator` applies from now on, as events of `domain`.
  ///
  /// The aggregator's state must be the domain's state; its events are written with the
  /// domain's ``RaspRecordableDomain/encodeEvent(_:into:)``. Each domain can be recorded from
  /// one aggregator only, since a replay applies all of a domain's events to one state.
  ///
  /// ```swift
  /// try recorder.record(aggregator, as: GeoDomain())
  /// ```
  ///
  /// - Parameters:
  ///   - aggregator: The aggregator to record.
  ///   - domain: The domain its state and events belong to.
  /// - Throws: ``RaspRecorderError/domainAlreadyRecorded(_:)`` for a second aggregator of the
  ///   same domain, ``RaspRecorderError/notAGoldenDomain(_:)`` for a domain the golden file's
  ///   snapshots do not hold, ``RaspRecorderError/finished`` after ``finish()``.
  @inlinable
  public func record<Domain: RaspRecordableDomain>(
    _ aggregator: RaspAggregator<Domain.State>, as domain: Domain
  ) throws(RaspRecorderError) where Domain.State: Sendable, Domain.State.Event: Sendable {
    let name = domain.name
    try register(name) { [weak aggregator] error in aggregator?.reportRecorderFailure(error) }
    let channel = self.channel
    var made: RecorderAttachment<Domain>?
    let isAdded = channel.add(slot: goldenSlots[name] ?? -1) { index in
      let attachment = RecorderAttachment(
        domain: domain, channel: channel, index: index, keepsStates: hasGoldenFile,
        capacity: channel.pendingCapacity)
      made = attachment
      return RecorderSource(attachment)
    }
    guard isAdded, let attachment = made else { throw .finished }
    attach(
      aggregator.tapAppliedEvents { event, state, source in
        attachment.record(event, state: state, source: source)
      })
  }

  /// Registers a domain to record, and how to tell its aggregator about a write error.
  @usableFromInline
  func register(
    _ name: String, reporter: @escaping @Sendable (RaspRecorderError) -> Void
  ) throws(RaspRecorderError) {
    let (hasGoldenFile, goldenSlots) = (self.hasGoldenFile, self.goldenSlots)
    let result = attachments.withLock { attachments -> RaspRecorderError? in
      if attachments.isFinished { return .finished }
      if hasGoldenFile && goldenSlots[name] == nil { return .notAGoldenDomain(name) }
      guard attachments.names.insert(name).inserted else { return .domainAlreadyRecorded(name) }
      attachments.reporters.append(reporter)
      return nil
    }
    if let result { throw result }
  }

  /// Keeps a tap until the recorder finishes.
  @usableFromInline
  func attach(_ tap: RaspSubscription) {
    let isFinished = attachments.withLock { attachments in
      if !attachments.isFinished { attachments.taps.append(tap) }
      return attachments.isFinished
    }
    if isFinished { tap.cancel() }
  }

  /// Waits until every event recorded so far is written to the log (handed to the operating
  /// system, so that it survives the app's end), or the recording has failed.
  ///
  /// ```swift
  /// recorder.flush()   // before sending a bug report with the log
  /// ```
  public func flush() {
    channel.flush()
  }

  /// Stops recording: detaches from the aggregators, writes what is left and the count of
  /// dropped events (if any), closes the files, and says how the recording went.
  ///
  /// Called when the recorder is released, too. Calling it again does nothing more.
  ///
  /// ```swift
  /// let summary = recorder.finish()
  /// print(summary.recordedCount, summary.droppedCount)
  /// ```
  ///
  /// - Returns: The counts, the parts written and the failure, if any.
  @discardableResult
  public func finish() -> RaspRecorderSummary {
    let taps = attachments.withLock { attachments -> [RaspSubscription] in
      attachments.isFinished = true
      defer { attachments.taps = [] }
      return attachments.taps
    }
    for tap in taps { tap.cancel() }
    channel.finish()
    return summary
  }

  /// How the recording goes: events recorded and dropped, parts begun, and the failure.
  ///
  /// ```swift
  /// if recorder.summary.droppedCount > 0 { print("the disk fell behind") }
  /// ```
  public var summary: RaspRecorderSummary {
    let progress = channel.progress
    return RaspRecorderSummary(
      recordedCount: progress.recorded, droppedCount: progress.dropped,
      partPaths: (0..<progress.partCount).map { RecorderFile.partPath(path, index: $0) },
      failure: progress.failure)
  }

  /// The number of events dropped so far: by the
  /// ``RaspRecorderConfiguration/FullBufferPolicy/drop`` policy, or after a write error.
  ///
  /// ```swift
  /// recorder.droppedCount   // 0
  /// ```
  public var droppedCount: Int { channel.progress.dropped }

  /// The write error that stopped the recording, or `nil`.
  ///
  /// ```swift
  /// if let failure = recorder.failure { print(failure) }
  /// ```
  public var failure: RaspRecorderError? { channel.progress.failure }

  private static func encodedInitialState<Domain: RaspDomain>(of domain: Domain) -> [UInt8] {
    var writer = JSONWriter()
    domain.encode(domain.initialState, into: &writer)
    return writer.bytes
  }
}

/// How a recording went.
///
/// ```swift
/// let summary = recorder.finish()
/// summary.partPaths   // ["session.jsonl", "session.1.jsonl"]
/// ```
public struct RaspRecorderSummary: Sendable, Equatable {
  /// The events recorded: handed to the writer, and written once the recording has finished
  /// without a failure.
  public var recordedCount: Int
  /// The events not written: dropped when the buffer was full, or after a write error.
  public var droppedCount: Int
  /// The log's parts, in the order they were written.
  public var partPaths: [String]
  /// The write error that stopped the recording, if any.
  public var failure: RaspRecorderError?
}
