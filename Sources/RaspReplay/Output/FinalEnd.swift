/// Where the end of a `--final` replay has got to: the records written once every event is
/// applied, one per key in key order in a keyed replay
/// (``ReplayKernel/nextFinalRecord(writer:)``).
///
/// ```swift
/// var end = FinalEnd()
/// end.order = keys.numbersInKeyOrder()
/// while let order = end.order, end.position < order.count {
///   write(order[end.position])
///   end.position += 1
/// }
/// ```
struct FinalEnd {
  /// The keys' numbers in the order `--final` prints them, once it has started; one,
  /// ``ReplayKeys/noNumber``, in a replay without keys.
  var order: [Int]?
  /// How many of ``order``'s keys are handled: their record written (or, in runs, encoded to
  /// be handed out), or found to have none (an empty diff, no value selected).
  var position = 0
  /// Whether the records are plain snapshots of a keyed replay on one kernel, of domains two
  /// threads may encode at once: written in runs on two threads (``runs``).
  var writesRuns = false
  /// The run of records being handed out, when ``writesRuns``.
  var runs = FinalRuns()
}
