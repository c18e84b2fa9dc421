import Testing
import Rasp
import RaspDomains
import RaspJSON

@testable import RaspReplay

@Suite struct SnapshotStateTests {
  @Test func holdsEveryDomainInNameOrderFromTheStart() {
    let snapshot = SnapshotState(domains: [RestDomain(), NavDomain(), GeoDomain()])
    #expect(snapshot.domainNames == ["geo", "nav", "rest"])
    #expect(
      String(decoding: snapshot.json(), as: UTF8.self)
        == #"{"geo":{"accuracy":null,"heading":null,"location":null},"#
        + #""nav":{"modal":null,"stack":[],"tab":null},"rest":{"links":{}}}"#)
    #expect(snapshot.domainIndex(named: "nav") == 1)
    #expect(snapshot.domainIndex(named: "motion") == nil)
  }

  @Test func keepsTheFirstOfTwoDomainsWithOneName() {
    let snapshot = SnapshotState(domains: [GeoDomain(), GeoDomain(), DataDomain()])
    #expect(snapshot.domainNames == ["data", "geo"])
  }

  @Test func anEmptySnapshotIsAnEmptyObject() {
    #expect(String(decoding: SnapshotState(domains: []).json(), as: UTF8.self) == "{}")
  }

  /// Applies one line to `snapshot`: `applied`, `ignored` for a type no domain defines, or
  /// the error's column and reason (the snapshot is then unchanged).
  private func send(_ line: String, to snapshot: inout SnapshotState) -> String {
    let result = Array(line.utf8).withUnsafeBufferPointer { bytes in
      Result { () throws(RaspEventError) -> String in
        let envelope = try Envelope.parse(bytes)
        guard let routed = snapshot.router.route(envelope) else { return "ignored" }
        do {
          try snapshot.apply(event: routed)
        } catch {
          throw error as? RaspEventError ?? RaspEventError(offset: nil, reason: .rejected("?"))
        }
        return "applied"
      }
    }
    switch result {
    case .success(let outcome): return outcome
    case .failure(let error): return "col \((error.offset ?? 0) + 1): \(error)"
    }
  }

  private func json(_ snapshot: SnapshotState) -> String {
    String(decoding: snapshot.json(), as: UTF8.self)
  }

  @Test func routesEventsByDomainAndNameOnly() {
    var snapshot = SnapshotState(domains: [GeoDomain(), NavDomain()])
    #expect(send(#"{"type":"nav.push","payload":{"screen":"home"}}"#, to: &snapshot) == "applied")
    #expect(send(#"{"type":"geo.altitude","payload":{}}"#, to: &snapshot) == "ignored")
    #expect(send(#"{"type":"motion.sample","payload":{}}"#, to: &snapshot) == "ignored")
    #expect(send(#"{"type":"nav.pushed","payload":{}}"#, to: &snapshot) == "ignored")
    #expect(
      json(snapshot)
        == #"{"geo":{"accuracy":null,"heading":null,"location":null},"#
        + #""nav":{"modal":null,"stack":["home"],"tab":null}}"#)
  }

  @Test func aRejectedEventLeavesTheWholeSnapshotUnchanged() {
    var snapshot = SnapshotState(domains: RaspBuiltinDomains.all)
    _ = send(#"{"type":"data.set","payload":{"key":"n","value":1}}"#, to: &snapshot)
    let before = json(snapshot)
    #expect(
      send(#"{"type":"data.merge","payload":{"key":"n","value":{}}}"#, to: &snapshot)
        .hasPrefix("col 1: event rejected"))
    #expect(send(#"{"type":"nav.pop"}"#, to: &snapshot).hasPrefix("col 1: event rejected"))
    #expect(
      send(#"{"type":"geo.heading","payload":{"heading":-1}}"#, to: &snapshot)
        .hasPrefix("col 44: invalid value"))
    #expect(json(snapshot) == before)
  }

  @Test func copiesChangeIndependently() throws {
    var snapshot = SnapshotState(domains: [NavDomain(), DataDomain()])
    _ = send(#"{"type":"nav.push","payload":{"screen":"home"}}"#, to: &snapshot)
    let saved = snapshot
    _ = send(#"{"type":"nav.push","payload":{"screen":"cart"}}"#, to: &snapshot)
    _ = send(#"{"type":"data.set","payload":{"key":"k","value":true}}"#, to: &snapshot)
    #expect(json(saved) == #"{"data":{},"nav":{"modal":null,"stack":["home"],"tab":null}}"#)
    #expect(
      json(snapshot)
        == #"{"data":{"k":true},"nav":{"modal":null,"stack":["home","cart"],"tab":null}}"#)
  }

  @Test func writesADomainIntoAnExistingWriter() {
    let snapshot = SnapshotState(domains: [DataDomain()])
    var writer = JSONWriter()
    writer.writeRaw("[")
    snapshot.encodeState(ofDomainAt: 0, into: &writer)
    writer.writeRaw("]")
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"[{}]"#)
    #expect(String(decoding: snapshot.encodedState(ofDomainAt: 0), as: UTF8.self) == "{}")
    #expect(SnapshotState.throwsBeforeMutating)
  }
}
