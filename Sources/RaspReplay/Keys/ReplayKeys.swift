import RaspDomains
import RaspJSON
import RaspPrefetch

/// The keys of a keyed replay (`--key-by PATH`): each event's key, and its number.
///
/// An event's key is the value at the path, read from the event as a spec's `from` reads it:
/// `payload.deviceId` in the payload, `source`, `ts` and `type` from the envelope, and any other
/// field (`meta.sessionId`, a Kafka message's `key`) from the event's line — from the event's
/// own object first when the line holds it inside a message. The key is that value's canonical
/// JSON; an event without a value there, or with `null`, has the key `null`.
///
/// Keys are numbered in the order they first appear. Finding a key's number hashes its bytes
/// into an open-addressing table, without allocating for a key seen before. The keys' bytes
/// are laid end to end in one block of memory, not an array each: a record of a key writes
/// them, and 100,000 arrays scattered in memory would each be one more place to wait for. The
/// kernel keeps each key's stream of events by its number (``ReplayStreams``).
///
/// ```swift
/// var keys = ReplayKeys(path: try JSONPath("source"))
/// if case .number(let number) = keys.number(of: envelope, typeName: "") {
///   print(String(decoding: keys.key(number), as: UTF8.self))   // "gps"
/// }
/// ```
struct ReplayKeys {
  /// The number that names no key: the current key's before the first event, a key not found
  /// yet, and the one stream's in a replay without keys — key `n`'s stream is at `n + 1` of
  /// ``ReplayStreams``, so that this one's is at 0, the stream before any event.
  static let noNumber = -1

  /// The path of the key in each event.
  let path: JSONPath
  /// Every key's canonical JSON, end to end, in the order of their numbers.
  private var keyBytes: [UInt8] = []
  /// Where each key's JSON ends in ``keyBytes``, by number.
  private var keyEnds: [Int] = []
  /// A slot of the table: a key's hash, number plus one (0 when empty), length, and its first
  /// sixteen bytes, so that a short key — most are — is found in one read of memory.
  private struct Slot {
    var hash: UInt64 = 0
    var number: Int32 = 0
    var count: Int32 = 0
    var head: (UInt64, UInt64) = (0, 0)
  }
  /// Open addressing over the keys' bytes.
  private var slots = [Slot](repeating: Slot(), count: 1024)
  /// The key being found, as canonical JSON.
  private var scratch: [UInt8] = []

  /// Where the key is read, decided once from the path rather than for every event.
  enum Root {
    /// In the payload (`payload.deviceId`).
    case payload
    /// The envelope's source, time or type, as a whole.
    case source, time, type
    /// Any other field of the line.
    case line
  }

  /// Where the key is read.
  let root: Root

  init(path: JSONPath) {
    self.path = Self.ownCopy(of: path)
    let whole = path.components.count == 1 && !path.selectsLength
    switch path.firstKey {
    case "payload": root = .payload
    case "source" where whole: root = .source
    case "ts" where whole: root = .time
    case "type" where whole: root = .type
    default: root = .line
    }
  }

  /// A copy of `path` that shares no storage with it: reading it retains its storage, and the
  /// kernels of a replay on several threads (``KernelPool``) would each retain the same, from
  /// several processors at once, for every event.
  private static func ownCopy(of path: JSONPath) -> JSONPath {
    let components = path.components.map { component -> JSONPath.Component in
      guard case .key(let key) = component else { return component }
      return .key(String(decoding: Array(key.utf8), as: UTF8.self))
    }
    return JSONPath(components: components, selectsLength: path.selectsLength)
  }

  /// How many keys there are.
  var count: Int { keyEnds.count }

  /// The canonical JSON of the key numbered `number`.
  func key(_ number: Int) -> ArraySlice<UInt8> {
    keyBytes[(number == 0 ? 0 : keyEnds[number - 1])..<keyEnds[number]]
  }

  /// Every key's canonical JSON, by number.
  func allKeys() -> [[UInt8]] {
    keyEnds.indices.map { Array(key($0)) }
  }

