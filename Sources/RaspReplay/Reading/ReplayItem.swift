import RaspDomains
import RaspJSON

/// One line of one input, read and classified: the unit the replay's stages hand on.
///
/// The line's bytes, and the envelope that refers to them, stay valid as long as the batch the
/// item is in. An item holds no references — what is wrong with a bad line is kept in its
/// batch's ``ReplayBatch/problems`` — so that a batch of thousands of items is handed between
/// threads and freed without visiting each one.
///
/// The kernel's stages take an item as `UnsafePointer<ReplayItem>`, a place in its batch's
/// buffer, and read its fields there: an item is 141 bytes, and a copy of it just before its
/// fields are read back stalled the processor on every line (the store of the copy is not
/// forwarded to the loads that follow). The pointer is valid while the batch is, which the
/// caller of ``ReplayKernel/handle(_:of:columns:writer:streams:)`` keeps (``Replay`` holds the
/// current batch, ``KernelPool`` each list's); no stage keeps it past the item's handling, and
/// an item that must outlive it (the last event's line, for a checkpoint) is copied
/// (``ReplayKernel/settleLastEvent()``).
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
    /// A well-formed envelope of a domain the output does not show (``DomainDemand``), its
    /// payload checked to be JSON ahead, not decoded: its routing.
    case passedOver(Envelope, domainIndex: Int, eventIndex: Int)
    /// A bad line, or the end of what could be read: the problem at this index of the batch's
    /// ``ReplayBatch/problems``.
    case problem(Int)
    /// Something that happened to the input: the notice at this index of the batch's
    /// ``ReplayBatch/notices``. Not a line: not counted.
    case notice(Int)
  }

  /// Where an item's event is among the events of its line: one byte in the item.
  enum Membership: UInt8 {
    /// The line is the event, or holds no event: it counts as a line of its own.
    case ownLine
    /// The first event of a line that holds several: the line is counted with it.
    case firstOfLine
    /// Another event of a line that holds several, after its first.
    case laterInLine
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
  /// Whether the event is one of several its line holds (a batch, an OTLP request), and
  /// which: the line is counted with its first.
  var membership: Membership = .ownLine
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
  var isMember: Bool { membership != .ownLine }

  /// The event's own bytes, as `--with-event` shows it: the line, a batch's member, or the
  /// event rasp wrote from the line.
  var eventBytes: UnsafeBufferPointer<UInt8> {
    switch kind {
    case .event(let envelope), .decoded(let envelope, _, _, _), .passedOver(let envelope, _, _):
      return envelope.line
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
    case .event(let envelope), .decoded(let envelope, _, _, _), .passedOver(let envelope, _, _):
      return envelope.context.timestamp
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
