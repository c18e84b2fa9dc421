import Rasp
import RaspDomains
import RaspJSON

/// One line of one log, read and classified, ready for the replay loop.
///
/// The line's bytes, and the event that refers to them, are valid until the next line of the
/// same file is read. An item holds no references — what is wrong with a bad line is kept
/// beside it, in a list of ``ReplayProblem``s — so that the batches of thousands of items the
/// replay hands between threads are copied and freed without visiting each one.
struct ReplayItem {
  /// What the line holds.
  enum Kind {
    /// Only whitespace.
    case blank
    /// A well-formed event.
    case event(RaspLogEvent)
    /// A well-formed event whose payload was decoded ahead: its routing, and its row in its
    /// domain's column of the batch.
    case decoded(RaspLogEvent, domainIndex: Int, eventIndex: Int, row: Int)
    /// A bad line, or the end of what could be read: the problem at this index of the list
    /// kept beside the item.
    case problem(Int)
  }

  /// The position of the line's file in the command line.
  let fileIndex: Int
  /// The line's number in its file.
  let lineNumber: Int
  /// The line's bytes, without the line end.
  let bytes: UnsafeBufferPointer<UInt8>
  /// What it holds.
  let kind: Kind
  /// The time the merge orders by: the event's `ts`, or the last `ts` before it in its file;
  /// `nil` (before every time) until the file has given one.
  let time: RaspTimestamp?

  /// The same line read again without assuming where its payload ends: the item for an event
  /// whose assumed end was not confirmed (see ``ReplayFileLines/classify``).
  func readWithoutAssuming(problems: inout [ReplayProblem]) -> ReplayItem {
    var lastTime = time
    var memo = RaspTimestamp.Memo()
    return ReplayFileLines.classify(
      bytes, number: lineNumber, isTooLong: false, fileIndex: fileIndex, maximumLineLength: .max,
      tracksTime: false, lastTime: &lastTime, memo: &memo, assumingPayloadEnd: false, problems: &problems)
  }

  /// Whether `a` comes before `b` in the merge: by time, lines without a time first.
  static func precedes(_ a: ReplayItem, _ b: ReplayItem) -> Bool {
    switch (a.time, b.time) {
    case (nil, nil), (_?, nil): return false
    case (nil, _?): return true
    case (let x?, let y?): return x < y
    }
  }
}

/// What is wrong with a line, or with reading the log further.
enum ReplayProblem {
  /// A bad line, with the reason.
  case invalid(RaspEventError)
  /// The file could not be read any further.
  case readFailure(String)
}

/// An item of a log read line by line, with its problem when it has one.
struct ReplayLine {
  let item: ReplayItem
  let problem: ReplayProblem?

  /// Whether `a` comes before `b` in the merge: see ``ReplayItem/precedes(_:_:)``.
  static func precedes(_ a: ReplayLine, _ b: ReplayLine) -> Bool {
    ReplayItem.precedes(a.item, b.item)
  }
}

/// The lines of one log, as ``ReplayItem``s.
struct ReplayFileLines: Sequence, IteratorProtocol {
  let fileIndex: Int
  let reader: JSONLinesReader<RaspInputSource>
  /// Where the lines come from.
  let source: RaspInputSource
  var lastTime: RaspTimestamp?
  /// The minute of the last `ts` read, which most of the next lines share.
  var memo = RaspTimestamp.Memo()
  var isFinished = false
  /// Whether to read each event's time, which only merging several logs needs.
  let tracksTime: Bool

  init(fileIndex: Int, source: RaspInputSource, tracksTime: Bool) {
    self.fileIndex = fileIndex
    self.tracksTime = tracksTime
    self.source = source
    self.reader = JSONLinesReader(source: source)
  }

  mutating func next() -> ReplayLine? {
    guard !isFinished else { return nil }
    let line: JSONLine
    do {
      guard let next = try reader.next() else {
        isFinished = true
        return nil
      }
      line = next
    } catch {
      isFinished = true
      let item = ReplayItem(
        fileIndex: fileIndex, lineNumber: reader.lineNumber + 1,
        bytes: UnsafeBufferPointer(start: nil, count: 0), kind: .problem(0), time: lastTime)
      return ReplayLine(item: item, problem: .readFailure("\(error)"))
    }
    var problems: [ReplayProblem] = []
    let item = ReplayFileLines.classify(
      line.bytes, number: line.number, isTooLong: line.isTooLong, fileIndex: fileIndex,
      maximumLineLength: reader.maximumLineLength, tracksTime: tracksTime, lastTime: &lastTime,
      memo: &memo, assumingPayloadEnd: false, problems: &problems)
    return ReplayLine(item: item, problem: problems.first)
  }

  /// Reads one line: blank, too long, a bad line, or an event.
  ///
  /// With `assumingPayloadEnd`, an event may come with ``RaspLogEvent/isPayloadEndAssumed``:
  /// whoever reads its payload must confirm that end, and when it does not (it throws), the
  /// replay goes on with ``ReplayItem/readWithoutAssuming(problems:)`` instead.
  @inline(__always)
  static func classify(
    _ bytes: UnsafeBufferPointer<UInt8>, number: Int, isTooLong: Bool, fileIndex: Int,
    maximumLineLength: Int, tracksTime: Bool, lastTime: inout RaspTimestamp?,
    memo: inout RaspTimestamp.Memo, assumingPayloadEnd: Bool, problems: inout [ReplayProblem]
  ) -> ReplayItem {
    if isTooLong {
      let error = RaspEventError(offset: nil, reason: .syntax(.lineTooLong(limit: maximumLineLength)))
      problems.append(.invalid(error))
      return ReplayItem(
        fileIndex: fileIndex, lineNumber: number, bytes: bytes, kind: .problem(problems.count - 1), time: lastTime)
    }
    if JSONLine.isBlank(bytes) {
      return ReplayItem(fileIndex: fileIndex, lineNumber: number, bytes: bytes, kind: .blank, time: lastTime)
    }
    do {
      let event = try RaspLogEvent.parse(bytes, memo: &memo, assumingPayloadEnd: assumingPayloadEnd)
      if tracksTime, let time = event.context.timestamp { lastTime = time }
      return ReplayItem(fileIndex: fileIndex, lineNumber: number, bytes: bytes, kind: .event(event), time: lastTime)
    } catch {
      problems.append(.invalid(error))
      return ReplayItem(
        fileIndex: fileIndex, lineNumber: number, bytes: bytes, kind: .problem(problems.count - 1), time: lastTime)
    }
  }
}
