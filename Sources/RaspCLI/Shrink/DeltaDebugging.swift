/// Delta debugging (Zeller and Hildebrandt's *ddmin*): the smallest subset of a list that a
/// test still accepts, found by removing ever smaller chunks.
///
/// The list is split into *n* chunks. If one chunk alone still fails, it is kept (and *n* goes
/// back to 2); else if all but one chunk still fail, those are kept (and *n* drops by one);
/// else the chunks are halved, until each is one element. The result is **1-minimal**: removing
/// any one of its elements makes the failure go away — each was tried. The empty list is tried
/// first. It is deterministic: the same tests, in the same order, for the same answers.
///
/// ```swift
/// var kept = Array(0..<100)
/// DeltaDebugging.minimize(&kept) { candidate in
///   candidate.contains(7) && candidate.contains(42)
/// }
/// kept   // [7, 42]
/// ```
enum DeltaDebugging {
  /// Cuts `current` down to a 1-minimal list that `stillFails` accepts.
  ///
  /// `current` must fail to start with. It holds the smallest failing list found so far at
  /// every moment, so that a search stopped by an error thrown from `stillFails` (a budget
  /// spent, Ctrl-C) leaves the best so far there.
  ///
  /// - Parameters:
  ///   - current: The list; on return, the 1-minimal list, or the best so far when stopped.
  ///   - stillFails: The test: whether a candidate, a sublist in the same order, still fails.
  /// - Throws: What `stillFails` throws, which stops the search.
  /// - Complexity: At most O(*n*²) tests, O(*k* log *n*) for *k* needed elements spread well.
  static func minimize<Element, Failure: Error>(
    _ current: inout [Element], stillFails: ([Element]) throws(Failure) -> Bool
  ) throws(Failure) {
    guard !current.isEmpty else { return }
    if try stillFails([]) {
      current = []
      return
    }
    var granularity = 2
    while current.count >= 2 {
      let chunks = split(current, into: granularity)
      var reduced = false
      for chunk in chunks where try stillFails(chunk) {
        current = chunk
        granularity = 2
        reduced = true
        break
      }
      // With two chunks, each complement is the other chunk, tried already.
      if !reduced, chunks.count > 2 {
        for index in chunks.indices {
          let complement = chunks.indices.filter { $0 != index }.flatMap { chunks[$0] }
          if try stillFails(complement) {
            current = complement
            granularity = max(chunks.count - 1, 2)
            reduced = true
            break
          }
        }
      }
      if !reduced {
        guard granularity < current.count else { break }
        granularity = min(current.count, granularity * 2)
      }
    }
  }

  /// `list` split into `count` chunks of nearly equal sizes, in order.
  static func split<Element>(_ list: [Element], into count: Int) -> [[Element]] {
    let count = min(max(count, 1), list.count)
    guard count > 0 else { return [] }
    var chunks: [[Element]] = []
    var start = 0
    for index in 0..<count {
      let end = start + (list.count - start) / (count - index)
      chunks.append(Array(list[start..<end]))
      start = end
    }
    return chunks
  }
}
