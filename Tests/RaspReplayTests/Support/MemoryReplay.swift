import RaspJSON

@testable import RaspReplay

extension Replay {
  /// A replay of `text`, one input named `name` read from memory.
  init(memory text: String, name: String = "log", configuration: ReplayConfiguration) {
    self.init(
      configuration: configuration,
      inputs: [ReplayInput(name: name, source: .memory(JSONMemorySource(Array(text.utf8))))])
  }

  /// Runs the replay to its end, handing `body` each outcome and, for a record, its bytes.
  mutating func forEachOutcome(_ body: (ReplayOutcome, ArraySlice<UInt8>?) throws -> Void)
    rethrows
  {
    var output: [UInt8] = []
    while let outcome = next(appendingTo: &output) {
      if case .record(let record) = outcome {
        try body(outcome, output[record.range])
      } else {
        try body(outcome, nil)
      }
    }
  }
}
