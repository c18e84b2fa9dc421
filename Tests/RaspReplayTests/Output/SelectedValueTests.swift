import Rasp
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// What a `--select` path picks (``SelectedValue``), in an event's line and in a snapshot's
/// text, checked against values written by hand.
@Suite struct SelectedValueTests {
  private func ofEvent(_ path: String, _ line: String) throws -> String {
    let path = try JSONPath(path, allowsFilters: true)
    let bytes = Array(line.utf8)
    return bytes.withUnsafeBufferPointer {
      String(decoding: SelectedValue.ofEvent(path, in: $0), as: UTF8.self)
    }
  }

  @Test func anEventsValueIsCanonicalAfterTheFirstKey() throws {
    let line = #"{"type":"nav.push","meta":{"user":"ada","tags":[ 2 , 1.50 ],"o":{"b":1,"a":2}}}"#
    #expect(try ofEvent("event.meta.user", line) == #""ada""#)
    #expect(try ofEvent("event.meta.tags", line) == "[2,1.5]")
    #expect(try ofEvent("event.meta.o", line) == #"{"a":2,"b":1}"#)
    #expect(try ofEvent("event.meta.tags|length", line) == "2")
    #expect(try ofEvent("event.meta.missing", line) == "null")
    #expect(try ofEvent("event.meta.tags[]", line) == "2\n1.5")
  }

  @Test func aSnapshotsValueIsReadFromItsDomainsText() throws {
    let state = SnapshotState(domains: [GeoDomain(), NavDomain()])
    var text = SnapshotText(state)
    var spare = JSONWriter()
    let nav = try #require(state.domainIndex(named: "nav"))
    func select(_ path: String, domain: Int?) throws -> String {
      String(
        decoding: SelectedValue.inSnapshot(
          try JSONPath(path), domain: domain, text: &text, state, spare: &spare), as: UTF8.self)
    }
    #expect(try select("nav.stack", domain: nav) == "[]")
    #expect(try select("nav.stack|length", domain: nav) == "0")
    #expect(try select("nav.nothing", domain: nav) == "null")
    // From the top, a path that names no domain.
    #expect(try select("nothing.here", domain: nil) == "null")
    #expect(try select("nav.stack", domain: nil) == "[]")
    #expect(spare.bytes.isEmpty, "the spare writer is left as it was")
  }
}
