#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspJSON

/// The event types of a log read with a map file, each made once into rasp's `domain.event`
/// and numbered: the envelope of a line keeps the number, and the router reads the type here.
///
/// A map's type is made from the line's fields (a template, renames, a split), so it is not
/// bytes of the line. Making it once per distinct type keeps that work off the lines, and the
/// number keeps the envelope small.
///
/// One thread adds types — the one that reads the lines — and the others read only types
/// whose numbers they were handed in a batch, after the hand-over, which orders the writes
/// before the reads. Entries and their bytes never move: the table is fixed-size storage,
/// allocated once.
///
/// ```swift
/// let table = TypeTable(format: format)
/// switch table.intern("todos/todoAdded") {
/// case .type(let id): table.canonical(id)   // "todos.todoAdded"
/// default: break
/// }
/// ```
final class TypeTable: @unchecked Sendable {
  /// What a foreign type is.
  enum Interned {
    /// A type, numbered.
    case type(Int32)
    /// A type the format drops.
    case dropped
    /// A type that cannot be made into `domain.event`, and why.
    case invalid(String)
  }

  /// The most distinct types a log may have.
  static let capacity = 1 << 16
  /// The most bytes their `domain.event` forms may take together.
  static let byteCapacity = 1 << 22

  /// The format the events are read with: the log's format, or for one whose events are JSON
  /// text in a string, the inner format (``LogFormat/effective``).
  let format: LogFormat
  /// The log's format, as configured: the lines' own.
  let lineFormat: LogFormat
  /// Where each type's bytes start in ``bytes``, its length, and its dot.
  private let entries: UnsafeMutablePointer<(start: Int32, count: Int32, dot: Int32)>
  private let bytes: UnsafeMutablePointer<UInt8>
  // Used by the thread that reads lines only.
  @exclusivity(unchecked) private var count = 0
  @exclusivity(unchecked) private var used = 0
  @exclusivity(unchecked) private var known: [String: Interned] = [:]

  /// The types of no domain that some domain listens to (`ADD_TODO`): kept as they are, with
  /// no dot, rather than being a line's mistake (``TypeListeners``).
  let listenedTypes: [TypeGlob]

  /// The table of `format`'s types; `listenedTypes` are the patterns of the types that domains
  /// listen to (``RaspDomains/RaspEventSchema/listensTo``), for the types with no domain.
  init(format: LogFormat, listenedTypes: [String] = []) {
    self.listenedTypes = listenedTypes.filter { !$0.contains(".") }.map(TypeGlob.init)
    self.format = format.effective
    self.lineFormat = format
    entries = .allocate(capacity: Self.capacity)
    bytes = .allocate(capacity: Self.byteCapacity)
  }

  deinit {
    entries.deallocate()
    bytes.deallocate()
  }

  /// A type's bytes and what they intern to, in ``slots``; a slot no type has taken yet has a
  /// `count` of -1.
  private struct Slot {
    var hash: UInt64 = 0
    var start: Int32 = 0
    var count: Int32 = -1
    var result = Result.type(0)
  }

  /// What a slot's type interns to, without an invalid type's reason, which ``known`` keeps.
  private enum Result {
    case type(Int32)
    case dropped
    case invalid

    init(_ interned: Interned) {
      switch interned {
      case .type(let number): self = .type(number)
      case .dropped: self = .dropped
      case .invalid: self = .invalid
      }
    }
  }
  /// An open-addressing table of the types seen, by their bytes, so that a line's type is
  /// found without making a `String` of it.
  @exclusivity(unchecked) private var slots = [Slot](repeating: Slot(), count: 256)
  @exclusivity(unchecked) private var slotBytes: [UInt8] = []
  @exclusivity(unchecked) private var slotsUsed = 0

  /// The number of a foreign type given by its UTF-8 bytes (written without escapes), made
  /// into `domain.event` the first time it is seen.
  func intern(bytes: UnsafeBufferPointer<UInt8>) -> Interned {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let mask = slots.count - 1
    var index = Int(truncatingIfNeeded: hash) & mask
    while slots[index].count >= 0 {
      let slot = slots[index]
      if slot.hash == hash, Int(slot.count) == bytes.count,
        slotBytes.withUnsafeBytes({ stored in
          guard let storedStart = stored.baseAddress, let start = bytes.baseAddress else {
            return bytes.isEmpty
          }
          return memcmp(storedStart + Int(slot.start), start, bytes.count) == 0
        })
      {
        switch slot.result {
        case .type(let number): return .type(number)
        case .dropped: return .dropped
        // Its reason, from the table of the types as strings.
        case .invalid: return intern(String(decoding: bytes, as: UTF8.self))
        }
      }
      index = (index + 1) & mask
    }
    let interned = intern(String(decoding: bytes, as: UTF8.self))
    slots[index] = Slot(
      hash: hash, start: Int32(truncatingIfNeeded: slotBytes.count),
      count: Int32(truncatingIfNeeded: bytes.count), result: Result(interned))
    slotBytes.append(contentsOf: bytes)
    slotsUsed += 1
    if slotsUsed * 2 > slots.count { growSlots() }
    return interned
  }

