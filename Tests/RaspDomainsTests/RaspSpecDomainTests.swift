import Rasp
import RaspJSON
import Testing
import RaspReplay

@testable import RaspDomains

/// A spec domain from the text of one domain object.
fileprivate func domain(_ text: String) throws -> RaspSpecDomain {
  let parsed = try RaspSpec(parsing: Array(#"{"domains": [\#(text)]}"#.utf8))
  return try #require(parsed.domains.first)
}

/// What replaying `lines` prints: each snapshot, or for a rejected line
/// `error at <offset>: <reason>`.
fileprivate func replay(_ lines: [String], domains: [any RaspDomain]) -> [String] {
  var pipeline = RaspPipeline(initial: SnapshotState(domains: domains))
  var output: [String] = []
  for line in lines {
    Array(line.utf8).withUnsafeBufferPointer { buffer in
      do {
        let event = try Envelope.parse(buffer)
        guard let routed = pipeline.current.router.route(event) else {
          output.append("unknown type \(event.type)")
          return
        }
        try pipeline.send(routed)
        output.append(String(decoding: pipeline.current.json(), as: UTF8.self))
      } catch let error as RaspEventError {
        output.append("error at \(error.offset.map(String.init) ?? "-"): \(error)")
      } catch {
        output.append("error: \(error)")
      }
    }
  }
  return output
}

@Suite struct RaspSpecDomainTests {
  @Test func readsThePayloadTheTimeTheSourceAndTheType() throws {
    let probe = try domain(
      #"""
      {"name": "probe", "events": [{"name": "seen", "ops": [
        {"op": "set", "path": "city", "from": "payload.address.city"},
        {"op": "set", "path": "count", "from": "payload.items|length"},
        {"op": "set", "path": "at", "from": "ts"},
        {"op": "set", "path": "by", "from": "source"},
        {"op": "set", "path": "type", "from": "type"},
        {"op": "set", "path": "all", "from": "payload"}]}]}
      """#)
    let line =
      #"{"type":"probe.seen","ts":1700000000.5,"source":"app","#
      + #""payload":{"address":{"city":"Oslo"},"items":[1,2]}}"#
    #expect(
      replay([line], domains: [probe]) == [
        #"{"probe":{"all":{"address":{"city":"Oslo"},"items":[1,2]},"#
          + #""at":1700000000.5,"by":"app","city":"Oslo","count":2,"type":"probe.seen"}}"#
      ])
  }

  @Test func rejectsAnEventThatLacksAValueItReadsNamingTheField() throws {
    let cart = try domain(
      #"{"name": "cart", "events": ["#
        + #"{"name": "add", "ops": [{"op": "append", "path": "items", "from": "payload.sku"}]}, "#
        + #"{"name": "tag", "ops": [{"op": "set", "path": "by", "from": "source"}]}]}"#)
    #expect(
      replay(
        [
          #"{"type":"cart.add","payload":{"code":"A-1"}}"#,
          #"{"type":"cart.add"}"#,
          #"{"type":"cart.tag","payload":{}}"#,
        ], domains: [cart]) == [
          "error at 29: missing required field 'payload.sku'",
          "error at -: missing required field 'payload.sku'",
          "error at -: missing required field 'source'",
        ])
  }

  @Test func usesTheDefaultWhenTheEventLacksTheValue() throws {
    let counter = try domain(
      #"{"name": "counter", "initial": {"n": 0}, "events": [{"name": "tap", "#
        + #""ops": [{"op": "increment", "path": "n", "by": {"from": "payload.by", "default": 1}}, "#
        + #"{"op": "set", "path": "last", "from": "payload.label", "default": null}]}]}"#)
    #expect(
      replay(
        [#"{"type":"counter.tap"}"#, #"{"type":"counter.tap","payload":{"by":5,"label":"x"}}"#],
        domains: [counter]) == [
          #"{"counter":{"last":null,"n":1}}"#,
          #"{"counter":{"last":"x","n":6}}"#,
        ])
  }

  @Test func rejectsAValueOfTheWrongKindPointingAtIt() throws {
    let checked = try domain(
      #"""
      {"name": "d", "initial": {"n": 0, "xs": [1, 2], "o": {}}, "events": [
        {"name": "by", "ops": [{"op": "increment", "path": "n", "from": "payload.by"}]},
        {"name": "at", "ops": [{"op": "remove", "path": "xs", "index": {"from": "payload.at"}}]},
        {"name": "merge", "ops": [{"op": "merge", "path": "o", "from": "payload.patch"}]}]}
      """#)
    #expect(
      replay(
        [
          #"{"type":"d.by","payload":{"by":"2"}}"#,
          #"{"type":"d.at","payload":{"at":0.5}}"#,
          #"{"type":"d.merge","payload":{"patch":[1]}}"#,
          #"{"type":"d.at","payload":{"at":-1}}"#,
        ], domains: [checked]) == [
          "error at 31: field 'payload.by' must be a number, found a string",
          "error at 31: field 'payload.at' must be an integer, found 0.5",
          "error at 37: field 'payload.patch' must be an object, found an array",
          #"{"d":{"n":0,"o":{},"xs":[1]}}"#,
        ])
  }

  @Test func aRejectedEventLeavesTheSnapshotAsItWasAndTheNextOneApplies() throws {
    let stack = try domain(
      #"{"name": "nav", "initial": {"depth": 0, "stack": []}, "#
        + #""events": [{"name": "push", "ops": [{"op": "append", "path": "stack", "#
        + #""from": "payload.screen"}, {"op": "increment", "path": "depth"}]}, "#
        + #"{"name": "pop", "ops": [{"op": "decrement", "path": "depth"}, "#
        + #"{"op": "pop", "path": "stack"}]}]}"#)
    #expect(
      replay(
        [
          #"{"type":"nav.push","payload":{"screen":"home"}}"#,
          #"{"type":"nav.pop"}"#,
          #"{"type":"nav.pop"}"#,
          #"{"type":"nav.push","payload":{"screen":"list"}}"#,
        ], domains: [stack]) == [
          #"{"nav":{"depth":1,"stack":["home"]}}"#,
          #"{"nav":{"depth":0,"stack":[]}}"#,
          "error at -: event rejected: cannot pop 'stack': the array is empty",
          #"{"nav":{"depth":1,"stack":["list"]}}"#,
        ])
  }

  @Test func sitsBesideBuiltInDomainsInOneSnapshot() throws {
    let cart = try domain(
      #"{"name": "cart", "initial": {"items": []}, "events": [{"name": "add", "#
        + #""ops": [{"op": "append", "path": "items", "from": "payload.sku"}]}]}"#)
    #expect(
      replay(
        [
          #"{"type":"geo.heading","payload":{"heading":90}}"#,
          #"{"type":"cart.add","payload":{"sku":"A-1"}}"#, #"{"type":"cart.drop"}"#,
        ],
        domains: [GeoDomain(), RestDomain(), cart]) == [
          #"{"cart":{"items":[]},"geo":{"accuracy":null,"heading":90,"location":null},"#
            + #""rest":{"links":{}}}"#,
          #"{"cart":{"items":["A-1"]},"geo":{"accuracy":null,"heading":90,"location":null},"#
            + #""rest":{"links":{}}}"#,
          "unknown type cart.drop",
        ])
  }

  @Test func routesEventNamesThatHoldDots() throws {
    let cart = try domain(
      #"{"name": "cart", "events": ["#
        + #"{"name": "item.added", "ops": [{"op": "increment", "path": "n"}]}]}"#)
    #expect(
      replay([#"{"type":"cart.item.added"}"#, #"{"type":"cart.item"}"#], domains: [cart]) == [
        #"{"cart":{"n":1}}"#, "unknown type cart.item",
      ])
  }

  @Test func readsKeysAndFilterValuesOfPathsFromTheEvent() throws {
    let store = try domain(
      #"""
      {"name": "store", "initial": {"byId": {"3": {"done": false}, "a": {"done": false}},
        "list": [{"id": 1, "n": 0}, {"id": 2, "n": 0}]},
       "events": [
        {"name": "toggled", "ops": [{"op": "toggle", "path": "byId[payload.id].done"}]},
        {"name": "bumped", "ops": [{"op": "increment", "path": "list[?id == payload.id].n"}]},
        {"name": "last", "ops": [{"op": "set", "path": "list[payload.at].n", "value": 9}]}]}
      """#)
    let done = #"{"store":{"byId":{"3":{"done":true},"a":{"done":false}},"list":[{"id":1,"n":0},"#
    #expect(
      replay(
        [
          #"{"type":"store.toggled","payload":{"id":3}}"#,
          #"{"type":"store.toggled","payload":{"id":true}}"#,
          #"{"type":"store.toggled","payload":{}}"#,
          #"{"type":"store.bumped","payload":{"id":2}}"#,
          #"{"type":"store.last","payload":{"at":-2}}"#,
        ], domains: [store]) == [
          done + #"{"id":2,"n":0}]}}"#,
          "error at 40: field 'payload.id' must be a string or an integer, found a boolean",
          "error at 34: missing required field 'payload.id'",
          done + #"{"id":2,"n":1}]}}"#,
          String(done.dropLast(#""n":0},"#.count)) + #""n":9},{"id":2,"n":1}]}}"#,
        ])
  }

  @Test func appliesAnOperationOnlyToEventsThatMeetItsCondition() throws {
    let filters = try domain(
      #"""
      {"name": "filters", "initial": {"colors": []}, "events": [
        {"name": "changed", "ops": [
          {"op": "append", "path": "colors", "from": "payload.color", "unique": true,
           "if": "payload.changeType == 'added'"},
          {"op": "unset", "path": "colors[?. == payload.color]",
           "if": "payload.changeType != 'added'"}]}]}
      """#)
    func changed(_ color: String, _ change: String) -> String {
      #"{"type":"filters.changed","payload":{"color":"\#(color)","changeType":"\#(change)"}}"#
    }
    #expect(
      replay(
        [
          changed("red", "added"), changed("blue", "added"), changed("red", "added"),
          changed("red", "removed"), changed("green", "removed"),
          #"{"type":"filters.changed","payload":{"color":"blue"}}"#,
        ], domains: [filters]) == [
          #"{"filters":{"colors":["red"]}}"#,
          #"{"filters":{"colors":["red","blue"]}}"#,
          #"{"filters":{"colors":["red","blue"]}}"#,
          #"{"filters":{"colors":["blue"]}}"#,
          #"{"filters":{"colors":["blue"]}}"#,
          #"{"filters":{"colors":[]}}"#,
        ])
  }

  @Test func decodesWithoutALogForUseInAnApp() throws {
    let cart = try domain(
      #"{"name": "cart", "events": ["#
        + #"{"name": "clear", "ops": [{"op": "set", "path": "items", "value": []}]}]}"#)
    var payload = RaspPayload(line: UnsafeBufferPointer(start: nil, count: 0), offset: nil)
    let event = try cart.decodeEvent(
      RaspEventName(index: 0, string: "clear"), payload: &payload, context: .none)
    var state = cart.initialState
    try state.apply(event: event)
    #expect(state.value == ["items": []])
    var writer = JSONWriter()
    cart.encode(state, into: &writer)
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"items":[]}"#)
  }
}
