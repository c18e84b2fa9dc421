import RaspJSON
import RaspReplay

extension ReplayOptions {
  /// The snapshot before any event, with the options' domains: the final snapshot of an empty
  /// log, unkeyed, as canonical JSON — the value `--select` picks in it, when it picks one.
  ///
  /// What a DevTools export starts from (`@@INIT`), what a check against recorded states
  /// compares the first actions with, and what a report's scrubber shows at event 0.
  var initialSnapshot: [UInt8] {
    var configuration = configuration
    configuration.isFinal = true
    configuration.includesEvent = false
    configuration.emit = .snapshot
    configuration.keyPath = nil
    configuration.since = nil
    configuration.until = nil
    configuration.at = nil
    configuration.progress = nil
    configuration.interruption = nil
    var replay = Replay(
      configuration: configuration,
      inputs: [ReplayInput(name: "", source: .memory(JSONMemorySource([])))])
    var output: [UInt8] = []
    while let outcome = replay.next(appendingTo: &output) {
      if case .record(let record) = outcome { return Array(output[record.range]) }
    }
    return Array("{}".utf8)
  }
}
