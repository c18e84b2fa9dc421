import RaspDomains
import RaspJSON

/// One line of one input, read and classified: the unit the replay's stages hand on.
///
/// The line's bytes, and the envelope that refers to them, stay valid as long as the batch the
/// item is in. An item holds no references — what is wrong with a bad line is kept in its
/// batch's ``ReplayBatch/problems`` — so that a batch of thousands of items is handed between
/// threads and freed without visiting each one.
struct ReplayItem {
  /// What the line holds.
  enum Kind {
    /// Only whitespace.
    case blank
    /// An event of a type the log's format drops (a map file's `drop`).
    case dropped
    /// A line that holds a batch without a single event in it (`[]`).
    case emptyBatch
    /// A well-formed envelope, its payload not decoded yet.
    case event(Envelope)
    /// A well-formed envelope whose payload was decoded ahead: its routing, and its row in its
    /// domain's column of the batch.
    case decoded(Envelope, domainIndex: Int, eventIndex: Int, row: Int)
    /// A bad line, or the end of what could be read: the problem at this index of the batch's
    /// ``ReplayBatch/problems``.
    case problem(Int)
    /// Something that happened to the input: the notice at this index of the batch's
    /// ``ReplayBatch/notices``. Not a line: not counted.
    case notice(Int)
  }

  /// The position of the line's input.
  let input: Int
  /// The line's number in its input.
  let lineNumber: Int
  /// The line's bytes, without the line end.
  let bytes: UnsafeBufferPointer<UInt8>
  /// What it holds.
  let kind: Kind
  /// The time the merge of several inputs orders by: the event's `ts`, or the last `ts` before
  /// it in its input; `nil` (before every time) until the input has given one.
  let time: RaspTimestamp?
  /// Where the event is, when it is not the whole line — a member of a batch, an event rasp
  /// wrote from the line: its ``EventOrigin`` at this index of the batch's
  /// ``ReplayBatch/origins``; -1 for a line that is simply the event. Kept out of the item,
  /// which every line has, for the few that need it.
  var originIndex: Int32 = -1
  /// Whether the event is a member of a batch: 0 not, 1 its line's first, 2 another.
  var memberState: UInt8 = 0
  /// Which kernel handles the item, in a replay split by key (``KeyPartition``); 0 otherwise.
  var share: UInt8 = 0
  /// The offset in its input of the byte after the item's line and its line end, for a
  /// checkpoint; -1 when not known (a line found too long, whose end is not read yet).
  var lineEnd = -1

  init(
    input: Int, lineNumber: Int, bytes: UnsafeBufferPointer<UInt8>, kind: Kind,
    time: RaspTimestamp?
  ) {
    self.input = input
    self.lineNumber = lineNumber
    self.bytes = bytes
    self.kind = kind
    self.time = time
  }

  /// Whether the event is a member of a batch line.
  var isMember: Bool { memberState != 0 }

  /// The event's own bytes, as `--with-event` shows it: the line, a batch's member, or the
  /// event rasp wrote from the line.
  var eventBytes: UnsafeBufferPointer<UInt8> {
    switch kind {
    case .event(let envelope), .decoded(let envelope, _, _, _): return envelope.line
    default: return bytes
    }
  }

  /// Whether the item is a notice rather than a line.
  var isNotice: Bool {
    if case .notice = kind { return true }
    return false
  }

  /// The `ts` of the item's own event, read from its line: `nil` for an item that is not an
  /// event, or an event without one. (``time`` is the last `ts` up to the item, kept only
  /// when the replay asks for it.)
  var ownTime: RaspTimestamp? {
    switch kind {
    case .event(let envelope), .decoded(let envelope, _, _, _): return envelope.context.timestamp
    default: return nil
    }
  }

  /// Whether `a` comes before `b` in the merge: by time, lines without a time first, and, for
  /// equal times, the earlier input (the merge keeps the first of equals).
  static func precedes(_ a: ReplayItem, _ b: ReplayItem) -> Bool {
    switch (a.time, b.time) {
    case (nil, nil), (_?, nil): return false
    case (nil, _?): return true
    case (let x?, let y?): return x < y
    }
  }

  /// The same line read again without assuming where its payload ends: what the kernel goes on
  /// with when an assumed event fails in any way (see ``AssumedPayloadEnd``).
  ///
  /// - Parameter problems: The batch's problems, to which a bad line's problem is added.
  /// - Returns: The item read again.
  func readAgainWithoutAssuming(problems: inout [ReplayProblem]) -> ReplayItem {
    var reader = LineClassifier(input: input, tracksTime: false, assumesPayloadEnd: false)
    reader.lastTime = time
    return reader.classify(bytes, number: lineNumber, isTooLong: false, problems: &problems)
  }
}

/// What is wrong with a line, or with reading the input further.
enum ReplayProblem {
  /// A bad line, with the reason.
  case invalid(RaspEventError)
  /// The input could not be read any further, with the system's message.
  case readFailure(String)
}

