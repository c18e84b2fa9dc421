import Rasp
import RaspDomains

extension ReplayKernel {
  /// Counts the line an event item is of: once, for its first event.
  @inline(__always)
  mutating func countLine(of item: UnsafePointer<ReplayItem>) {
    if item.pointee.membership != .ownLine {
      countMember(startsLine: item.pointee.membership == .firstOfLine)
    } else {
      statistics.read += 1
    }
  }

  /// Counts an event of a batch line, and the line with its first event.
  @inline(never)
  mutating func countMember(startsLine: Bool) {
    statistics.batchEvents += 1
    if startsLine {
      statistics.read += 1
      statistics.batchLines += 1
    }
  }

  /// Handles a notice or a problem. The kernel's rare paths are kept out of line, here and
  /// below, so that the code that handles a good line stays small enough for the processor's
  /// instruction cache.
  @inline(never)
  mutating func handleOther(_ item: ReplayItem, of batch: ReplayBatch) -> ReplayOutcome? {
    switch item.kind {
    case .notice(let index):
      return .notice(ReplayNotice(input: item.input, message: batch.notices[index]))
    case .problem(let index):
      switch batch.problems[index] {
      case .readFailure(let message):
        ending = .readFailure(input: item.input, message: message)
        return nil
      case .invalid(let error):
        withUnsafePointer(to: item) { countLine(of: $0) }
        return reject(error, item: item)
      }
    case .emptyBatch:
      statistics.read += 1
      statistics.batchLines += 1
      return nil
    default:
      return nil
    }
  }

  /// Ends the replay after its inputs: interrupted when `interruption` was requested,
  /// completed otherwise.
  mutating func end(interruption: ReplayInterruption?) {
    guard ending == nil else { return }
    ending = interruption?.signal.map { .interrupted(signal: $0) } ?? .completed
  }
}
