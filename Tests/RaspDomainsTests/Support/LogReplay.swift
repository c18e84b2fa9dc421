import Rasp
import RaspDomains
import RaspJSON
import RaspReplay

/// Replays log lines the way `rasp replay` does — `Envelope.parse`, routing in a
/// `SnapshotState`, `RaspPipeline.send` — and describes each outcome as a string.
struct LogReplay {
  private(set) var pipeline: RaspPipeline<SnapshotState>

  /// A replay into a snapshot of `domains`.
  init(_ domains: [any RaspDomain]) {
    pipeline = RaspPipeline(initial: SnapshotState(domains: domains))
  }

  /// A replay that goes on from `snapshot`.
  init(from snapshot: SnapshotState) {
    pipeline = RaspPipeline(initial: snapshot)
  }

  /// The JSON of the first domain's state, or of the whole snapshot with `whole`.
  func json(whole: Bool = false) -> String {
    let bytes = whole ? pipeline.current.json() : pipeline.current.encodedState(ofDomainAt: 0)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Applies one line and returns the first domain's JSON afterwards, `ignored: <type>` for an
  /// event no domain defines, or `col <column>: <message>` for a rejected line (the state is
  /// then unchanged).
  mutating func send(_ line: String) -> String {
    let bytes = Array(line.utf8)
    let outcome: Result<Bool, RaspEventError> = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(RaspEventError) -> Bool in
        let event = try Envelope.parse(buffer)
        guard let routed = pipeline.current.router.route(event) else { return false }
        do {
          try pipeline.send(routed)
        } catch let error as RaspEventError {
          throw error
        } catch {
          throw RaspEventError(offset: nil, reason: .rejected("\(error)"))
        }
        return true
      }
    }
    switch outcome {
    case .success(true): return json()
    case .success(false): return "ignored"
    case .failure(let error): return "col \(column(of: error.offset ?? 0, in: bytes)): \(error)"
    }
  }

  /// Sends each line and returns the outcomes.
  mutating func send(_ lines: [String]) -> [String] {
    lines.map { send($0) }
  }

  /// The 1-based column of a byte offset, counting Unicode scalars, as the command line does.
  private func column(of offset: Int, in line: [UInt8]) -> Int {
    var column = 1
    for index in 0..<min(offset, line.count) where line[index] & 0xC0 != 0x80 { column += 1 }
    return column
  }
}

/// The canonical JSON a domain writes for a state.
func encoded<Domain: RaspDomain>(_ domain: Domain, _ state: Domain.State) -> String {
  var writer = JSONWriter()
  domain.encode(state, into: &writer)
  return String(decoding: writer.bytes, as: UTF8.self)
}
