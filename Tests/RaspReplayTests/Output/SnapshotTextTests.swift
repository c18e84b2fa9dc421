import Rasp
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// The one cache of snapshot bytes: only the domains an event changed are encoded again, and
/// the text always equals the snapshot encoded afresh.
@Suite struct SnapshotTextTests {
  private func apply(_ line: String, to snapshot: inout SnapshotState) throws -> Int {
    try Array(line.utf8).withUnsafeBufferPointer { bytes in
      let routed = try #require(snapshot.router.route(try Envelope.parse(bytes)))
      try snapshot.apply(event: routed)
      return routed.domainIndex
    }
  }

  @Test func keepsEqualToTheSnapshotAsDomainsGrowAndShrink() throws {
    var snapshot = SnapshotState(domains: [DataDomain(), GeoDomain(), NavDomain()])
    var text = SnapshotText()
    let lines = [
      #"{"type":"nav.push","payload":{"screen":"home"}}"#,
      #"{"type":"data.set","payload":{"key":"long","#
        + #""value":"\#(String(repeating: "x", count: 300))"}}"#,
      #"{"type":"geo.heading","payload":{"heading":90}}"#,
      // As long as before: copied over the old bytes in place, by either way of reading.
      #"{"type":"geo.heading","payload":{"heading":45}}"#,
      #"{"type":"geo.heading","payload":{"heading":12}}"#,
      #"{"type":"nav.push","payload":{"screen":"cart"}}"#,
      #"{"type":"data.remove","payload":{"key":"long"}}"#,
      #"{"type":"nav.pop"}"#,
    ]
    // The writers lent to encode in hold bytes of their own, which must stay as they were.
    let before = Array(#"{"earlier":"record"}"#.utf8)
    for (number, line) in lines.enumerated() {
      let changed = try apply(line, to: &snapshot)
      text.markChanged(changed)
      if number.isMultiple(of: 2) {
        // Read by domain first: the changed domain is encoded in `spare`.
        var spare = JSONWriter()
        spare.writeRaw(before)
        for index in snapshot.domainNames.indices {
          #expect(
            Array(text.domain(at: index, of: snapshot, spare: &spare))
              == snapshot.encodedState(ofDomainAt: index))
          #expect(spare.bytes == before)
        }
      }
      var writer = JSONWriter()
      writer.writeRaw(before)
      text.write(snapshot, to: &writer)
      #expect(writer.bytes == before + SnapshotText(snapshot).bytes, "\(line)")
    }
  }

