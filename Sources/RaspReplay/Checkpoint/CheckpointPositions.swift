import RaspDomains

/// Where a replay that yields checkpoints is: the last line it handled of each input, and
/// when the next checkpoint is due.
///
/// ```swift
/// var positions = CheckpointPositions(
///   lines: [0], offsets: [0], readHashes: [nil], times: [nil], interval: 1000, events: 0)
/// positions.note(line: 12, offset: 840, time: nil, of: 0, events: 1000, atLineEnd: true)
/// positions.isDue   // true
/// ```
struct CheckpointPositions {
  /// For each input, the number of the last line handled.
  var lines: [Int]
  /// For each input, the offset of the byte after the last line handled; -1 when not known.
  var offsets: [Int]
  /// For each input, the hash of the bytes read when its last batch handled was made.
  var readHashes: [SegmentedLogHash?]
  /// For each input, the time of the last line handled, as the merge orders it.
  var times: [RaspTimestamp?]
  /// The events between checkpoints, or `nil` for none along the way.
  let interval: Int?
  /// The count of events at or after which the next checkpoint is due.
  private(set) var nextDue: Int
  /// Whether a checkpoint is due: yielded before the next item is handled.
  var isDue = false
  /// Whether the checkpoint at the end was yielded.
  var isEndDone = false

  init(
    lines: [Int], offsets: [Int], readHashes: [SegmentedLogHash?], times: [RaspTimestamp?],
    interval: Int?, events: Int
  ) {
    self.lines = lines
    self.offsets = offsets
    self.readHashes = readHashes
    self.times = times
    self.interval = interval
    self.nextDue = interval.map { events + $0 } ?? .max
  }

  /// Notes a line handled; a checkpoint is due when enough events were applied since the
  /// last, and the line has no more events to apply.
  mutating func note(
    line: Int, offset: Int, time: RaspTimestamp?, of input: Int, events: Int, atLineEnd: Bool
  ) {
    lines[input] = line
    offsets[input] = offset
    times[input] = time
    guard events >= nextDue, atLineEnd, let interval else { return }
    isDue = true
    nextDue = events + interval
  }
}
