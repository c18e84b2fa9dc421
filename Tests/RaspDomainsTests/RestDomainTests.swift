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

  @Test func encodesAListAsAnArrayAndALinkWithAttributesAsAnObject() {
    let rest = RestState(relations: [
      RestRelation(
        rel: "item",
        list: [
          RestLink(rel: "item", href: "/a"),
          RestLink(rel: "item", href: "/b", isTemplated: true, name: "b", deprecation: "/why"),
        ]),
      RestRelation(rel: "none", list: []),
      RestRelation(RestLink(rel: "find", href: "/o{?id}", isTemplated: true)),
    ])
    #expect(
      encoded(RestDomain(), rest)
        == #"{"links":{"find":{"href":"/o{?id}","templated":true},"item":["/a","#
        + #"{"deprecation":"/why","href":"/b","name":"b","templated":true}],"none":[]}}"#)
  }

  // MARK: HAL as written

  /// draft-kelly-json-hal-11 §6, https://datatracker.ietf.org/doc/html/draft-kelly-json-hal-11
  /// (a Code Component of the draft: Revised BSD License, see fixtures/domain-rest-hal).
  static let draftOrderList =
    #"{"_links":{"self":{"href":"/orders"},"next":{"href":"/orders?page=2"},"find":{"#
    + #""href":"/orders{?id}","templated":true}},"_embedded":{"orders":[{"_links":{"self":{"#
    + #""href":"/orders/123"},"basket":{"href":"/baskets/98712"},"customer":{"href":"#
    + #""/customers/7809"}},"total":30.00,"currency":"USD","status":"shipped",},{"_links":{"#
    + #""self":{"href":"/orders/124"},"basket":{"href":"/baskets/97213"},"customer":{"href":"#
    + #""/customers/12369"}},"total":20.00,"currency":"USD","status":"processing"}]},"#
    + #""currentlyProcessing":14,"shippedToday":20}"#

  /// draft-kelly-json-hal-11 §8.3: versioned curies and a deprecated link.
  static let draftVersionedCuries =
    #"{"_links":{"self":{"href":"/"},"curies":[{"name":"v1","href":"#
    + #""https://docs.example.com/relations/v1/{rel}","templated":true},{"name":"v2","href":"#
    + #""https://docs.example.com/relations/v2/{rel}","templated":true}],"v1:orders":{"href":"#
    + #""https://api.example.com/orders","deprecation":"#
    + #""https://dev.example.com/deprecations/v1-orders"},"v2:orders":{"href":"#
    + #""https://api.example.com/order-list"}}}"#

  /// draft-kelly-json-hal-11 §8.4: the hypertext cache pattern, after.
  static let draftCachePattern =
    #"{"_links":{"self":{"href":"/blog-post"},"author":{"href":"/people/alan-watts"}},"#
    + #""_embedded":{"author":{"_links":{"self":{"href":"/people/alan-watts"}},"#
    + #""name":"Alan Watts","born":"January 6, 1915","died":"November 16, 1973"}}}"#

  /// Spring HATEOAS, src/test/resources/org/springframework/hateoas/mediatype/hal/
  /// hal-link-discoverer.json (Apache License 2.0, see fixtures/domain-rest-hal-spring).
  static let springLinkDiscoverer =
    #"{"_links":{"self":{"href":"selfHref"},"relation":[{"href":"firstHref"},{"#
    + #""href":"secondHref"}],"http://www.foo.com/bar":{"href":"fullRelHref"}},"#
    + #""_embedded":{"relation":{"_links":{"relation":{"href":"thirdHref"}}}}}"#

  /// Spring HATEOAS, …/mediatype/hal/hal-link.json: a link with every attribute.
  static let springLink =
    #"{"_links":{"self":{"href":"/customer/1","hreflang":"en","media":"pdf","#
    + #""title":"pdf customer copy","type":"portable document","deprecation":"#
    + #""https://example.com/customers/deprecated","profile":"my-profile","name":"my-name"}}}"#

  @Test func readsTheDraftsDocumentsAsWritten() {
    var replay = LogReplay([RestDomain()])
    let outcomes = replay.send([
      response(Self.draftOrderList),
      response(Self.draftOrderList.replacing(#""shipped",}"#, with: #""shipped"}"#)),
      response(Self.draftVersionedCuries),
      response(Self.draftCachePattern),
    ])
    #expect(
      outcomes == [
        "col 341: trailing comma before '}'",
        #"{"links":{"find":{"href":"/orders{?id}","templated":true},"next":"/orders?page=2","#
          + #""self":"/orders"}}"#,
        #"{"links":{"curies":[{"href":"https://docs.example.com/relations/v1/{rel}","#
          + #""name":"v1","templated":true},{"href":"https://docs.example.com/relations/v2/{rel}","#
          + #""name":"v2","templated":true}],"self":"/","v1:orders":{"deprecation":"#
          + #""https://dev.example.com/deprecations/v1-orders","href":"#
          + #""https://api.example.com/orders"},"#
          + #""v2:orders":"https://api.example.com/order-list"}}"#,
        #"{"links":{"author":"/people/alan-watts","self":"/blog-post"}}"#,
      ])
  }

  @Test func readsSpringHATEOASDocuments() {
    var replay = LogReplay([RestDomain()])
    let outcomes = replay.send([response(Self.springLinkDiscoverer), response(Self.springLink)])
    #expect(
      outcomes == [
        #"{"links":{"http://www.foo.com/bar":"fullRelHref","relation":["firstHref","#
          + #""secondHref"],"self":"selfHref"}}"#,
        #"{"links":{"self":{"deprecation":"https://example.com/customers/deprecated","#
          + #""href":"/customer/1","name":"my-name"}}}"#,
      ])
  }

  @Test func decodesRelationsAsTheyAreWritten() throws {
    let event = try RestDomain().decodeEvent("response", payloadJSON: Self.springLinkDiscoverer)
    #expect(
      event
        == .replaceRelations([
          RestRelation(RestLink(rel: "self", href: "selfHref")),
          RestRelation(
            rel: "relation",
            list: [
              RestLink(rel: "relation", href: "firstHref"),
              RestLink(rel: "relation", href: "secondHref"),
            ]),
          RestRelation(RestLink(rel: "http://www.foo.com/bar", href: "fullRelHref")),
        ]))
  }

  @Test func aHALResourceWithoutLinksHasNone() {
    var replay = LogReplay([RestDomain()])
    let outcomes = replay.send([
      #"{"type":"rest.link","payload":{"rel":"self","href":"/"}}"#,
      response(#"{"name":"Frodo","_embedded":{"ring":{"name":"One"}}}"#),
    ])
    #expect(outcomes == [#"{"links":{"self":"/"}}"#, #"{"links":{}}"#])
  }

  @Test func aHALResourcesOwnLinksPropertyIsNotRead() {
    var replay = LogReplay([RestDomain()])
    let outcomes = replay.send([
      response(#"{"links":[{"url":"https://swift.org"}],"_links":{"self":{"href":"/b/1"}}}"#),
      response(#"{"_links":{"self":{"href":"/b/2"}},"links":{"self":1}}"#),
      response(#"{"links":{"self":"/b/3"},"_embedded":{}}"#),
    ])
    #expect(
      outcomes == [
        #"{"links":{"self":"/b/1"}}"#, #"{"links":{"self":"/b/2"}}"#, #"{"links":{}}"#,
      ])
  }

  @Test func compactLinksKeepTemplatedNameAndDeprecation() {
    var replay = LogReplay([RestDomain()])
    let outcomes = replay.send([
      response(
        #"{"links":{"find":{"href":"/o{?id}","templated":true,"title":"Find"},"#
          + #""old":{"href":"/o","deprecation":"/why","name":null},"self":{"href":"/"}}}"#),
      response(#"{"links":{"curies":{"href":"/docs/{rel}","name":"d","templated":true}}}"#),
    ])
    #expect(
      outcomes == [
        #"{"links":{"find":{"href":"/o{?id}","templated":true},"#
          + #""old":{"deprecation":"/why","href":"/o"},"self":"/"}}"#,
        #"{"links":{"curies":{"href":"/docs/{rel}","name":"d","templated":true}}}"#,
      ])
  }

  @Test func linkAndUnlinkWorkOnLists() {
    var replay = LogReplay([RestDomain()])
    let outcomes = replay.send([
      response(#"{"_links":{"item":[{"href":"/a"},{"href":"/b","name":"b"}]}}"#),
      #"{"type":"rest.link","payload":{"rel":"item","href":"/c","title":"C"}}"#,
      #"{"type":"rest.link","payload":{"rel":"item","href":"/b2","name":"b"}}"#,
      #"{"type":"rest.unlink","payload":{"rel":"item","href":"/a"}}"#,
      #"{"type":"rest.unlink","payload":{"rel":"item","name":"b","href":null}}"#,
      #"{"type":"rest.unlink","payload":{"rel":"item","href":"/c"}}"#,
      #"{"type":"rest.link","payload":{"rel":"find","href":"/o{?id}","templated":true,"#
        + #""name":null,"deprecation":null}}"#,
      #"{"type":"rest.link","payload":{"rel":"find","href":"/o","templated":null}}"#,
      #"{"type":"rest.unlink","payload":{"rel":"item"}}"#,
    ])
    #expect(
      outcomes == [
        #"{"links":{"item":["/a",{"href":"/b","name":"b"}]}}"#,
        #"{"links":{"item":["/a",{"href":"/b","name":"b"},"/c"]}}"#,
        #"{"links":{"item":["/a",{"href":"/b2","name":"b"},"/c"]}}"#,
        #"{"links":{"item":[{"href":"/b2","name":"b"},"/c"]}}"#,
        #"{"links":{"item":["/c"]}}"#,
        #"{"links":{"item":[]}}"#,
        #"{"links":{"find":{"href":"/o{?id}","templated":true},"item":[]}}"#,
        #"{"links":{"find":"/o","item":[]}}"#,
        #"{"links":{"find":"/o"}}"#,
      ])
  }

  @Test func reportsHALErrorsWithPathsAndColumns() {
    var replay = LogReplay([RestDomain()])
    let outcomes = replay.send([
      response(#"{"_links":{"item":[{"href":"/a"},{"title":"b"}]}}"#),
      response(#"{"_links":{"item":[{"href":"/a"},"/b"]}}"#),
      response(#"{"_links":{"self":"/"}}"#),
      response(#"{"_links":{"find":{"href":"/o{?id}","templated":"true"}}}"#),
      response(#"{"_links":{"item":[{"href":"/a","name":7}]}}"#),
      response(#"{"_links":{"self":{"href":5}}}"#),
      response(#"{"_links":{"curies":[{"href":"/docs/{rel}","templated":true}]}}"#),
      response(#"{"_links":[]}"#),
      response(#"{"_links":{},"_embedded":[]}"#),
      response(#"{"_links":{"self":{"href":"/a","href":"/b"}}}"#),
      response(#"{"_links":{"item":[{"href":"/a"},]}}"#),
      response(#"{"_links":{"item":[[]]}}"#),
      response(#"{"_links":{"old":{"href":"/o","deprecation":true}}}"#),
    ])
    #expect(
      outcomes == [
        "col 68: missing required field 'payload._links.item[1].href'",
        "col 68: field 'payload._links.item[1]' must be an object with an 'href' string, "
          + "found a string",
        "col 53: field 'payload._links.self' must be an object with an 'href' string, "
          + "or an array of them, found a string",
        "col 83: field 'payload._links.find.templated' must be a boolean, found a string",
        "col 74: field 'payload._links.item[0].name' must be a string, found a number",
        "col 61: field 'payload._links.self.href' must be a string, found a number",
        "col 56: missing required field 'payload._links.curies[0].name'",
        "col 45: field 'payload._links' must be an object, found an array",
        "col 60: field 'payload._embedded' must be an object, found an array",
        "col 66: duplicate key 'href'",
        "col 67: trailing comma before ']'",
        "col 54: field 'payload._links.item[0]' must be an object with an 'href' string, "
          + "found an array",
        "col 79: field 'payload._links.old.deprecation' must be a string, found a boolean",
      ])
    #expect(replay.json() == #"{"links":{}}"#, "a rejected response changes nothing")
  }

  @Test func reportsCompactAndEventErrorsWithPathsAndColumns() {
    var replay = LogReplay([RestDomain()])
    let outcomes = replay.send([
      response(#"{"links":{"item":["/a"]}}"#),
      response(#"{"links":{"curies":"/docs/{rel}"}}"#),
      response(#"{"links":{"self":1},"status":tru}"#),
      response(#"{"links":{"self":1},"links":{}}"#),
      response(#"{"links":{"self":1,"next":}}"#),
      #"{"type":"rest.link","payload":{"rel":"find","href":"/o{?id}","templated":1}}"#,
      #"{"type":"rest.link","payload":{"rel":"curies","href":"/docs/{rel}"}}"#,
      #"{"type":"rest.link","payload":{"rel":"item","href":"/a","name":false}}"#,
      #"{"type":"rest.unlink","payload":{"rel":"item","href":3}}"#,
      #"{"type":"rest.unlink","payload":{"rel":"item","name":[]}}"#,
    ])
    #expect(
      outcomes == [
        "col 52: field 'payload.links.item' must be a string or an object with an 'href' "
          + "string, found an array",
        "col 54: field 'payload.links.curies' must be an object with 'href' and 'name' strings, "
          + "found a string",
        "col 52: field 'payload.links.self' must be a string or an object with an 'href' "
          + "string, found a number",
        "col 52: field 'payload.links.self' must be a string or an object with an 'href' "
          + "string, found a number",
        "col 52: field 'payload.links.self' must be a string or an object with an 'href' "
          + "string, found a number",
        "col 74: field 'payload.templated' must be a boolean, found a number",
        "col 31: missing required field 'payload.name'",
        "col 64: field 'payload.name' must be a string, found a boolean",
        "col 54: field 'payload.href' must be a string, found a number",
        "col 54: field 'payload.name' must be a string, found an array",
      ])
  }
}

/// A `rest.response` line whose payload is `json`.
fileprivate func response(_ json: String) -> String {
  #"{"type":"rest.response","payload":"# + json + "}"
}