  @Test func isMadeWhenFirstReadAndIgnoresChangesBefore() throws {
    var snapshot = SnapshotState(domains: [GeoDomain()])
    var text = SnapshotText()
    var spare = JSONWriter()
    text.markChanged(try apply(#"{"type":"geo.heading","payload":{"heading":1}}"#, to: &snapshot))
    #expect(
      String(decoding: text.domain(at: 0, of: snapshot, spare: &spare), as: UTF8.self)
        == #"{"accuracy":null,"heading":1,"location":null}"#)
  }

  @Test func anUnmarkedChangeIsNotSeen() throws {
    // The kernel marks every domain an event changed; a change it did not mark stays unseen,
    // which is why the mark is made in one place, right after applying.
    var snapshot = SnapshotState(domains: [GeoDomain()])
    var text = SnapshotText(snapshot)
    var spare = JSONWriter()
    _ = try apply(#"{"type":"geo.heading","payload":{"heading":1}}"#, to: &snapshot)
    #expect(
      String(decoding: text.domain(at: 0, of: snapshot, spare: &spare), as: UTF8.self)
        == #"{"accuracy":null,"heading":null,"location":null}"#)
  }

  @Test(arguments: [
    [], ["data"], ["nav"], ["lifecycle"], ["data", "lifecycle"], ["geo", "nav"],
    ["data", "geo", "nav", "lifecycle"],
  ])
  func writesOnceWhateverDomainsChanged(changing domains: [String]) throws {
    // A key's `--final` record: the text the key started from, made before its events, and
    // the domains they changed. The runs of domains between the changed ones are copied.
    let events = [
      "data": #"{"type":"data.set","payload":{"key":"k","value":[1,"two"]}}"#,
      "geo": #"{"type":"geo.heading","payload":{"heading":271.5}}"#,
      "nav": #"{"type":"nav.push","payload":{"screen":"cart"}}"#,
      "lifecycle": #"{"type":"lifecycle.launch"}"#,
    ]
    var snapshot = SnapshotState(
      domains: [DataDomain(), GeoDomain(), NavDomain(), LifecycleDomain()])
    var text = SnapshotText(snapshot)
    for domain in domains {
      text.markChanged(try apply(try #require(events[domain]), to: &snapshot))
    }
    let before = Array(#"{"key":"d1","state":"#.utf8)
    var writer = JSONWriter()
    writer.writeRaw(before)
    text.writeOnce(snapshot, to: &writer)
    let expected = SnapshotText(snapshot).bytes
    #expect(
      String(decoding: writer.bytes, as: UTF8.self)
        == String(decoding: before + expected, as: UTF8.self))
    // Not made yet, every domain is encoded.
    var fresh = JSONWriter()
    SnapshotText().writeOnce(snapshot, to: &fresh)
    #expect(fresh.bytes == expected)
  }

  @Test func writesTheDomainJustAppliedThroughItsSlotWhenItAloneChanged() throws {
    // Each record of every snapshot: the text kept up to date with the applied domain alone,
    // the same bytes as the snapshot encoded afresh, a domain's length changing or not.
    var snapshot = SnapshotState(domains: [DataDomain(), GeoDomain(), NavDomain()])
    #expect(snapshot.applied == nil)
    var text = SnapshotText(snapshot)
    let lines = [
      #"{"type":"geo.heading","payload":{"heading":90}}"#,
      #"{"type":"geo.heading","payload":{"heading":45}}"#,
      #"{"type":"nav.push","payload":{"screen":"home"}}"#,
      #"{"type":"data.set","payload":{"key":"k","value":[1,"two"]}}"#,
      #"{"type":"nav.pop"}"#,
      #"{"type":"data.remove","payload":{"key":"k"}}"#,
    ]
    let before = Array(#"{"earlier":"record"}"#.utf8)
    for line in lines {
      let changed = try apply(line, to: &snapshot)
      let applied = try #require(snapshot.applied)
      #expect(applied.index == changed)
      text.markChanged(changed)
      var writer = JSONWriter()
      writer.writeRaw(before)
      #expect(text.write(applied: applied, to: &writer))
      #expect(writer.bytes == before + SnapshotText(snapshot).bytes, "\(line)")
    }
  }

  @Test func writesNothingThroughTheSlotWhenAnotherDomainChangedToo() throws {
    var snapshot = SnapshotState(domains: [DataDomain(), GeoDomain(), NavDomain()])
    var text = SnapshotText(snapshot)
    text.markChanged(try apply(#"{"type":"nav.push","payload":{"screen":"a"}}"#, to: &snapshot))
    text.markChanged(try apply(#"{"type":"geo.heading","payload":{"heading":1}}"#, to: &snapshot))
    var writer = JSONWriter()
    #expect(!text.write(applied: try #require(snapshot.applied), to: &writer))
    #expect(writer.bytes.isEmpty)
    // The text not made yet: nothing either; the whole snapshot is written instead.
    var fresh = SnapshotText()
    fresh.markChanged(1)
    #expect(!fresh.write(applied: try #require(snapshot.applied), to: &writer))
    #expect(writer.bytes.isEmpty)
    text.write(snapshot, to: &writer)
    #expect(writer.bytes == SnapshotText(snapshot).bytes)
  }

  @Test func aRefusedEventLeavesNoDomainApplied() throws {
    var snapshot = SnapshotState(domains: [NavDomain()])
    _ = try apply(#"{"type":"nav.push","payload":{"screen":"a"}}"#, to: &snapshot)
    #expect(snapshot.applied != nil)
    #expect(throws: (any Error).self) {
      try apply(#"{"type":"nav.push","payload":{"screen":7}}"#, to: &snapshot)
    }
    #expect(snapshot.applied == nil)
  }
}
