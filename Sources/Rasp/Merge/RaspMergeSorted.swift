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
  _ sources: [Source], sortedBy areInIncreasingOrder: @escaping (Source.Element, Source.Element) -> Bool
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
  init(sources: [Source], areInIncreasingOrder: @escaping (Source.Element, Source.Element) -> Bool) {
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
    @usableFromInline var sources: [Source.Iterator]
    @usableFromInline var heads: [Source.Element?]
    @usableFromInline var exhausted: [Bool]
    @usableFromInline var taken: Int?
    @usableFromInline let areInIncreasingOrder: (Source.Element, Source.Element) -> Bool

    @inlinable
    init(
      sources: [Source.Iterator],
      areInIncreasingOrder: @escaping (Source.Element, Source.Element) -> Bool
    ) {
      self.sources = sources
      self.heads = Array(repeating: nil, count: sources.count)
      self.exhausted = Array(repeating: false, count: sources.count)
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
      if let taken {
        heads[taken] = nil
        self.taken = nil
      }
      var best: Int?
      for index in sources.indices where !exhausted[index] {
        if heads[index] == nil {
          heads[index] = sources[index].next()
          if heads[index] == nil {
            exhausted[index] = true
            continue
          }
        }
        guard let current = best else {
          best = index
          continue
        }
        if let candidate = heads[index], let leader = heads[current],
          areInIncreasingOrder(candidate, leader)
        {
          best = index
        }
      }
      guard let best else { return nil }
      taken = best
      return heads[best]
    }
  }
}