  /// What an event's key is.
  enum Found {
    /// The key's number, made for a key not seen before.
    case number(Int)
    /// The event has no value at the path: its key is `null` (``nullKeyNumber()``), as that of
    /// an event with `null` there is, which has the path.
    case missing
    /// The value there cannot be read (a number out of range).
    case invalid(RaspEventError)
  }

  /// The key of `envelope`'s event. `typeName` is the event's `domain.event`, read for a key
  /// of `type` only.
  mutating func number(of envelope: Envelope, typeName: String) -> Found {
    switch writeKey(of: envelope, typeName: typeName) {
    case .key: return .number(numberOfScratch())
    case .none: return .missing
    case .invalid(let error): return .invalid(error)
    }
  }

  /// Which of `count` shares the key of `envelope`'s event is in, for a replay split by key
  /// (`--jobs`): each key is always in the same share, the key `null` (an event without one)
  /// too; an event whose key cannot be read is in share 0.
  mutating func share(of envelope: Envelope, typeName: String, among count: Int) -> Int {
    let hash: UInt64
    switch writeKey(of: envelope, typeName: typeName) {
    case .key: hash = Self.hash(scratch)
    case .none: hash = Self.hash(Array("null".utf8))
    case .invalid: return 0
    }
    return Self.share(ofHash: hash, among: count)
  }

  /// Which of `count` shares a key whose hash is `hash` is in: the share of a key read ahead
  /// (``Sought/hash``) is the one ``share(of:typeName:among:)`` gives its event.
  static func share(ofHash hash: UInt64, among count: Int) -> Int {
    // The key's hash mixed first: FNV-1a's last multiplication carries a key's last bytes
    // into its low bits only, so keys that differ at their end (`device-1`, `device-2`) have
    // high bits alike, and without mixing 200 such keys fell 130, 10 and 60 among 3 shares,
    // and this repository's bench log's four sources 20 % and 80 % of the events among 2.
    // (MurmurHash3's finalizer: every bit of the hash reaches every bit.)
    var mixed = hash
    mixed ^= mixed >> 33
    mixed &*= 0xff51_afd7_ed55_8ccd
    mixed ^= mixed >> 33
    mixed &*= 0xc4ce_b9fe_1a85_ec53
    mixed ^= mixed >> 33
    // Its high half: the table places keys by the low bits of the unmixed hash.
    return Int(truncatingIfNeeded: ((mixed >> 32) &* UInt64(count)) >> 32)
  }

