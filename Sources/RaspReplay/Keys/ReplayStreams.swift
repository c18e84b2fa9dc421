import Dispatch
import RaspPrefetch

/// The streams of a replay in one block of memory, which the kernel works on in place: the one
/// stream of a replay, or, in a keyed replay, the stream before any event and each key's.
///
/// Switching to another key's stream is pointing at another element, not moving streams in and
/// out: a keyed replay switches streams at nearly every event, and each move touches the cache
/// lines of two whole streams, where an event needs a few fields of one.
///
/// ```swift
/// let streams = ReplayStreams(first: stream)
/// let key = streams.append(initial)          // a new key's stream, at 1
/// streams.pointer(to: key).pointee.lastSeq = .known(7)
/// ```
///
/// The pointers it gives are valid until the next ``append(_:)``.
final class ReplayStreams {
  /// The streams.
  private var base: UnsafeMutablePointer<ReplayStream>
  /// How many there are, and room for how many.
  private(set) var count = 0
  private var capacity: Int

  /// A block holding `first`.
  init(first: ReplayStream) {
    capacity = 1
    base = .allocate(capacity: capacity)
    base.initialize(to: first)
    count = 1
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  /// The stream at `index`, which must be below ``count``.
  @inline(__always)
  func pointer(to index: Int) -> UnsafeMutablePointer<ReplayStream> {
    base + index
  }

  /// Adds a stream, moving the others when the block grows.
  ///
  /// - Returns: Its position.
  func append(_ stream: ReplayStream) -> Int {
    if count == capacity {
      let larger = UnsafeMutablePointer<ReplayStream>.allocate(capacity: capacity * 2)
      larger.moveInitialize(from: base, count: count)
      base.deallocate()
      base = larger
      capacity *= 2
    }
    (base + count).initialize(to: stream)
    count += 1
    return count - 1
  }

  // MARK: Asking for a stream early

  /// How far before its first element an array's header is — its reference count, count and
  /// capacity — in the standard library's layout on 64-bit platforms. Only asked for early:
  /// a wrong guess would cost a wait, never a result.
  static let arrayHeaderSize = 32

  /// Asks the processor for the stream at `index`, every line it spans (streams are not
  /// aligned to them), before it is worked on: a keyed replay's streams are scattered over
  /// more memory than any cache holds.
  @inline(__always)
  func prefetch(_ index: Int) {
    let stream = UnsafeRawPointer(base + index)
    for offset in stride(from: 0, to: MemoryLayout<ReplayStream>.size, by: 64) {
      rasp_prefetch(stream + offset)
    }
    rasp_prefetch(stream + MemoryLayout<ReplayStream>.size - 1)
  }

  /// Asks for the list of domains of the stream at `index`, once the stream has arrived
  /// (``prefetch(_:)``), with the list's header, which changing a domain in place reads first.
  @inline(__always)
  func prefetchDomainList(ofStream index: Int) {
    guard let elements = base[index].domains.elements else { return }
    rasp_prefetch(elements - Self.arrayHeaderSize)
    rasp_prefetch(elements)
    rasp_prefetch(elements + 48)
  }

  /// Asks for the domain at `domain` of the stream at `index`, once the list of domains has
  /// arrived (``prefetchDomainList(ofStream:)``).
  @inline(__always)
  func prefetchDomain(at domain: Int, ofStream index: Int) {
    let domains = base[index].domains
    guard let elements = domains.elements, domain < domains.count else { return }
    // Read as bits, not as a reference, which would be retained.
    let object = (elements + domain * MemoryLayout<UnsafeRawPointer>.stride)
      .load(as: UnsafeRawPointer.self)
    rasp_prefetch(object)
    rasp_prefetch(object + 64)
  }

  /// Lets go of every stream but the first, freed on another thread: freeing the states of
  /// 100,000 keys takes a quarter of a second, which the end of a replay need not wait for.
  func releaseAllButFirst() {
    guard count > 1 else { return }
    // Moved into a block of their own, which nothing else refers to once handed over.
    struct Released: @unchecked Sendable {
      let base: UnsafeMutablePointer<ReplayStream>
      let count: Int
    }
    let released = Released(base: .allocate(capacity: count - 1), count: count - 1)
    released.base.moveInitialize(from: base + 1, count: count - 1)
    count = 1
    DispatchQueue.global(qos: .utility).async {
      released.base.deinitialize(count: released.count)
      released.base.deallocate()
    }
  }
}
