import Testing
import RaspDomains

@Suite struct NavDomainTests {
  @Test func decodesEveryEventFromLogLines() {
    var replay = LogReplay([NavDomain()])
    #expect(replay.json() == #"{"modal":null,"stack":[],"tab":null}"#)
    let outcomes = replay.send([
      #"{"type":"nav.selectTab","payload":{"tab":"shop"}}"#,
      #"{"type":"nav.push","payload":{"screen":"catalog","animated":true}}"#,
      #"{"type":"nav.push","payload":{"screen":"product"}}"#,
      #"{"type":"nav.replace","payload":{"screen":"reviews"}}"#,
      #"{"type":"nav.present","payload":{"screen":"login"}}"#,
      #"{"type":"nav.dismiss"}"#,
      #"{"type":"nav.popToRoot","payload":{}}"#,
      #"{"type":"nav.pop","payload":null}"#,
    ])
    #expect(
      outcomes == [
        #"{"modal":null,"stack":[],"tab":"shop"}"#,
        #"{"modal":null,"stack":["catalog"],"tab":"shop"}"#,
        #"{"modal":null,"stack":["catalog","product"],"tab":"shop"}"#,
        #"{"modal":null,"stack":["catalog","reviews"],"tab":"shop"}"#,
        #"{"modal":"login","stack":["catalog","reviews"],"tab":"shop"}"#,
        #"{"modal":null,"stack":["catalog","reviews"],"tab":"shop"}"#,
        #"{"modal":null,"stack":["catalog"],"tab":"shop"}"#,
        #"{"modal":null,"stack":[],"tab":"shop"}"#,
      ])
  }

  @Test func reportsEveryPayloadError() {
    var replay = LogReplay([NavDomain()])
    let outcomes = replay.send([
      #"{"type":"nav.push"}"#,
      #"{"type":"nav.push","payload":{}}"#,
      #"{"type":"nav.push","payload":{"screen":""}}"#,
      #"{"type":"nav.push","payload":{"screen":7}}"#,
      #"{"type":"nav.replace","payload":{"name":"x"}}"#,
      #"{"type":"nav.selectTab","payload":{"tab":null}}"#,
      #"{"type":"nav.present","payload":{"screen":["a"]}}"#,
      #"{"type":"nav.pop","payload":"now"}"#,
      #"{"type":"nav.back"}"#,
    ])
    #expect(
      outcomes == [
        "col 1: missing required field 'payload.screen'",
        "col 30: missing required field 'payload.screen'",
        "col 40: invalid value for field 'payload.screen': must not be empty",
        "col 40: field 'payload.screen' must be a string, found a number",
        "col 33: missing required field 'payload.screen'",
        "col 42: field 'payload.tab' must be a string, found null",
        "col 43: field 'payload.screen' must be a string, found an array",
        "col 29: field 'payload' must be an object, found a string",
        "ignored",
      ])
    #expect(replay.json() == #"{"modal":null,"stack":[],"tab":null}"#)
  }

  @Test func reportsEveryRejection() {
    var replay = LogReplay([NavDomain()])
    let outcomes = replay.send([
      #"{"type":"nav.pop"}"#,
      #"{"type":"nav.replace","payload":{"screen":"home"}}"#,
      #"{"type":"nav.dismiss"}"#,
      #"{"type":"nav.present","payload":{"screen":"login"}}"#,
      #"{"type":"nav.present","payload":{"screen":"signup"}}"#,
    ])
    #expect(
      outcomes == [
        "col 1: event rejected: cannot pop: the navigation stack is empty",
        "col 1: event rejected: cannot replace: the navigation stack is empty",
        "col 1: event rejected: cannot dismiss: no modal is presented",
        #"{"modal":"login","stack":[],"tab":null}"#,
        "col 1: event rejected: cannot present 'signup': 'login' is already presented",
      ])
  }

  @Test func encodesScreenNamesAsJSONStrings() {
    let nav = NavState(stack: ["home", "say \"hi\"", "café"], tab: "t", modal: "m")
    #expect(
      encoded(NavDomain(), nav) == #"{"modal":"m","stack":["home","say \"hi\"","café"],"tab":"t"}"#)
    #expect(
      encoded(NavDomain(), NavDomain().initialState) == #"{"modal":null,"stack":[],"tab":null}"#)
  }

  @Test func describesItsEvents() {
    let domain = NavDomain()
    #expect(domain.name == "nav")
    #expect(
      domain.events.map(\.name) == [
        "push", "pop", "popToRoot", "replace", "selectTab", "present", "dismiss",
      ])
    #expect(domain.events[0].fields.map(\.name) == ["screen"])
    #expect(domain.events[4].fields.map(\.name) == ["tab"])
  }
}
