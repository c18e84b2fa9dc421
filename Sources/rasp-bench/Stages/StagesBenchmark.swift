// `rasp-bench stages --log FILE`: how long each stage of a replay takes, measured apart, in
// nanoseconds per line: reading lines, reading envelopes, and decoding and applying events.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Rasp
import RaspDomains
import RaspJSON
import RaspReplay

enum StagesBenchmark {
  static func main(arguments: [String]) -> Int32 {
    guard arguments.count == 2, arguments[0] == "--log" else {
      printError("Usage: rasp-bench stages --log <file>")
      return 64
    }
    let path = arguments[1]
    func time(_ name: String, _ body: () -> Int) {
      var best = Double.infinity
      var lines = 0
      for _ in 0..<3 {
        let start = ContinuousClock.now
        lines = body()
        let elapsed = ContinuousClock.now - start
        let seconds =
          Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        best = min(best, seconds)
      }
      let perLine = best / Double(max(lines, 1)) * 1e9
      print("\(name): \(lines) lines, \(Int(best * 1000)) ms, \(Int(perLine)) ns/line")
    }
    func reader() -> JSONLinesReader<FileSource>? {
      FileSource(path: path).map { JSONLinesReader(source: $0) }
    }
    time("read lines") {
      guard let lines = reader() else { return 0 }
      var count = 0
      while let _ = try? lines.next() { count += 1 }
      return count
    }
    time("read + envelopes") {
      guard let lines = reader() else { return 0 }
      var count = 0
      while let line = try? lines.next() {
        if (try? Envelope.parse(line.bytes)) != nil { count += 1 }
      }
      return count
    }
    time("read + envelopes + apply") {
      guard let lines = reader() else { return 0 }
      var pipeline = RaspPipeline(initial: SnapshotState(domains: RaspBuiltinDomains.all))
      let router = pipeline.current.router
      var count = 0
      while let line = try? lines.next() {
        guard let event = try? Envelope.parse(line.bytes), let routed = router.route(event) else {
          continue
        }
        if (try? pipeline.send(routed)) != nil { count += 1 }
      }
      return count
    }
    return 0
  }
}
