/// Which lines the reading thread decodes, when it shares the decoding with the replay.
///
/// Decoding a line on either thread gives the same result, so the reading thread decodes a
/// share of the lines, in runs, and adjusts it after every batch it hands over: down
/// when the replay had to wait for a batch since the last one, up when it has older batches
/// still waiting (it is behind). The two threads then stay about equally busy, whatever the
/// mix of events and whatever the replay prints. The share moves by lines, not by whole
/// batches, because a batch is too coarse a unit: one thread or the other would sit idle.
///
/// ```swift
/// var share = DecodeShare(decodes: true, adapts: true)
/// if share.decodesNextLine() { decodeAhead(line) }
/// share.adjust(pendingBatches: 2, replayWaited: false)   // behind: decode more
/// ```
struct DecodeShare {
  /// The share of lines decoded, in sixteenths.
  private(set) var sixteenths: Int
  /// Whether the share follows the queue; otherwise it stays as it started.
  let adapts: Bool
  /// The next line's place in its run of 256 lines, of which the first `sixteenths` × 16 are
  /// decoded: each thread then handles runs of lines of one kind, and keeps its caches warm.
  private var place = 0

  /// No line when `decodes` is false; every line when it does not adapt; otherwise a quarter
  /// to start with.
  init(decodes: Bool, adapts: Bool) {
    sixteenths = !decodes ? 0 : adapts ? 4 : 16
    self.adapts = decodes && adapts
  }

  /// Whether to decode the next line.
  mutating func decodesNextLine() -> Bool {
    let decodes = place < sixteenths &* 16
    place = (place &+ 1) & 255
    return decodes
  }

  /// Adjusts the share after handing over a batch, from how many batches then wait and
  /// whether the replay waited for one since the last batch.
  mutating func adjust(pendingBatches: Int, replayWaited: Bool) {
    guard adapts else { return }
    if replayWaited {
      sixteenths = max(0, sixteenths - 1)
    } else if pendingBatches > 1 {
      sixteenths = min(16, sixteenths + 1)
    }
  }
}
