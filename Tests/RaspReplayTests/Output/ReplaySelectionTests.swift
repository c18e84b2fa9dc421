import Rasp
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// The `--select` stage (``ReplaySelection``): what a path reads, and which events can change
/// its value.
@Suite struct ReplaySelectionTests {
  private let state = SnapshotState(domains: [GeoDomain(), NavDomain()])

  private func selection(_ path: String) throws -> ReplaySelection {
    try #require(ReplaySelection(try JSONPath(path, allowsFilters: true), snapshot: state))
  }

  @Test func aPathIntoADomainIsChangedOnlyByThatDomainsEventsOnceItHasAValue() throws {
    let heading = try selection("geo.heading")
    let geo = try #require(state.domainIndex(named: "geo"))
    let nav = try #require(state.domainIndex(named: "nav"))
    #expect(heading.domain == geo)
    #expect(!heading.isOfEvent)
    #expect(heading.mayChange(domain: geo, hasSelected: true))
    #expect(!heading.mayChange(domain: nav, hasSelected: true))
    // After a hidden event, or before the first record, any event selects again.
    #expect(heading.mayChange(domain: nav, hasSelected: false))
  }

  @Test func aPathIntoTheEventOrNoDomainIsChangedByEveryEvent() throws {
    let user = try selection("event.meta.user")
    #expect(user.isOfEvent)
    #expect(user.domain == nil)
    #expect(user.mayChange(domain: 0, hasSelected: true))
    let other = try selection("nothing.here")
    #expect(!other.isOfEvent)
    #expect(other.mayChange(domain: 1, hasSelected: true))
    #expect(ReplaySelection(nil, snapshot: state) == nil)
  }

  /// What the kernel writes from the typed state alone (`SelectedMemberTests` checks the
  /// records of every such path against the domains' own JSON).
  @Test func onlyAMemberItselfIsWrittenFromTheTypedState() throws {
    #expect(try selection("nav.tab").isMember)
    #expect(try selection("nav.stack").isMember)
    #expect(try selection("geo.heading").isMember)
    // A path that goes on after the member, or filters it, reads the member's JSON instead.
    #expect(try !selection("nav.stack[0]").isMember)
    #expect(try !selection("nav.stack|length").isMember)
    #expect(try !selection("nav").isMember)
    #expect(try !selection("event.meta.user").isMember)
    #expect(try !selection("nothing.here").isMember)
  }

  @Test func theValueIsReadFromTheEventOrTheSnapshot() throws {
    var text = SnapshotText(state)
    var spare = JSONWriter()
    let line = Array(#"{"type":"nav.pop","meta":{"user":"ada"}}"#.utf8)
    func value(_ path: String) throws -> String {
      let selection = try selection(path)
      return line.withUnsafeBufferPointer {
        String(
          decoding: selection.value(event: $0, text: &text, state, spare: &spare), as: UTF8.self)
      }
    }
    #expect(try value("event.meta.user") == #""ada""#)
    #expect(try value("nav.stack") == "[]")
    #expect(try value("nav.stack|length") == "0")
    // Before any event, a path into the event has no value yet.
    #expect(
      String(
        decoding: try selection("event.meta.user").initialValue(text: &text, state, spare: &spare),
        as: UTF8.self) == "null")
    #expect(
      String(
        decoding: try selection("nav.stack").initialValue(text: &text, state, spare: &spare),
        as: UTF8.self) == "[]")
  }
}
