import RaspDomains
import RaspJSON

/// Reads lines into items: blank, too long, a bad line, or an envelope — the envelope stage.
struct LineClassifier {
  /// The position of the input the lines are from.
  let input: Int
  /// Whether to keep each event's time, which only merging several inputs needs.
  let tracksTime: Bool
  /// Whether a payload that ends the line may be assumed to end there.
  let assumesPayloadEnd: Bool
  /// The reader of a format a map file describes, for logs not in rasp's own format: setting
  /// it sets up what reads the lines (``configure()``).
  var mapped: MappedEnvelopeReader? {
    get { reader }
    set {
      reader = newValue
      configure()
    }
  }
  /// The reader itself, which reads each line: a stored property without an observer, so
  /// that reading a line changes it in place and sets nothing up again.
  var reader: MappedEnvelopeReader?

  /// Sets up what reads the lines of the reader's format.
  private mutating func configure() {
    splitter = reader?.table.lineFormat.events.map(EventSplitter.init)
    innerPath = reader?.table.lineFormat.inner?.path
    payloadMoves = reader?.table.format.fieldMoves
    innerQuick =
      readsInnerQuickly ? reader.flatMap { InnerEventQuickReader(table: $0.table) } : nil
    let lineFormat = reader?.table.lineFormat
    emitReaders =
      reader.map { mapped in
        mapped.table.lineFormat.emits.map {
          MappedEnvelopeReader(table: mapped.table, format: $0)
        }
      } ?? []
    emitMoves = lineFormat?.emits.map(\.fieldMoves) ?? []
    ignoredLines = lineFormat?.ignoredLines ?? []
    skipTo = lineFormat?.skipTo
    readsSpecially =
      splitter != nil || innerPath != nil || payloadMoves != nil || !emitReaders.isEmpty
      || !ignoredLines.isEmpty || skipTo != nil
  }

  /// The readers of the events of each line, for a format whose lines make several (a map's
  /// `emit`), and the payload fields each moves.
  var emitReaders: [MappedEnvelopeReader] = []
  private(set) var emitMoves: [PayloadFieldMoves?] = []
  /// The lines that are not events, by their text (a map's `ignoreLines`).
  private(set) var ignoredLines: [TypeGlob] = []
  /// The byte a line's event starts at, after text of its own (a map's `skipTo`).
  private(set) var skipTo: UInt8?
  /// Whether events in strings are read quickly where they can be (``InnerEventQuickReader``);
  /// the tests turn it off to compare with the map's reader. Set before ``mapped``.
  var readsInnerQuickly = true
  /// The quick reader of events in strings, when the format has one.
  var innerQuick: InnerEventQuickReader?
  /// What finds the events of a line that may hold several, for such formats.
  private(set) var splitter: EventSplitter?
  /// The string field that holds each line's event as JSON text, for such formats (`kcat`).
  private(set) var innerPath: JSONPath?
  /// What finds that field.
  var innerLocator: FieldLocator?
  /// The origins of the items of the batch being read whose events are not simply their lines.
  var origins: [EventOrigin] = []
  /// The payload fields the format renames or scales, if any.
  private(set) var payloadMoves: PayloadFieldMoves?
  /// Whether lines are read otherwise than one plain event each: batches, events in strings,
  /// payload fields moved, several events a line, text before or instead of the event.
  private(set) var readsSpecially = false

  /// Whether `line` must be read otherwise than as one plain event: not for a line that is an
  /// object when only a line that is an array holds a batch (CloudEvents), the common case.
  @inline(__always)
  func readsSpecially(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let splitter, innerPath == nil, payloadMoves == nil, splitter.path.levels[0].isEmpty,
      ignoredLines.isEmpty
    else { return readsSpecially }
    for byte in line where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
      return byte == UInt8(ascii: "[")
    }
    return false
  }
  /// The events of the line being read, reused from line to line.
  var members: [EventSplitter.Member] = []
  /// The event being written from the line, reused from line to line.
  var written: [UInt8] = []
  /// The longest line accepted, for the message about longer ones.
  var maximumLineLength = JSONLimits.maximumLineLength
  /// The last `ts` read in the input.
  var lastTime: RaspTimestamp?
  /// The minute of the last `ts` read, which most of the next lines share.
  var memo = RaspTimestamp.Memo()

  init(input: Int, tracksTime: Bool, assumesPayloadEnd: Bool) {
    self.input = input
    self.tracksTime = tracksTime
    self.assumesPayloadEnd = assumesPayloadEnd
  }

  /// Classifies one line; a bad line's problem is added to `problems`.
  @inline(__always)
  mutating func classify(
    _ bytes: UnsafeBufferPointer<UInt8>, number: Int, isTooLong: Bool,
    problems: inout [ReplayProblem]
  ) -> ReplayItem {
    if isTooLong {
      let reason = RaspEventError.Reason.syntax(.lineTooLong(limit: maximumLineLength))
      problems.append(.invalid(RaspEventError(offset: nil, reason: reason)))
      return item(bytes, number, .problem(problems.count - 1))
    }
    if JSONLine.isBlank(bytes) { return item(bytes, number, .blank) }
    do {
      let envelope: Envelope
      if reader != nil {
        switch try reader?.read(bytes) {
        case .envelope(let read)?: envelope = read
        case .dropped?, nil: return item(bytes, number, .dropped)
        }
      } else {
        envelope = try Envelope.parse(bytes, memo: &memo, assumingPayloadEnd: assumesPayloadEnd)
      }
      if tracksTime, let time = envelope.context.timestamp { lastTime = time }
      return item(bytes, number, .event(envelope))
    } catch {
      problems.append(.invalid(error))
      return item(bytes, number, .problem(problems.count - 1))
    }
  }

  /// An item of this input at the current time.
  @inline(__always)
  func item(_ bytes: UnsafeBufferPointer<UInt8>, _ number: Int, _ kind: ReplayItem.Kind)
    -> ReplayItem
  {
    ReplayItem(input: input, lineNumber: number, bytes: bytes, kind: kind, time: lastTime)
  }

  /// An item whose event is not simply its line: its origin is kept in ``origins``, which the
  /// batch takes over.
  mutating func item(
    _ bytes: UnsafeBufferPointer<UInt8>, _ number: Int, _ kind: ReplayItem.Kind,
    _ origin: EventOrigin
  ) -> ReplayItem {
    var item = item(bytes, number, kind)
    if origin.place != .line || origin.isMember {
      item.originIndex = Int32(truncatingIfNeeded: origins.count)
      origins.append(origin)
    }
    if origin.isMember { item.membership = origin.startsLine ? .firstOfLine : .laterInLine }
    return item
  }
}
