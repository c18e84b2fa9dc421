import Rasp
import RaspRecording

/// Measures the core's synchronous path: several recorded sources merged by time, applied to a
/// small state, and one field followed by a selector.
///
/// Three paths run over the same pre-generated events:
/// - `pipeline`: `mergeSorted` → `RaspPipeline.send` → `RaspSelector.select(from:)`, all on the
///   caller's stack — the replay path.
/// - `aggregator.send`: `mergeSorted` → `RaspAggregator.send(_:)` per event, with a `select`
///   subscriber — the live path when nobody else is delivering (two lock round trips and a
///   subscriber call per event).
/// - `aggregator.batch`: the merged events through `RaspAggregator.send(contentsOf:)`, with the
///   same subscriber.
/// - `aggregator.send, recorded`: the `aggregator.send` path with a `RaspRecorder` attached,
///   writing every event as a log line to `/dev/null` (the disk's speed is the writer thread's
///   business, not the sender's): what recording costs the thread that sends.
///
/// Generating the events is not timed; each path is timed with `ContinuousClock`, best of
/// `--repeat` runs (3 by default) so that a busy machine disturbs the figures less, and a
/// checksum of the selected values keeps the optimizer from discarding the work.
enum CoreBenchmark {
  /// One path's measurement.
  struct Measurement {
    var path: String
    var events: Int
    var seconds: Double
    var checksum: Int

    var eventsPerSecond: Double { seconds > 0 ? Double(events) / seconds : 0 }
  }

  /// An event of the benchmark: when it happened, and a reading.
  struct Reading: Sendable {
    var time: Int
    var value: Int
  }

  /// A small state: a count, a running total and the highest reading.
  struct Summary: RaspState, Sendable {
    var count = 0
    var total = 0
    var highest = 0

    mutating func apply(event: Reading) {
      count += 1
      total &+= event.value
      if event.value > highest { highest = event.value }
    }

    static var throwsBeforeMutating: Bool { true }
  }

  /// How many sources the events are spread over.
  static let sourceCount = 4

  /// Runs every path over `events` events, `repetitions` times, and returns the best
  /// measurement of each.
  static func run(events: Int, repetitions: Int = 3) -> [Measurement] {
    let sources = makeSources(events: events)
    let paths: [(String, () -> Int)] = [
      ("mergeSorted → RaspPipeline → RaspSelector", { runPipeline(sources) }),
      ("mergeSorted → RaspAggregator.send → select", { runAggregator(sources) }),
      (
        "mergeSorted → RaspAggregator.send(contentsOf:) → select",
        {
          runAggregatorBatch(sources)
        }
      ),
      ("mergeSorted → RaspAggregator.send → select, recorded", { runRecorded(sources) }),
    ]
    return paths.map { path, body in
      var best = measure(path, events, body)
      for _ in 1..<max(1, repetitions) {
        let next = measure(path, events, body)
        if next.seconds < best.seconds { best = next }
      }
      return best
    }
  }

