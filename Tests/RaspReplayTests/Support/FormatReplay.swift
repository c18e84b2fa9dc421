import RaspDomains
import RaspJSON

@testable import RaspReplay

/// Replays logs in a format for tests, describing each outcome on a line of its own: a record
/// as `input:line value`, a bad line as `skipped line:column reason`, and the end's counts.
func replayFormat(
  _ inputs: [(name: String, text: String)], format: LogFormat,
  domains: [any RaspDomain] = [GeoDomain(), NavDomain()],
  threading: ReplayConfiguration.Threading = .automatic, chunkSize: Int = .max
) -> [String] {
  var configuration = ReplayConfiguration(domains: domains)
  configuration.format = format
  configuration.threading = threading
  configuration.errorMode = .skip
  let replayInputs = inputs.map { input in
    ReplayInput(
      name: input.name,
      source: .memory(JSONMemorySource(Array(input.text.utf8), chunkSize: chunkSize)))
  }
  var replay = Replay(configuration: configuration, inputs: replayInputs)
  var output: [UInt8] = []
  var described: [String] = []
  while let outcome = replay.next(appendingTo: &output) {
    switch outcome {
    case .record(let record):
      described.append(
        "\(record.input ?? -1):\(record.line ?? 0) "
          + String(decoding: output[record.range], as: UTF8.self))
    case .skipped(let diagnostic):
      described.append("skipped \(diagnostic.line):\(diagnostic.column) \(diagnostic.reason)")
    case .ignored(let diagnostic): described.append("ignored \(diagnostic)")
    case .notice(let notice): described.append("notice \(notice.message)")
    case .waiting, .checkpoint: break
    case .end(let summary):
      let counts = summary.statistics
      var end =
        "end: \(counts.read) read, \(counts.applied) applied, \(counts.skipped) skipped, "
        + "\(counts.unknownType) unknown, \(counts.otherDomain) other, "
        + "\(counts.dropped) dropped, \(counts.blank) blank"
      if counts.batchLines > 0 {
        end += ", \(counts.batchLines) batches of \(counts.batchEvents)"
      }
      described.append(end)
    }
  }
  return described
}
