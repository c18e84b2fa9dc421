/// Merges the items of several inputs by time, stably: the way a replay of several logs reads.
/// Or concatenates them, each input read to its end before the next is read, for the parts of
/// one log (`--concat`).
///
/// Each input is read in batches on the replay's thread; the merge holds the head item of
/// each, and hands on the earliest (``ReplayItem/precedes(_:_:)``), the first input's on a
/// tie. An item stays valid as long as its batch, which the merge keeps until the item after
/// it is asked for.
///
/// ```swift
/// let merge = InputMerge(batchers: batchers)
/// while case .item(let batch, let index) = merge.next(mayWait: true) {
///   handle(batch.items[index])
/// }
/// ```
final class InputMerge {
  /// What ``next(mayWait:)`` found.
  enum Next {
    /// The earliest item: the batch it is in, and its position there.
    case item(ReplayBatch, Int)
    /// A live input has nothing ready, and the caller asked not to wait.
    case wouldWait
    /// Every input ended.
    case end
  }

  /// One input: its batcher, the batch being read and the position of its head item.
  private struct Cursor {
    let batcher: LineBatcher
    var batch: ReplayBatch?
    var index = 0
    var isFinished = false

    /// Whether the cursor has a head item.
    var hasHead: Bool {
      guard let batch else { return false }
      return index < batch.count
    }
  }

  private var cursors: [Cursor]
  /// The input whose head was handed on last, to move past it at the next call.
  private var taken: Int?
  /// Whether the inputs are read one after another instead of merged.
  private let concatenates: Bool

  init(batchers: [LineBatcher], concatenates: Bool = false) {
    cursors = batchers.map { Cursor(batcher: $0) }
    self.concatenates = concatenates
  }

  /// The earliest of the inputs' head items.
  ///
  /// Every input must have a head, or be finished, before the earliest is known: an input
  /// that has nothing ready is waited for, unless `mayWait` is `false`.
  func next(mayWait: Bool) -> Next {
    if let taken {
      cursors[taken].index += 1
      self.taken = nil
    }
    if concatenates { return nextInOrder(mayWait: mayWait) }
    for index in cursors.indices where !cursors[index].isFinished && !cursors[index].hasHead {
      guard refill(index, mayWait: mayWait) else { return .wouldWait }
    }
    var best: (cursor: Int, item: ReplayItem)?
    for index in cursors.indices {
      guard let batch = cursors[index].batch, cursors[index].index < batch.count else { continue }
      let item = batch.items[cursors[index].index]
      if let best, !ReplayItem.precedes(item, best.item) { continue }
      best = (index, item)
    }
    guard let best, let batch = cursors[best.cursor].batch else { return .end }
    taken = best.cursor
    return .item(batch, cursors[best.cursor].index)
  }

  /// The next item of the first input that has not ended: the inputs one after another.
  private func nextInOrder(mayWait: Bool) -> Next {
    for index in cursors.indices where !cursors[index].isFinished {
      while !cursors[index].hasHead, !cursors[index].isFinished {
        guard refill(index, mayWait: mayWait) else { return .wouldWait }
      }
      guard let batch = cursors[index].batch, cursors[index].hasHead else { continue }
      taken = index
      return .item(batch, cursors[index].index)
    }
    return .end
  }

  /// Reads input `index`'s next batch into its cursor, or marks it finished at its end.
  ///
  /// - Returns: `false` when a live input has nothing ready and `mayWait` is `false`.
  private func refill(_ index: Int, mayWait: Bool) -> Bool {
    switch cursors[index].batcher.nextBatch(mayWait: mayWait) {
    case .batch(let batch):
      cursors[index].batch = batch
      cursors[index].index = 0
    case .wouldWait:
      return false
    case .end:
      cursors[index].batch = nil
      cursors[index].isFinished = true
    }
    return true
  }
}
