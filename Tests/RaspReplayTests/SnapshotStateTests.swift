import Testing
import Rasp
import RaspDomains
import RaspJSON
import RaspReplay

@Suite struct SnapshotStateTests {
  @Test func holdsEveryDomainInNameOrderFromTheStart() {
    let snapshot = SnapshotState(domains: [RestDomain(), NavDomain(), GeoDomain()])
    #expect(snapshot.domainNames == ["geo", "nav", "rest"])
    #expect(
      String(decoding: snapshot.json(), as: UTF8.self)
        == #"{"geo":{"accuracy":null,"heading":null,"location":null},"nav":{"modal":null,"stack":[],"tab":null},"rest":{"links":{}}}"#
    )
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

  @Test func routesEventsByDomainAndNameOnly() {
    var replay = LogReplay([GeoDomain(), NavDomain()])
    #expect(replay.send(#"{"type":"nav.push","payload":{"screen":"home"}}"#) != "ignored")
    #expect(replay.send(#"{"type":"geo.altitude","payload":{}}"#) == "ignored")
    #expect(replay.send(#"{"type":"motion.sample","payload":{}}"#) == "ignored")
    #expect(replay.send(#"{"type":"nav.pushed","payload":{}}"#) == "ignored")
    #expect(
      replay.json(whole: true)
        == #"{"geo":{"accuracy":null,"heading":null,"location":null},"nav":{"modal":null,"stack":["home"],"tab":null}}"#
    )
  }

  @Test func aRejectedEventLeavesTheWholeSnapshotUnchanged() {
    var replay = LogReplay(RaspBuiltinDomains.all)
    _ = replay.send(#"{"type":"data.set","payload":{"key":"n","value":1}}"#)
    let before = replay.json(whole: true)
    #expect(
      replay.send(#"{"type":"data.merge","payload":{"key":"n","value":{}}}"#).hasPrefix(
        "col 1: event rejected"))
    #expect(replay.send(#"{"type":"nav.pop"}"#).hasPrefix("col 1: event rejected"))
    #expect(
      replay.send(#"{"type":"geo.heading","payload":{"heading":-1}}"#).hasPrefix(
        "col 44: invalid value"))
    #expect(replay.json(whole: true) == before)
  }

  @Test func copiesChangeIndependently() throws {
    var replay = LogReplay([NavDomain(), DataDomain()])
    _ = replay.send(#"{"type":"nav.push","payload":{"screen":"home"}}"#)
    let saved = replay.pipeline.current
    _ = replay.send(#"{"type":"nav.push","payload":{"screen":"cart"}}"#)
    _ = replay.send(#"{"type":"data.set","payload":{"key":"k","value":true}}"#)
    #expect(
      String(decoding: saved.json(), as: UTF8.self)
        == #"{"data":{},"nav":{"modal":null,"stack":["home"],"tab":null}}"#)
    #expect(
      replay.json(whole: true)
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
