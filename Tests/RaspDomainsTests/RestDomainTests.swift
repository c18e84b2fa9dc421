import Testing
import RaspDomains

@Suite struct RestDomainTests {
  @Test func decodesEveryEvent() {
    var replay = LogReplay([RestDomain()])
    #expect(replay.json() == #"{"links":{}}"#)
    let outcomes = replay.send([
      #"{"type":"rest.response","payload":{"status":200,"links":{"self":"/orders","#
        + #""next":{"href":"/orders?page=2","title":"Next"}}}}"#,
      #"{"type":"rest.link","payload":{"rel":"payment","href":"/orders/1/payment"}}"#,
      #"{"type":"rest.unlink","payload":{"rel":"next"}}"#,
      #"{"type":"rest.unlink","payload":{"rel":"next"}}"#,
      #"{"type":"rest.clear"}"#,
    ])
    #expect(
      outcomes == [
        #"{"links":{"next":"/orders?page=2","self":"/orders"}}"#,
        #"{"links":{"next":"/orders?page=2","payment":"/orders/1/payment","self":"/orders"}}"#,
        #"{"links":{"payment":"/orders/1/payment","self":"/orders"}}"#,
        #"{"links":{"payment":"/orders/1/payment","self":"/orders"}}"#,
        #"{"links":{}}"#,
      ])
  }

  @Test func reportsEveryPayloadError() {
    var replay = LogReplay([RestDomain()])
    let outcomes = replay.send([
      #"{"type":"rest.response","payload":{}}"#,
      #"{"type":"rest.response","payload":{"links":["/a"]}}"#,
      #"{"type":"rest.response","payload":{"links":{"self":1}}}"#,
      #"{"type":"rest.response","payload":{"links":{"self":{"title":"x"}}}}"#,
      #"{"type":"rest.link","payload":{"rel":"self"}}"#,
      #"{"type":"rest.link","payload":{"href":"/"}}"#,
      #"{"type":"rest.unlink","payload":{"rel":""}}"#,
    ])
    #expect(
      outcomes == [
        "col 35: missing required field 'payload.links'",
        "col 44: field 'payload.links' must be an object, found an array",
        "col 52: field 'payload.links.self' "
          + "must be a string or an object with an 'href' string, found a number",
        "col 52: missing required field 'payload.links.self.href'",
        "col 31: missing required field 'payload.href'",
        "col 31: missing required field 'payload.rel'",
        "col 40: invalid value for field 'payload.rel': must not be empty",
      ])
  }

  @Test func encodesLinksAsAnObject() {
    let rest = RestState(links: [
      RestLink(rel: "self", href: "/a\"b"), RestLink(rel: "edit", href: "/e"),
    ])
    #expect(encoded(RestDomain(), rest) == #"{"links":{"edit":"/e","self":"/a\"b"}}"#)
  }
}