  /// `rasp-bench core [--events N] [--repeat N]`: runs the benchmark and prints events per
  /// second per path.
  ///
  /// - Returns: The exit status: 0, or 64 for a usage error.
  static func main(arguments: [String]) -> Int32 {
    let usage = "Usage: rasp-bench core [--events <count>] [--repeat <count>]"
    var events = 10_000_000
    var repetitions = 3
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      guard argument == "--events" || argument == "--repeat" else {
        printError("Error: Unknown option '\(argument)'\n\(usage)")
        return 64
      }
      guard let value = remaining.popFirst().flatMap({ Int($0) }), value > 0 else {
        printError("Error: '\(argument)' expects a positive whole number\n\(usage)")
        return 64
      }
      if argument == "--events" { events = value } else { repetitions = value }
    }
    print(
      "core: \(events) events from \(sourceCount) sources, a state of three Ints,"
        + " best of \(repetitions)")
    let measurements = run(events: events, repetitions: repetitions)
    for measurement in measurements {
      let rate = measurement.eventsPerSecond / 1_000_000
      print(
        "  \(measurement.path.padding(to: 58)) \(format(rate)) M events/s"
          + "  (\(format(measurement.seconds, digits: 3)) s, checksum \(measurement.checksum))")
    }
    if let unrecorded = measurements.first(where: { $0.path.hasSuffix("send → select") }) {
      let without = unrecorded.seconds / Double(events) * 1e9
      let with = recordedSendingSeconds / Double(events) * 1e9
      print(
        "  recording, on the sending thread: \(format(with)) ns per event against"
          + " \(format(without)) ns unrecorded (\(format(with / without, digits: 2))×)")
    }
    return 0
  }

  // MARK: - Paths

  /// Spreads `events` readings round-robin over the sources, each source sorted by time.
  static func makeSources(events: Int) -> [[Reading]] {
    var sources = Array(repeating: [Reading](), count: sourceCount)
    for index in 0..<events {
      let value = (index &* 2_654_435_761) % 1_000_003
      sources[index % sourceCount].append(Reading(time: index, value: value))
    }
    return sources
  }

  static func runPipeline(_ sources: [[Reading]]) -> Int {
    var pipeline = RaspPipeline(initial: Summary())
    var selector = RaspSelector(\Summary.highest)
    var checksum = 0
    for reading in mergeSorted(sources, sortedBy: { $0.time < $1.time }) {
      guard (try? pipeline.send(reading)) == true else { continue }
      if let highest = selector.select(from: pipeline.current) { checksum &+= highest }
    }
    return checksum &+ pipeline.current.count
  }

  static func runAggregator(_ sources: [[Reading]]) -> Int {
    let aggregator = RaspAggregator(initial: Summary())
    let sink = Sink()
    let subscription = aggregator.select(\.highest) { sink.add($0) }
    for reading in mergeSorted(sources, sortedBy: { $0.time < $1.time }) {
      aggregator.send(reading)
    }
    subscription.cancel()
    return sink.total &+ aggregator.current.count
  }

  /// The least time the sending thread spent in `send` in a recorded run, in seconds.
  nonisolated(unsafe) static var recordedSendingSeconds = Double.infinity

  /// The `aggregator.send` path with a recorder attached. The events are sent in chunks of
  /// half the recorder's buffer, and the writer is let catch up between chunks (`flush`) with
  /// the clock stopped: ``recordedSendingSeconds`` is the sending thread's own cost, never
  /// waiting for the disk; the measurement around the call includes the writing.
  static func runRecorded(_ sources: [[Reading]]) -> Int {
    let aggregator = RaspAggregator(initial: Summary())
    let sink = Sink()
    let subscription = aggregator.select(\.highest) { sink.add($0) }
    let configuration = RaspRecorderConfiguration(goldenDomains: [])
    guard let recorder = try? RaspRecorder(path: "/dev/null", configuration: configuration),
      (try? recorder.record(aggregator, as: ReadingDomain())) != nil
    else { return -1 }
    let chunk = configuration.maxPendingEvents / 2
    let clock = ContinuousClock()
    var sending = Duration.zero
    var readings = mergeSorted(sources, sortedBy: { $0.time < $1.time }).makeIterator()
    var isDone = false
    while !isDone {
      let start = clock.now
      for _ in 0..<chunk {
        guard let reading = readings.next() else {
          isDone = true
          break
        }
        aggregator.send(reading)
      }
      sending += clock.now - start
      recorder.flush()
    }
    recordedSendingSeconds = min(
      recordedSendingSeconds,
      Double(sending.components.seconds) + Double(sending.components.attoseconds) / 1e18)
    let summary = recorder.finish()
    subscription.cancel()
    return sink.total &+ aggregator.current.count &+ summary.droppedCount
  }

  static func runAggregatorBatch(_ sources: [[Reading]]) -> Int {
    let aggregator = RaspAggregator(initial: Summary())
    let sink = Sink()
    let subscription = aggregator.select(\.highest) { sink.add($0) }
    aggregator.send(contentsOf: mergeSorted(sources, sortedBy: { $0.time < $1.time }))
    subscription.cancel()
    return sink.total &+ aggregator.current.count
  }

  // MARK: - Helpers

  static func measure(_ path: String, _ events: Int, _ body: () -> Int) -> Measurement {
    let clock = ContinuousClock()
    var checksum = 0
    let elapsed = clock.measure { checksum = body() }
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Measurement(path: path, events: events, seconds: seconds, checksum: checksum)
  }

  static func format(_ value: Double, digits: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    let whole = scaled / Int(scale)
    let fraction = String(scaled % Int(scale))
    let padded = String(repeating: "0", count: digits - fraction.count) + fraction
    return digits == 0 ? "\(whole)" : "\(whole).\(padded)"
  }
}

/// Collects the selected values from the subscriber, which may run on any thread.
private final class Sink: @unchecked Sendable {
  // The benchmark delivers on its own thread only; the aggregator's lock orders the calls.
  var total = 0

  func add(_ value: Int) { total &+= value }
}

extension String {
  fileprivate func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
