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
///   case .checkpoint(let checkpoint): flush(); save(checkpoint)
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
  /// A line not applied that is not bad either — an event of unknown type, of a domain left
  /// out, dropped — with why, in its ``ReplayDiagnostic/reason``; yielded only with
  /// ``ReplayConfiguration/reportsIgnoredLines``.
  case ignored(ReplayDiagnostic)
  /// Something that happened to an input, worth telling the user: a followed file replaced
  /// or truncated.
  case notice(ReplayNotice)
  /// A live input (a pipe, a terminal, a followed file) has nothing more ready: the next call
  /// may wait for it. Deliver what you hold now, so that it is seen without delay.
  case waiting
  /// The replay reached a line boundary where a checkpoint is due
  /// (``ReplayConfiguration/checkpointInterval``), or its end
  /// (``ReplayConfiguration/checkpointsAtEnd``): every record before it was yielded, none
  /// after. Deliver the records you hold, then save it.
  case checkpoint(ReplayCheckpoint)
  /// The end of the replay, with its counts and how it ended. Nothing follows.
  ///
  /// Boxed (`indirect`): the summary is four times the size of a record, and an outcome is
  /// moved several times per event; unboxed, every outcome would be as large.
  indirect case end(ReplaySummary)
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
  ///
  /// ```swift
  /// String(decoding: output[record.range], as: UTF8.self)   // {"geo":{…}}
  /// ```
  public let range: Range<Int>
  /// The snapshot's number: how many events had been applied (0 for the initial state).
  ///
  /// ```swift
  /// record.seq   // 1 after the first event
  /// ```
  public let seq: Int
  /// The position of the last applied event's input in the replay's inputs, or `nil` when no
  /// event was applied.
  ///
  /// ```swift
  /// record.input.map { inputs[$0].name }   // "events.jsonl"
  /// ```
  public let input: Int?
  /// The last applied event's line in its input, or `nil` when no event was applied.
  ///
  /// ```swift
  /// record.line   // 6
  /// ```
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
/// The place is the line's own, in its input, even when the replay merged several: a message
/// built from it points the user at the byte that is wrong.
///
/// ```swift
/// case .skipped(let diagnostic):
///   print(diagnostic)   // events.jsonl:3:47: trailing comma before '}'
/// ```
public struct ReplayDiagnostic: Error, Sendable, Equatable, CustomStringConvertible {
  /// The position of the line's input in the replay's inputs.
  ///
  /// ```swift
  /// inputs[diagnostic.input].name   // "events.jsonl"
  /// ```
  public let input: Int
  /// The input's name, as given to ``ReplayInput``.
  ///
  /// ```swift
  /// diagnostic.inputName   // "events.jsonl"
  /// ```
  public let inputName: String
  /// The line's number in its input, counting from 1.
  ///
  /// ```swift
  /// diagnostic.line   // 3
  /// ```
  public let line: Int
  /// The column of the problem, counting Unicode scalars from 1: the start of the line for a
  /// problem with the whole event, such as a reducer's rejection.
  ///
  /// ```swift
  /// diagnostic.column   // 47
  /// ```
  public let column: Int
  /// What is wrong, as a sentence fragment.
  ///
  /// ```swift
  /// diagnostic.reason   // "trailing comma before '}'"
  /// ```
  public let reason: String

  /// A diagnostic.
  ///
  /// ```swift
  /// let diagnostic = ReplayDiagnostic(
  ///   input: 0, inputName: "events.jsonl", line: 3, column: 47,
  ///   reason: "trailing comma before '}'")
  /// ```
  ///
  /// - Parameters:
  ///   - input: The input's position.
  ///   - inputName: The input's name.
  ///   - line: The line's number.
  ///   - column: The problem's column.
  ///   - reason: What is wrong.
  public init(input: Int, inputName: String, line: Int, column: Int, reason: String) {
    self.input = input
    self.inputName = inputName
    self.line = line
    self.column = column
    self.reason = reason
  }

  /// `file:line:column: reason`.
  public var description: String { "\(inputName):\(line):\(column): \(reason)" }
}

/// Something that happened to an input that the user should know about: a followed file
/// replaced or truncated, a partial line left when the replay stopped.
///
/// ```swift
/// case .notice(let notice): print("rasp: note: \(notice.message)")
/// ```
public struct ReplayNotice: Sendable, Equatable {
  /// The position of the input in the replay's inputs.
  ///
  /// ```swift
  /// inputs[notice.input].name   // "app.log"
  /// ```
  public let input: Int
  /// What happened, as a sentence fragment naming the input.
  ///
  /// ```swift
  /// notice.message   // "'app.log' was replaced; reading the new file from its start"
  /// ```
  public let message: String

  /// A notice.
  ///
  /// ```swift
  /// let notice = ReplayNotice(input: 0, message: "'app.log' was truncated")
  /// ```
  ///
  /// - Parameters:
  ///   - input: The input's position.
  ///   - message: What happened.
  public init(input: Int, message: String) {
    self.input = input
    self.message = message
  }
}

/// How a replay ended, and its counts: the last outcome.
///
/// ```swift
/// case .end(let summary):
///   if summary.ending != .completed { status = 2 }
///   print(summary.statistics.summary, terminator: "")
/// ```
public struct ReplaySummary: Sendable, Equatable {
  /// How a replay ended.
  ///
  /// ```swift
  /// if case .interrupted(let signal) = summary.ending { exit(128 + signal) }
  /// ```
  public enum Ending: Sendable, Equatable {
    /// Every input was read to its end, or up to ``ReplayConfiguration/until`` (or its `at`),
    /// which ``ReplayStatistics/stoppingOption`` then names.
    case completed
    /// A bad line stopped it (``ReplayConfiguration/ErrorMode/fail``); it was the last
    /// outcome before the end.
    case stoppedAtBadLine
    /// An input could not be read further, with the system's message.
    case readFailure(input: Int, message: String)
    /// ``ReplayInterruption/request(signal:)`` stopped it, before the next line.
    case interrupted(signal: Int32)
  }

  /// The count of every line read.
  ///
  /// ```swift
  /// summary.statistics.read   // 20
  /// ```
  public let statistics: ReplayStatistics
  /// How it ended.
  ///
  /// ```swift
  /// summary.ending   // .completed
  /// ```
  public let ending: Ending

  /// A summary.
  ///
  /// ```swift
  /// let summary = ReplaySummary(statistics: ReplayStatistics(), ending: .completed)
  /// ```
  ///
  /// - Parameters:
  ///   - statistics: The counts.
  ///   - ending: How it ended.
  public init(statistics: ReplayStatistics, ending: Ending) {
    self.statistics = statistics
    self.ending = ending
  }
}
