import Rasp
import RaspDomains
import RaspJSON

/// The kernel as one of several (``KernelPool``): the items of its share of the keys, and
/// what the pool needs to merge its outcomes with the others'.
extension ReplayKernel {
  /// Whether the item is this kernel's to handle, when it has a share of the keys: an event
  /// whose key is in its share, as the reading thread found (``KeyPartition``); a line that is
  /// not an event, for kernel 0. The counts before
  /// an item it handles are kept, for a replay that ends at another kernel's item
  /// (``KernelPart``).
  @inline(never)
  mutating func ownsItem(_ item: UnsafePointer<ReplayItem>) -> Bool {
    // The part's fields are read one by one: a copy of the part would share its lists, and
    // the next change to them would copy them whole.
    guard let own = part?.index else { return true }
    let share = Int(item.pointee.share)
    guard share == own else { return false }
    if let itemIndex = part?.itemIndex {
      let firstUnknown = part?.firstUnknown
      part?.countsBefore.append((Int32(truncatingIfNeeded: itemIndex), statistics, firstUnknown))
    }
    return true
  }

  /// Notes the event just applied for the merge: its position, and its stream's last event's
  /// number as not yet known (``ReplayStream/EventNumber/State/pending(item:)``:
  /// ``writeEventMembers(_:key:to:)`` leaves its place).
  @inline(never)
  mutating func noteApplied() {
    guard let itemIndex = part?.itemIndex else { return }
    part?.applied.append(Int32(truncatingIfNeeded: itemIndex))
    stream.lastSeq = .pending(item: itemIndex)
    if configuration.isFinal, isKeyed {
      part?.touched.append(
        (Int32(truncatingIfNeeded: currentKey), Int32(truncatingIfNeeded: itemIndex)))
    }
  }

  /// Gives the streams whose last event was in the last list its number in the replay, once
  /// the pool has merged the list: `seqAfter[i]` is the number of events applied up to and
  /// including the list's item `i`.
  mutating func numberEvents(after seqAfter: [Int]) {
    guard isKeyed, let touched = part?.touched, !touched.isEmpty else { return }
    for (number, item) in touched {
      streams.pointer(to: Int(number) + 1).pointee.lastSeq = .known(seqAfter[Int(item)])
    }
    part?.touched.removeAll(keepingCapacity: true)
  }

  /// Goes back to the counts before the first of this kernel's items after `item`: the replay
  /// ended at `item`, a bad line of another kernel's.
  mutating func cutStatistics(after item: Int) {
    guard let first = part?.countsBefore.first(where: { Int($0.item) > item }) else { return }
    statistics = first.statistics
    part?.firstUnknown = first.firstUnknown
    if let ordinals = part?.unknownFieldOrdinals {
      part?.unknownFieldOrdinals = Array(ordinals.prefix(statistics.unknownFields.count))
    }
  }
}
