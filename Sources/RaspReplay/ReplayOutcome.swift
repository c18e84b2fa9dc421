/// What a replay yields, in order: records, bad lines, notices, and finally its end.
///
/// Every event applied yields at most one ``record(_:)``; every line read is accounted for in
/// the end's ``ReplayStatistics``. `.end` is always the last outcome.
///
/// ```swift
/// var output: [UInt8] = []
/// while let outcome = replay.next(appendingTo: &output) {
///   switch outcome {
///   case .record(let record): print(String(decoding: output[record.range], as: UTF8.self))
///   case .skipped(let diagnostic): print(diagnostic)
///   case .notice(let notice): print(notice.message)
///   case .waiting: flush()
///   case .end(let summary): print(summary.statistics.summary)
///   }
/// }
/// ```
public enum ReplayOutcome: Sendable, Equatable {
  /// A record — a snapshot, a selected value or a diff, as one canonical JSON value without a
  /// line end — was appended to the output.
  case record(ReplayRecord)
  /// A bad line, not applied. With ``ReplayConfiguration/ErrorMode/fail`` the replay ends
  /// after it.
  case skipped(ReplayDiagnostic)
  /// Something that happened to an input, worth telling the user: a followed file replaced
  /// or truncated.
  case notice(ReplayNotice)
  /// A live input (a pipe, a terminal, a followed file) has nothing more ready: the next call
  /// may wait for it. Deliver what you hold now, so that it is seen without delay.
  case waiting
  /// The end of the replay, with its counts and how it ended. Nothing follows.
  case end(ReplaySummary)
}

/// One record a replay appended to its output, and where it came from.
///
/// ```swift
/// case .record(let record):
///   let bytes = output[record.range]
///   print(record.seq, record.line ?? 0)
/// ```
public struct ReplayRecord: Sendable, Equatable {
  /// Where the record's bytes are in the output passed to ``Replay/next(appendingTo:)``.
  public let range: Range<Int>
  /// The snapshot's number: how many events had been applied (0 for the initial state).
  public let seq: Int
  /// The position of the event's input in the replay's inputs, or `nil` when no event was
  /// applied.
  public let input: Int?
  /// The event's line in its input, or `nil` when no event was applied.
  public let line: Int?

  /// A record at `range` of an output.
  ///
  /// ```swift
  /// let record = ReplayRecord(range: 0..<2, seq: 1, input: 0, line: 1)
  /// ```
  ///
  /// - Parameters:
  ///   - range: Where its bytes are.
  ///   - seq: The snapshot's number.
  ///   - input: The event's input, or `nil`.
  ///   - line: The event's line, or `nil`.
  public init(range: Range<Int>, seq: Int, input: Int?, line: Int?) {
    self.range = range
    self.seq = seq
    self.input = input
    self.line = line
  }
}

/// A bad line: where it is and what is wrong.
///
/// ```swift
/// print(diagnostic)   // events.jsonl:3:47: trailing comma before '}'
/// ```
public struct ReplayDiagnostic: Error, Sendable, Equatable, CustomStringConvertible {
  /// The position of the line's input in the replay's inputs.
  public let input: Int
  /// The input's name, as given to ``ReplayInput``.
  public let inputName: String
  /// The line's number, counting from 1.
  public let line: Int
  /// The column of the problem, counting Unicode scalars from 1, or `nil` for the whole line.
  public let column: Int?
  /// What is wrong, as a sentence fragment.
  public let reason: String

  /// `file:line:column: reason`.
  public var description: String {
    "\(inputName):\(line):\(column.map { "\($0):" } ?? "") \(reason)"
  }
}

/// Something that happened to an input that the user should know about.
///
/// ```swift
/// case .notice(let notice): print("rasp: note: \(notice.message)")
/// ```
public struct ReplayNotice: Sendable, Equatable {
  /// The position of the input in the replay's inputs.
  public let input: Int
  /// What happened, as a sentence fragment naming the input.
  public let message: String
}

/// How a replay ended, and its counts.
public struct ReplaySummary: Sendable, Equatable {
  /// How a replay ended.
  public enum Ending: Sendable, Equatable {
    /// Every input was read to its end.
    case completed
    /// A bad line stopped it (``ReplayConfiguration/ErrorMode/fail``); it was the last
    /// outcome before the end.
    case stoppedAtBadLine
    /// An input could not be read further, with the system's message.
    case readFailure(input: Int, message: String)
    /// ``ReplayInterruption/request(signal:)`` stopped it, at a line boundary.
    case interrupted(signal: Int32)
  }

  /// The count of every line read.
  public let statistics: ReplayStatistics
  /// How it ended.
  public let ending: Ending
}