  /// Doubles the slots, placing each type again.
  private func growSlots() {
    let old = slots
    slots = [Slot](repeating: Slot(), count: old.count * 2)
    let mask = slots.count - 1
    for slot in old where slot.count >= 0 {
      var index = Int(truncatingIfNeeded: slot.hash) & mask
      while slots[index].count >= 0 { index = (index + 1) & mask }
      slots[index] = slot
    }
  }

  /// The number of a foreign type, made into `domain.event` the first time it is seen.
  func intern(_ foreign: String) -> Interned {
    if let known = known[foreign] { return known }
    let interned = make(foreign)
    known[foreign] = interned
    return interned
  }

  private func make(_ foreign: String) -> Interned {
    if format.drops.contains(where: { $0.match(foreign) != nil }) { return .dropped }
    if !format.keptTypes.isEmpty, !format.keptTypes.contains(where: { $0.match(foreign) != nil }) {
      return .dropped
    }
    var type = foreign
    for rename in format.renames {
      if let captures = rename.from.match(type) {
        type = TypeGlob.fill(rename.to, with: captures)
        break
      }
    }
    let domain: [UInt8]
    let event: [UInt8]
    let utf8 = Array(type.utf8)
    if let (before, after) = split(utf8) {
      (domain, event) = (before, after)
    } else if let defaultDomain = format.defaultDomain {
      (domain, event) = (Array(defaultDomain.utf8), utf8)
    } else if listenedTypes.contains(where: { $0.matches(type) }) {
      // A type of no domain that domains listen to, as Redux's `ADD_TODO`: kept whole, with
      // no dot (-1), for the router to leave to them.
      return store(domain: nil, event: utf8)
    } else {
      let separator = String(decoding: format.separator, as: UTF8.self)
      return .invalid(
        "'\(JSONError.abbreviated(foreign))' has no '\(separator)' between a domain and an "
          + "event: a map file's \"defaultDomain\" gives such types one (see docs/formats.md)")
    }
    guard !domain.isEmpty, !event.isEmpty else {
      return .invalid(
        "'\(JSONError.abbreviated(foreign))' has no domain or no event around its separator")
    }
    return store(domain: domain, event: event)
  }

  /// Numbers a new type, `domain.event`, or `event` alone for a type of no domain.
  private func store(domain: [UInt8]?, event: [UInt8]) -> Interned {
    let prefix = domain.map { $0.count + 1 } ?? 0
    let length = prefix + event.count
    guard count < Self.capacity, used + length <= Self.byteCapacity else {
      return .invalid("more than \(Self.capacity) distinct event types")
    }
    let start = bytes + used
    if let domain {
      start.update(from: domain, count: domain.count)
      start[domain.count] = UInt8(ascii: ".")
    }
    (start + prefix).update(from: event, count: event.count)
    entries[count] = (Int32(used), Int32(length), Int32(domain?.count ?? -1))
    used += length
    count += 1
    return .type(Int32(count - 1))
  }

  /// The domain and event of a type, split at the format's separator.
  private func split(_ type: [UInt8]) -> ([UInt8], [UInt8])? {
    let separator = format.separator
    guard type.count >= separator.count else { return nil }
    let starts = Array(0...(type.count - separator.count)).filter {
      type[$0..<($0 + separator.count)].elementsEqual(separator)
    }
    switch format.split {
    case .first:
      guard let at = starts.first else { return nil }
      return (Array(type[..<at]), Array(type[(at + separator.count)...]))
    case .last:
      guard let at = starts.last else { return nil }
      let before = starts.last { $0 + separator.count <= at }
      let domainStart = before.map { $0 + separator.count } ?? 0
      return (Array(type[domainStart..<at]), Array(type[(at + separator.count)...]))
    }
  }

  /// A type's `domain.event` bytes and the position of its dot: -1 for a type of no domain.
  func canonical(_ id: Int32) -> (bytes: UnsafeBufferPointer<UInt8>, dot: Int) {
    let entry = entries[Int(id)]
    return (
      UnsafeBufferPointer(start: bytes + Int(entry.start), count: Int(entry.count)),
      Int(entry.dot)
    )
  }

  /// A type's `domain.event`, as text.
  func string(_ id: Int32) -> String {
    String(decoding: canonical(id).bytes, as: UTF8.self)
  }
}
