/// Merges several sequences into one, taking the least head element each time.
///
/// This is how recorded sources become one stream: every source keeps its own order, and at each
/// step the merge takes the source whose next element comes first by `areInIncreasingOrder`.
/// Ties keep source order (the source earlier in the array wins), so the merge is stable and
/// deterministic. When every source is sorted, the result is sorted; when one is not, its
/// elements still come out in its own order — the merge never reorders a source.
///
/// A source is asked for its next element only when its previous element has been taken and
/// the merged sequence is asked for the next one, so a source may reuse the storage of an
/// element once the consumer has moved past it.
///
/// ```swift
/// let compass = [(t: 1, "N"), (t: 4, "E")]
/// let gps = [(t: 2, "52.5,13.4"), (t: 4, "52.6,13.4")]
/// let merged = mergeSorted([compass, gps], sortedBy: { $0.t < $1.t })
/// print(merged.map(\.1))   // ["N", "52.5,13.4", "E", "52.6,13.4"]
/// ```
///
/// - Parameters:
///   - sources: The sequences to merge, in priority order for ties.
///   - areInIncreasingOrder: Whether the first element comes strictly before the second.
/// - Returns: A lazy sequence of every element of every source.
/// - Complexity: O(*k*) comparisons per element, for *k* sources.
@inlinable
public func mergeSorted<Source: Sequence>(
  _ sources: [Source],
  sortedBy areInIncreasingOrder: @escaping (Source.Element, Source.Element) -> Bool
) -> RaspMergeSortedSequence<Source> {
  RaspMergeSortedSequence(sources: sources, areInIncreasingOrder: areInIncreasingOrder)
}

/// The lazy result of ``mergeSorted(_:sortedBy:)``.
///
/// ```swift
/// for element in mergeSorted([[1, 4], [2, 3]], sortedBy: <) { print(element) }   // 1 2 3 4
/// ```
public struct RaspMergeSortedSequence<Source: Sequence>: Sequence {
  @usableFromInline let sources: [Source]
  @usableFromInline let areInIncreasingOrder: (Source.Element, Source.Element) -> Bool

  @inlinable
  init(
    sources: [Source], areInIncreasingOrder: @escaping (Source.Element, Source.Element) -> Bool
  ) {
    self.sources = sources
    self.areInIncreasingOrder = areInIncreasingOrder
  }

  /// Starts the merge.
  ///
  /// ```swift
  /// var iterator = mergeSorted([[1], [0]], sortedBy: <).makeIterator()
  /// iterator.next()   // 0
  /// ```
  ///
  /// - Returns: An iterator over the merged elements.
  @inlinable
  public func makeIterator() -> Iterator {
    Iterator(sources: sources.map { $0.makeIterator() }, areInIncreasingOrder: areInIncreasingOrder)
  }

  /// Produces the merged elements one at a time.
  ///
  /// ```swift
  /// var iterator = mergeSorted([[2], [1]], sortedBy: <).makeIterator()
  /// while let element = iterator.next() { print(element) }   // 1 2
  /// ```
  public struct Iterator: IteratorProtocol {
    /// The iterators of the sources not yet exhausted, in priority order.
    @usableFromInline var sources: ContiguousArray<Source.Iterator>
    /// The next element of each source in `sources`, at the same index; filled by the first
    /// call to `next()`.
    @usableFromInline var heads: ContiguousArray<Source.Element>
    /// The source whose head `next()` returned last, to be asked for its next element before
    /// the next choice; -1 when there is none.
    @usableFromInline var taken: Int
    /// Whether every source has been asked for its first element.
    @usableFromInline var isPrimed: Bool
    @usableFromInline let areInIncreasingOrder: (Source.Element, Source.Element) -> Bool

    @inlinable
    init(
      sources: [Source.Iterator],
      areInIncreasingOrder: @escaping (Source.Element, Source.Element) -> Bool
    ) {
      self.sources = ContiguousArray(sources)
      self.heads = []
      self.taken = -1
      self.isPrimed = false
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// The next element in merged order, or `nil` when every source is exhausted.
    ///
    /// ```swift
    /// var iterator = mergeSorted([[1, 3], [2]], sortedBy: <).makeIterator()
    /// iterator.next()   // 1
    /// ```
    ///
    /// - Returns: The least head element; ties go to the earlier source.
    @inlinable
    public mutating func next() -> Source.Element? {
      if taken >= 0 {
        refill(taken)
      } else if !isPrimed {
        prime()
      }
      guard !heads.isEmpty else { return nil }
      var best = 0
      var index = 1
      while index < heads.count {
        if areInIncreasingOrder(heads[index], heads[best]) { best = index }
        index += 1
      }
      taken = best
      return heads[best]
    }

    /// Asks every source for its first element, dropping the sources that have none.
    @inlinable
    mutating func prime() {
      isPrimed = true
      var live = ContiguousArray<Source.Iterator>()
      live.reserveCapacity(sources.count)
      heads.reserveCapacity(sources.count)
      for var source in sources {
        guard let head = source.next() else { continue }
        live.append(source)
        heads.append(head)
      }
      sources = live
    }

    /// Replaces the head of the source at `index` with its next element, or drops the source
    /// when it is exhausted.
    @inlinable
    mutating func refill(_ index: Int) {
      taken = -1
      if let head = sources[index].next() {
        heads[index] = head
      } else {
        sources.remove(at: index)
        heads.remove(at: index)
      }
    }
  }
}
