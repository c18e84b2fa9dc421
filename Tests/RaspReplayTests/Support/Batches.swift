import RaspJSON

@testable import RaspReplay

/// The first batch of `text`, read as one input named `log` as the replay's reading thread
/// reads it, with the key hints of `keyHints` when given; `nil` when there is none.
func readBatch(of text: String, keyHints: KeyHints? = nil) -> ReplayBatch? {
  let reading = InputReading(
    ReplayInput(name: "log", source: .memory(JSONMemorySource(Array(text.utf8)))),
    shouldStop: { false })
  let batcher = LineBatcher(input: 0, reading: reading, tracksTime: false, keyHints: keyHints)
  guard case .batch(let batch) = batcher.nextBatch(mayWait: true) else { return nil }
  return batch
}

extension ReplayItem {
  /// The envelope of an event item; `nil` for any other item.
  var envelope: Envelope? {
    switch kind {
    case .event(let envelope), .decoded(let envelope, _, _, _): return envelope
    default: return nil
    }
  }
}