  /// The number of a key given as its canonical JSON, which is added when it is new: for a
  /// replay that resumes from a checkpoint.
  mutating func number(ofCanonical key: [UInt8]) -> Int {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: key)
    return numberOfScratch()
  }

  /// The number of the key `null`.
  mutating func nullKeyNumber() -> Int {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: "null".utf8)
    return numberOfScratch()
  }

  /// The keys' numbers in the order `--final` prints them: by key, as jq sorts values.
  func numbersInKeyOrder() -> [Int] {
    if let order = numbersInStringOrder() { return order }
    let sortKeys = allKeys().map(KeyOrder.SortKey.init)
    return keyEnds.indices.sorted { KeyOrder.precedes(sortKeys[$0], sortKeys[$1]) }
  }

  /// The keys' numbers in key order when every key is a string without escapes — most
  /// logs' — sorted by the bytes between their quotes, compared without a reference counted;
  /// `nil` otherwise.
  ///
  /// Each key is sorted first by its first eight bytes read as one big-endian number, and only
  /// keys whose first eight bytes are the same are compared byte by byte: 100,000 keys sort
  /// in less than half the time. A string's bytes are never 0 (JSON escapes control
  /// characters), so a key shorter than eight bytes, padded with zeros, sorts before every
  /// longer key it begins.
  private func numbersInStringOrder() -> [Int]? {
    var spans: [Range<Int>] = []
    spans.reserveCapacity(count)
    for number in keyEnds.indices {
      let key = key(number)
      guard key.count >= 2, key.first == UInt8(ascii: "\""),
        !key.contains(UInt8(ascii: "\\"))
      else { return nil }
      spans.append((key.startIndex + 1)..<(key.endIndex - 1))
    }
    return keyBytes.withUnsafeBufferPointer { bytes in
      spans.withUnsafeBufferPointer { spans in
        var sortable: [(prefix: UInt64, number: Int)] = []
        sortable.reserveCapacity(spans.count)
        for (number, span) in spans.enumerated() {
          var prefix: UInt64 = 0
          for offset in 0..<8 {
            let byte = offset < span.count ? bytes[span.lowerBound + offset] : 0
            prefix = prefix << 8 | UInt64(byte)
          }
          sortable.append((prefix, number))
        }
        sortable.sort { a, b in
          if a.prefix != b.prefix { return a.prefix < b.prefix }
          return UnsafeBufferPointer(rebasing: bytes[spans[a.number]])
            .lexicographicallyPrecedes(UnsafeBufferPointer(rebasing: bytes[spans[b.number]]))
        }
        return sortable.map(\.number)
      }
    }
  }

  // MARK: The key of an event

  /// What reading a key wrote into ``scratch``.
  private enum Written {
    case key, none
    case invalid(RaspEventError)
  }

  /// Where the key of an event is in its line, before it is written.
  private enum Place {
    /// The value at this range of the line.
    case value(Range<Int>)
    /// A length (`|length`).
    case length(Int)
    /// The event's type: its `domain.event`.
    case type
    /// No value at the path.
    case missing
    /// A value there that cannot be read: found again for its error, so that a place, made
    /// for every event, holds no reference.
    case invalid
  }

  /// Where the key of `envelope`'s event is, or ``Place/invalid``.
  private func place(of envelope: Envelope) -> Place {
    do throws(JSONError) {
      return try locateKey(of: envelope)
    } catch {
      return .invalid
    }
  }

  /// Where the key of `envelope`'s event is; throws the error, its offset the line's, of a
  /// value there that cannot be read.
  private func locateKey(of envelope: Envelope) throws(JSONError) -> Place {
    let line = envelope.line
    let context = envelope.context
    switch root {
    case .payload:
      guard let offset = envelope.payloadOffset else { return .missing }
      return try Self.locate(path, in: line, from: offset, droppingFirst: 1)
    case .source:
      guard let raw = context.sourceString else { return .missing }
      return .value((raw.start - 1)..<(raw.end + 1))
    case .time:
      guard let range = context.timestampRange else { return .missing }
      return .value(range)
    case .type:
      return .type
    case .line:
      // The event's own fields first, when the line holds the event inside a message.
      if let offset = context.eventOffset {
        let place = try Self.locate(path, in: line, from: offset, droppingFirst: 0)
        if case .missing = place {
        } else {
          return place
        }
      }
      return try Self.locate(path, in: line, from: 0, droppingFirst: 0)
    }
  }

  /// Writes the key of `envelope`'s event into ``scratch``, as canonical JSON.
  private mutating func writeKey(of envelope: Envelope, typeName: String) -> Written {
    write(place(of: envelope), of: envelope, typeName: typeName)
  }

  /// What `path` selects in the JSON value that starts at `start` of `line`, its range made the
  /// line's; throws the error, its offset the line's, of a value there that cannot be read.
  private static func locate(
    _ path: JSONPath, in line: UnsafeBufferPointer<UInt8>, from start: Int, droppingFirst: Int
  ) throws(JSONError) -> Place {
    let text = UnsafeBufferPointer(rebasing: line[start...])
    do throws(JSONError) {
      switch try path.locate(in: text, droppingFirst: droppingFirst) {
      case .value(let range): return .value((start + range.lowerBound)..<(start + range.upperBound))
      case .length(let count): return .length(count)
      case .missing: return .missing
      }
    } catch {
      throw JSONError(offset: start + error.offset, reason: error.reason)
    }
  }

  /// Writes the key at `place` into ``scratch``: a value's canonical JSON, a length, the type.
  private mutating func write(_ place: Place, of envelope: Envelope, typeName: String) -> Written {
    scratch.removeAll(keepingCapacity: true)
    switch place {
    case .value(let range): return writeCanonical(range, of: envelope.line)
    case .length(let count):
      scratch.append(contentsOf: String(count).utf8)
      return .key
    case .type:
      var writer = JSONWriter()
      writer.writeString(typeName)
      scratch = writer.bytes
      return .key
    case .missing: return .none
    case .invalid:
      // Found again, for its error: the rare case.
      do throws(JSONError) {
        _ = try locateKey(of: envelope)
      } catch {
        return .invalid(invalid(error, at: error.offset))
      }
      return .none
    }
  }

  /// The error of a key that cannot be read.
  private func invalid(_ error: JSONError, at offset: Int) -> RaspEventError {
    RaspEventError(
      offset: offset,
      reason: .invalidValue(field: path.description, reason: "the key \(error.reason)"))
  }

  /// Writes the canonical JSON of the value at `range` of `line` into ``scratch``: as written
  /// for a string without escapes or DEL, and for an integer of up to fifteen digits — the
  /// common keys, which ``JSONWriter`` writes the same — otherwise read and written again.
  private mutating func writeCanonical(_ range: Range<Int>, of line: UnsafeBufferPointer<UInt8>)
    -> Written
  {
    let value = UnsafeBufferPointer(rebasing: line[range])
    if value.isEmpty { return .none }
    if Self.isCanonical(value) {
      scratch.append(contentsOf: value)
      return .key
    }
    do {
      var writer = JSONWriter()
      writer.write(try JSONParser.parse(value))
      scratch = writer.bytes
      return .key
    } catch {
      return .invalid(invalid(error, at: range.lowerBound))
    }
  }

  /// Whether `value` is written as ``JSONWriter`` writes it: a string without escapes or DEL,
  /// an integer of up to fifteen digits — the common keys.
  private static func isCanonical(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = value.first else { return false }
    if first == UInt8(ascii: "\"") {
      return !value.contains(where: { $0 == UInt8(ascii: "\\") || $0 == 0x7F })
    }
    let sign = first == UInt8(ascii: "-") ? 1 : 0
    return value.count - sign <= 15 && value.count > sign
      && value[sign...].allSatisfy({ $0 &- UInt8(ascii: "0") < 10 })
      && (value[sign] != UInt8(ascii: "0") || value.count == 1)  // not -0, which is 0
  }

  // MARK: The table

  /// What finding a short key in the table needs, read from an event ahead of its turn.
  struct Sought {
    let hash: UInt64
    let count: Int32
    let head: (UInt64, UInt64)
  }

  /// Reads the key of `envelope`'s event ahead of its turn — a few events ahead on the
  /// kernel's thread, or on the reading thread (``KeyHints``) — into what finding it needs;
  /// `nil` for an event without a key, or whose key cannot be read or is longer than sixteen
  /// bytes, which is found in its turn. The table is not read.
  mutating func sought(of envelope: Envelope, typeName: String) -> Sought? {
    let place = place(of: envelope)
    // A key whose bytes in the line are its canonical JSON is read where it is.
    if case .value(let range) = place {
      let value = UnsafeBufferPointer(rebasing: envelope.line[range])
      if Self.isCanonical(value) {
        guard value.count <= 16 else { return nil }
        return Sought(
          hash: Self.hash(value), count: Int32(truncatingIfNeeded: value.count),
          head: Self.head(of: value))
      }
    }
    // An event without a key is counted, or refused, in its turn.
    guard case .key = write(place, of: envelope, typeName: typeName), scratch.count <= 16
    else { return nil }
    return scratch.withUnsafeBufferPointer { key in
      Sought(
        hash: Self.hash(key), count: Int32(truncatingIfNeeded: key.count), head: Self.head(of: key))
    }
  }

  /// Asks for the place of a key sought ahead in the table.
  func prefetchSlot(of sought: Sought) {
    slots.withUnsafeBufferPointer { slots in
      if let base = slots.baseAddress {
        rasp_prefetch(base + (Int(truncatingIfNeeded: sought.hash) & (slots.count - 1)))
      }
    }
  }

  /// Asks for where the key numbered `number` is in the keys' bytes, before a record of it
  /// writes it: among 100,000 keys, few are in the nearest caches.
  func prefetchPlace(of number: Int) {
    keyEnds.withUnsafeBufferPointer { ends in
      guard number < ends.count, let base = ends.baseAddress else { return }
      rasp_prefetch(base + number)
      if number > 0 { rasp_prefetch(base + number - 1) }
    }
  }

  /// Asks for the bytes of the key numbered `number`, once its place has arrived
  /// (``prefetchPlace(of:)``).
  func prefetchBytes(of number: Int) {
    guard number < keyEnds.count else { return }
    let start = number == 0 ? 0 : keyEnds[number - 1]
    let end = keyEnds[number]
    keyBytes.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress, end > start else { return }
      rasp_prefetch(base + start)
      rasp_prefetch(base + end - 1)
    }
  }

  /// The number of a key sought ahead (``sought(of:typeName:)``) if it was seen before; `nil`
  /// for a new key. Nothing is added.
  func number(of sought: Sought) -> Int? {
    let mask = slots.count - 1
    var index = Int(truncatingIfNeeded: sought.hash) & mask
    while slots[index].number != 0 {
      let slot = slots[index]
      if slot.hash == sought.hash, slot.count == sought.count, slot.head == sought.head {
        return Int(slot.number) - 1
      }
      index = (index + 1) & mask
    }
    return nil
  }

  /// Whether `key` has the bytes of the key in ``scratch``: compared in memory, since a long
  /// key (a session's UUID) is compared at nearly every event.
  private func isScratch(_ key: ArraySlice<UInt8>) -> Bool {
    key.withUnsafeBufferPointer { key in
      scratch.withUnsafeBufferPointer { UTF8Order.equal(key, $0) }
    }
  }

  /// Where the key in ``scratch`` is in the table: its number, or the empty slot to put it in.
  private func find() -> (number: Int?, index: Int, hash: UInt64) {
    let hash = Self.hash(scratch)
    let head = Self.head(of: scratch)
    let count = Int32(truncatingIfNeeded: scratch.count)
    let mask = slots.count - 1
    var index = Int(truncatingIfNeeded: hash) & mask
    while slots[index].number != 0 {
      let slot = slots[index]
      if slot.hash == hash, slot.count == count, slot.head == head,
        count <= 16 || isScratch(key(Int(slot.number) - 1))
      {
        return (Int(slot.number) - 1, index, hash)
      }
      index = (index + 1) & mask
    }
    return (nil, index, hash)
  }

  /// The number of the key in ``scratch``, which is added when it is new.
  private mutating func numberOfScratch() -> Int {
    let (found, index, hash) = find()
    if let found { return found }
    let head = Self.head(of: scratch)
    let count = Int32(truncatingIfNeeded: scratch.count)
    let number = keyEnds.count
    keyBytes.append(contentsOf: scratch)
    keyEnds.append(keyBytes.count)
    slots[index] = Slot(
      hash: hash, number: Int32(truncatingIfNeeded: number + 1), count: count, head: head)
    if keyEnds.count * 2 > slots.count { grow() }
    return number
  }

  /// The FNV-1a hash of a key's bytes.
  private static func hash(_ key: [UInt8]) -> UInt64 {
    key.withUnsafeBufferPointer { hash($0) }
  }

  /// The hash of a key's bytes, wherever they are.
  private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
  }

  /// The first sixteen bytes of a key, as two words, zeros after its end.
  private static func head(of key: [UInt8]) -> (UInt64, UInt64) {
    key.withUnsafeBufferPointer { head(of: $0) }
  }

  /// The first sixteen bytes of a key's bytes, wherever they are.
  private static func head(of key: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
    var words: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &words) { words in
      words.copyMemory(
        from: UnsafeRawBufferPointer(start: key.baseAddress, count: min(key.count, 16)))
    }
    return words
  }

  /// Doubles the table, placing each key again.
  private mutating func grow() {
    let old = slots
    slots = [Slot](repeating: Slot(), count: old.count * 2)
    let mask = slots.count - 1
    for slot in old where slot.number != 0 {
      var index = Int(truncatingIfNeeded: slot.hash) & mask
      while slots[index].number != 0 { index = (index + 1) & mask }
      slots[index] = slot
    }
  }
}