/// Reads lines into items: blank, too long, a bad line, or an envelope — the envelope stage.
struct LineClassifier {
  /// The position of the input the lines are from.
  let input: Int
  /// Whether to keep each event's time, which only merging several inputs needs.
  let tracksTime: Bool
  /// Whether a payload that ends the line may be assumed to end there.
  let assumesPayloadEnd: Bool
  /// The reader of a format a map file describes, for logs not in rasp's own format.
  var mapped: MappedEnvelopeReader? {
    didSet {
      splitter = mapped?.table.lineFormat.events.map(EventSplitter.init)
      innerPath = mapped?.table.lineFormat.inner?.path
      payloadMoves = mapped?.table.format.fieldMoves
      innerQuick =
        readsInnerQuickly ? mapped.flatMap { InnerEventQuickReader(table: $0.table) } : nil
    }
  }
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
  /// payload fields moved.
  var readsSpecially: Bool { splitter != nil || innerPath != nil || payloadMoves != nil }

  /// Whether `line` must be read otherwise than as one plain event: not for a line that is an
  /// object when only a line that is an array holds a batch (CloudEvents), the common case.
  @inline(__always)
  func readsSpecially(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let splitter, innerPath == nil, payloadMoves == nil, splitter.path.levels[0].isEmpty
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
      if mapped != nil {
        switch try mapped?.read(bytes) {
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
    if origin.isMember { item.memberState = origin.startsLine ? 1 : 2 }
    return item
  }
}

/// Lines of an input, classified, with what keeps their bytes valid: what the reading stage
/// hands on, across threads when it reads ahead.
///
/// The reading side fills a batch, then hands it over and never touches it again; from then on
/// the replay only reads it. Its items live in storage of its own, so that the replay walks
/// them by pointer, without retaining anything per item.
final class ReplayBatch: @unchecked Sendable {
  /// The blocks the reader read the lines into, which keep their bytes valid.
  @exclusivity(unchecked) var blocks: [JSONLinesBlock] = []
  /// The events decoded ahead, one column per domain, when the batch was decoded.
  let columns: [AnyRaspDecodedEvents]
  /// What is wrong with the batch's bad lines, which refer to it by index.
  @exclusivity(unchecked) var problems: [ReplayProblem] = []
  /// What happened to the input, which notice items refer to by index.
  @exclusivity(unchecked) var notices: [String] = []
  /// The hash of every byte of the input read when the batch was made — the batch's lines and
  /// the bytes read ahead of them — for checkpoints; `nil` when not asked for.
  @exclusivity(unchecked) var readHash: SegmentedLogHash?
  /// The events rasp wrote from the batch's lines (OTLP records made plain, Kafka payloads),
  /// which their items point into.
  @exclusivity(unchecked) var arena = ByteArena()
  /// Where the events are of the items whose events are not simply their lines, by
  /// ``ReplayItem/originIndex``.
  @exclusivity(unchecked) var origins: [EventOrigin] = []
  /// Each item's key, read by the reading thread in a keyed replay (``KeyHints``): what
  /// finding it in the table of keys needs, by the item's index; empty when not read.
  @exclusivity(unchecked) var keyHints: [ReplayKeys.Sought?] = []
  /// How many items the batch holds before its storage grows.
  @exclusivity(unchecked) private(set) var capacity: Int
  @exclusivity(unchecked) private var storage: UnsafeMutablePointer<ReplayItem>
  @exclusivity(unchecked) private(set) var count = 0

  /// An empty batch with room for `capacity` items.
  init(capacity: Int, columns: [AnyRaspDecodedEvents] = []) {
    self.capacity = max(1, capacity)
    self.columns = columns
    storage = UnsafeMutablePointer<ReplayItem>.allocate(capacity: self.capacity)
  }

  deinit {
    // Items hold no references: there is nothing to release in them.
    storage.deallocate()
    arena.release()
  }

  /// Whether the batch holds as many items as it was made for.
  var isFull: Bool { count >= capacity }

  /// The items, in order; valid as long as the batch is kept.
  var items: UnsafeBufferPointer<ReplayItem> { UnsafeBufferPointer(start: storage, count: count) }

  /// Adds an item. A batch is full after ``capacity`` lines, but a line of a batch format may
  /// hold more events than that: the storage then grows.
  @inline(__always)
  func append(_ item: ReplayItem) {
    if count == capacity { grow() }
    (storage + count).initialize(to: item)
    count += 1
  }

  /// Notes which kernel of a pool handles the item at `index` (``ReplayItem/share``), before
  /// the batch is handed over.
  func setShare(_ share: UInt8, at index: Int) {
    storage[index].share = share
  }

  /// Doubles the storage, moving the items (which hold no references) as they are.
  @inline(never)
  private func grow() {
    let larger = UnsafeMutablePointer<ReplayItem>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: storage, count: count)
    storage.deallocate()
    storage = larger
    capacity *= 2
  }
}
