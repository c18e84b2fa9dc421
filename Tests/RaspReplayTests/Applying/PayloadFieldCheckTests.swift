import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// The check of an event's payload keys against its type's fields (``PayloadFieldCheck``):
/// the first key its type does not define, at the key's opening quote, with a did-you-mean.
@Suite struct PayloadFieldCheckTests {
  private static let domains: [any RaspDomain] = [GeoDomain(), NavDomain()]

  /// What the check says of `line`'s event, the check made of the types of ``domains``
  /// against the schemas of `domains`: `nil`, or the error's field, nearest field and offset.
  private func check(
    _ line: String, domains: [any RaspDomain] = Self.domains, keyPath: String? = nil
  ) throws -> (field: String, nearest: String?, offset: Int?)? {
    let router = SnapshotState(domains: Self.domains).router
    let check = PayloadFieldCheck(
      typeNames: router.typeNames, domains: domains, keyPath: try keyPath.map { try JSONPath($0) })
    return try Self.unknownField(in: line, router: router, check: check)
  }

  private static func unknownField(
    in line: String, router: Router, check: PayloadFieldCheck
  ) throws -> (field: String, nearest: String?, offset: Int?)? {
    let bytes = Array(line.utf8)
    return try bytes.withUnsafeBufferPointer { buffer in
      let envelope = try Envelope.parse(buffer)
      guard let routed = router.route(envelope) else {
        Issue.record("not routed: \(line)")
        return nil
      }
      guard let error = check.unknownField(of: routed) else { return nil }
      guard case .unknownField(let field, let nearest) = error.reason else {
        Issue.record("not an unknown field: \(error)")
        return nil
      }
      return (field, nearest, error.offset)
    }
  }

  /// The offset of the first `"name"` in `line`: where an error about the key belongs.
  private func offset(of name: String, in line: String) -> Int? {
    guard let range = line.range(of: "\"\(name)\"") else { return nil }
    return line.utf8.distance(from: line.startIndex, to: range.lowerBound)
  }

  @Test func namesAFieldTheTypeDoesNotDefineAtItsKeyWithTheNearestItDoes() throws {
    let line = #"{"type":"geo.location","payload":{"latitude":1,"longitude":2,"acuracy":3}}"#
    let found = try #require(try check(line))
    #expect(found.field == "payload.acuracy")
    #expect(found.nearest == "payload.accuracy")
    #expect(found.offset == offset(of: "acuracy", in: line))
  }

  @Test func passesAPayloadOfDefinedFieldsWhateverTheirValues() throws {
    let lines = [
      #"{"type":"geo.location","payload":{"latitude":1,"longitude":2,"accuracy":3}}"#,
      #"{"type":"geo.location","payload":{ "latitude" : 1.5e3 , "longitude":-2 }}"#,
      #"{"type":"nav.push","payload":{"screen":"a \" , } ] b"}}"#,
      #"{"type":"geo.heading","payload":{}}"#,
      // An escaped key is compared once unescaped: `\u0068eading` is `heading`.
      #"{"type":"geo.heading","payload":{"\u0068eading":1}}"#,
    ]
    for line in lines { #expect(try check(line) == nil, "\(line)") }
  }

  @Test func findsTheFirstUnknownKeyAfterValuesThatLookLikeKeys() throws {
    let line =
      #"{"type":"nav.push","payload":{"screen":"{\"scren\":[1]} , \"x\":","scren":"home"}}"#
    let found = try #require(try check(line))
    #expect(found.field == "payload.scren")
    #expect(found.nearest == "payload.screen")
    #expect(found.offset == line.utf8.count - #""scren":"home"}}"#.utf8.count)
  }

  @Test func theKeyFieldIsAFieldOfEveryPayload() throws {
    let line = #"{"type":"geo.heading","payload":{"heading":1,"deviceId":"d1"}}"#
    #expect(try check(line)?.field == "payload.deviceId")
    #expect(try check(line, keyPath: "payload.deviceId") == nil)
    // A key outside the payload adds no field to it.
    #expect(try check(line, keyPath: "deviceId")?.field == "payload.deviceId")
  }

  @Test func aTypeOfADomainNotCheckedIsNotChecked() throws {
    let line = #"{"type":"geo.heading","payload":{"heading":1,"note":"x"}}"#
    #expect(try check(line, domains: [NavDomain()]) == nil)
    #expect(try check(line, domains: [GeoDomain()])?.field == "payload.note")
  }

  @Test func outsideStrictASpecDomainsEventsAreNotChecked() throws {
    // A spec's event has the fields its operations read; a payload has others.
    let spec = try RaspSpec(
      parsing: Array(
        #"""
        {"domains": [{"name": "cart", "initial": {"items": []}, "events": [
          {"name": "add", "ops": [{"op": "append", "path": "items", "from": "payload.sku"}]}]}]}
        """#.utf8))
    let router = SnapshotState(domains: spec.domains).router
    let line = #"{"type":"cart.add","payload":{"sku":"A1","price":3}}"#
    var configuration = ReplayConfiguration(domains: spec.domains)
    let relaxed = PayloadFieldCheck(configuration, typeNames: router.typeNames)
    #expect(try Self.unknownField(in: line, router: router, check: relaxed) == nil)
    configuration.isStrict = true
    let strict = PayloadFieldCheck(configuration, typeNames: router.typeNames)
    let found = try #require(try Self.unknownField(in: line, router: router, check: strict))
    #expect(found.field == "payload.price")
    #expect(found.nearest == nil)
    #expect(found.offset == offset(of: "price", in: line))
  }

  @Test func aWholeRecordTakenForThePayloadIsNotCheckedOutsideStrict() throws {
    let router = SnapshotState(domains: Self.domains).router
    let line = #"{"type":"geo.heading","payload":{"heading":1,"note":"x"}}"#
    var configuration = ReplayConfiguration(domains: Self.domains)
    #expect(
      try Self.unknownField(
        in: line, router: router,
        check: PayloadFieldCheck(configuration, typeNames: router.typeNames))?.field
        == "payload.note")
    configuration.format = try LogFormat(
      mapFile: Array(#"{"format": "fix", "type": "geo.heading", "payload": "."}"#.utf8),
      name: "fix.json")
    #expect(
      try Self.unknownField(
        in: line, router: router,
        check: PayloadFieldCheck(configuration, typeNames: router.typeNames)) == nil)
  }
}
