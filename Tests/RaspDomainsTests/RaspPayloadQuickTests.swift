import RaspJSON
import Testing

@testable import RaspDomains

/// The quick reading of plain payloads (`RaspPayload.readQuickly`): the domains that use it
/// decode every payload as their field-by-field reading does — the same event, or an error —
/// and take it for the shapes loggers write.
@Suite struct RaspPayloadQuickTests {
  /// The event `name` of `domain` decodes from `payload`, or `nil` when it does not.
  private func decoded<Domain: RaspDomain>(
    _ domain: Domain, _ name: String, _ payload: String
  ) -> Domain.State.Event? {
    try? domain.decodeEvent(name, payloadJSON: payload)
  }

  /// The same payload with a space after its opening brace, which the quick reading never
  /// takes: what the field-by-field reading makes of it.
  private func spaced(_ payload: String) -> String {
    guard payload.first == "{" else { return payload }
    return "{ " + payload.dropFirst()
  }

  /// Every object of up to `length` members drawn from `members` (repeats and all orders).
  private func objects(of members: [String], upTo length: Int) -> [String] {
    var sequences: [[String]] = [[]]
    var all: [[String]] = [[]]
    for _ in 0..<length {
      sequences = sequences.flatMap { sequence in members.map { sequence + [$0] } }
      all += sequences
    }
    return all.map { "{" + $0.joined(separator: ",") + "}" }
  }

  /// Checks that each payload decodes as its spaced copy does; returns how many decoded.
  private func checkSameAsFieldByField<Domain: RaspDomain>(
    _ domain: Domain, _ name: String, _ payloads: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Int where Domain.State.Event: Equatable {
    var decodedCount = 0
    for payload in payloads {
      let quick = decoded(domain, name, payload)
      let careful = decoded(domain, name, spaced(payload))
      #expect(quick == careful, "\(name) \(payload)", sourceLocation: sourceLocation)
      if quick != nil { decodedCount += 1 }
    }
    return decodedCount
  }

  /// Numbers of every form: in and out of the ranges, with exponents, too precise for a
  /// double's quick conversion, and not numbers at all.
  private static let numbers = [
    "0", "-0", "0.0", "-0.0", "360", "360.0", "360.0000001", "90", "90.5", "-90", "-90.0001",
    "180", "-180.5", "139.9", "52.519925", "13.405162", "1e2", "1E+2", "2.5e-1", "-1e-400",
    "1e400", "9007199254740993", "0.30000000000000004", "123456789012345678901234567890",
    "01", "1.", ".5", "-", "+1", "1.5.3", "0x10", "\"1\"", "null", "true", "[]", "{}",
  ]

  @Test func geoDecodesEveryPayloadAsItsFieldByFieldReadingDoes() {
    let headings =
      Self.numbers.map { #"{"heading":\#($0)}"# } + [
        #"{"heading":1,"heading":2}"#, #"{"heading":1,"magnetic":true}"#, #"{}"#,
        #"{"heading":1,}"#, #"{"h\u0065ading":1}"#, #"{"headinh":1}"#, #"{"heading":1 }"#,
        #"{"heading" :1}"#, #"{"heading":1}x"#,
      ]
    #expect(checkSameAsFieldByField(GeoDomain(), "heading", headings) >= 15)
    let members =
      ["52.52", "91", "-90", "1e1", "null", "\"5\""].map { #""latitude":\#($0)"# }
      + ["13.4", "-181", "180", "null"].map { #""longitude":\#($0)"# }
      + ["5", "-1", "0", "null", "\"5m\""].map { #""accuracy":\#($0)"# }
      + [#""speed":3"#]
    let locations = objects(of: members, upTo: 3)
    #expect(locations.count > 4_000)
    let decodedCount = checkSameAsFieldByField(GeoDomain(), "location", locations)
    #expect(decodedCount > 100, "valid locations, in every order")
  }

  @Test func navDecodesEveryPayloadAsItsFieldByFieldReadingDoes() {
    let values = [
      #""orders""#, #""""#, #""caf\u00e9""#, "\"café\"", #""a\"b""#, "\"tab\u{01}\"", "1",
      "null", #"["orders"]"#,
    ]
    let members =
      values.map { #""screen":\#($0)"# } + values.prefix(3).map { #""tab":\#($0)"# }
      + [#""animated":true"#]
    let payloads = objects(of: members, upTo: 2) + ["{\"screen\":\"orders\"} "]
    for name in ["push", "replace", "present"] {
      #expect(checkSameAsFieldByField(NavDomain(), name, payloads) > 10, "\(name)")
    }
    #expect(checkSameAsFieldByField(NavDomain(), "selectTab", payloads) > 10)
  }

  @Test func restLinksDecodeAsTheirFieldByFieldReadingDoes() {
    let members = [
      #""rel":"self""#, #""rel":"""#, #""rel":"curies""#, #""rel":1"#, #""rel":"n\u00e4chste""#,
      #""href":"/orders/1""#, #""href":null"#, #""href":"""#, #""href":"/caf\u00e9""#,
      #""name":"acme""#, #""templated":true"#,
    ]
    let payloads = objects(of: members, upTo: 3)
    #expect(checkSameAsFieldByField(RestDomain(), "link", payloads) > 50)
    #expect(checkSameAsFieldByField(RestDomain(), "unlink", payloads) > 50)
  }

  @Test func restResponsesDecodeAsTheirFieldByFieldReadingDoes() {
    let relations = [
      #""self":"/a""#, #""self":{"href":"/a"}"#, #""next":"/n""#, #""next":{"href":1}"#,
      #""next":{"href":"/n","templated":true}"#, #""next":{}"#, #""next":1"#, #""next":null"#,
      #""curies":"/c""#, #""curies":{"href":"/c","name":"x"}"#, #""n\u00e4":"/x""#,
      #""next":"/caf\u00e9""#, #""next":{"href":"/n"} "#,
    ]
    let links = objects(of: relations, upTo: 2).map { #""links":\#($0)"# }
    let members =
      links + [#""links":[]"#, #""links":"/a""#]
      + [
        #""status":200"#, #""status":"ok""#, #""status":2e2"#, #""_links":{"self":{"href":"/h"}}"#,
        #""_embedded":{}"#, #""total":3"#,
      ]
    let payloads = objects(of: members, upTo: 2)
    #expect(payloads.count > 20_000)
    #expect(checkSameAsFieldByField(RestDomain(), "response", payloads) > 500)
  }

  /// Reads `payload` with the domain, the reader ending where the line says the payload ends,
  /// and tells whether the quick reading read it (no field read one by one, and the reader at
  /// the end).
  private func isReadQuickly<Domain: RaspDomain>(
    _ domain: Domain, _ name: String, _ payload: String, expectedEnd: Int? = nil
  ) throws -> Bool {
    let index = try #require(domain.events.firstIndex { $0.name == name })
    let bytes = Array(payload.utf8)
    return try bytes.withUnsafeBufferPointer { line in
      var reader = RaspPayload(line: line, offset: 0, expectedEnd: expectedEnd ?? line.count)
      _ = try domain.decodedEvent(
        RaspEventName(index: index, string: name), payload: &reader, context: .none)
      return reader.currentKey == nil && reader.isFinished
    }
  }

  @Test func thePlainShapesLoggersWriteAreReadQuickly() throws {
    #expect(try isReadQuickly(GeoDomain(), "heading", #"{"heading":139.9}"#))
    #expect(
      try isReadQuickly(
        GeoDomain(), "location", #"{"latitude":52.519925,"longitude":13.405162,"accuracy":5}"#))
    // The recorder writes keys in order.
    #expect(
      try isReadQuickly(
        GeoDomain(), "location", #"{"accuracy":null,"latitude":52.52,"longitude":13.405}"#))
    #expect(try isReadQuickly(NavDomain(), "push", #"{"screen":"orders"}"#))
    #expect(try isReadQuickly(NavDomain(), "selectTab", #"{"tab":"home"}"#))
    #expect(try isReadQuickly(RestDomain(), "link", #"{"rel":"self","href":"/orders/1"}"#))
    #expect(try isReadQuickly(RestDomain(), "unlink", #"{"rel":"self"}"#))
    let response = #"{"status":200,"links":{"self":{"href":"/o/1"},"next":"/o/2"}}"#
    #expect(try isReadQuickly(RestDomain(), "response", response))
    #expect(try isReadQuickly(RestDomain(), "response", #"{"links":{}}"#))
    #expect(try !isReadQuickly(RestDomain(), "response", #"{"_links":{"self":{"href":"/o"}}}"#))
    // A relation twice is an error, which only the field-by-field reading explains.
    #expect(throws: RaspEventError.self) {
      try self.isReadQuickly(RestDomain(), "response", #"{"links":{"self":"/o","self":"/p"}}"#)
    }
    // Others are read field by field.
    #expect(try !isReadQuickly(GeoDomain(), "heading", #"{"heading": 139.9}"#))
    #expect(try !isReadQuickly(GeoDomain(), "heading", #"{"heading":1,"magnetic":true}"#))
    #expect(try !isReadQuickly(NavDomain(), "push", "{\"screen\":\"caf\u{e9}\"}"))
  }

  @Test func aPayloadThatDoesNotEndWhereTheLineSaysIsReadFieldByField() throws {
    // The envelope took the payload to end one byte later: the field-by-field reading
    // reports it.
    let payload = #"{"heading":139.9}"#
    #expect(throws: RaspEventError.self) {
      try self.isReadQuickly(GeoDomain(), "heading", payload, expectedEnd: payload.utf8.count + 1)
    }
    #expect(try isReadQuickly(GeoDomain(), "heading", payload, expectedEnd: payload.utf8.count))
  }

  @Test func aQuickReadingThatGivesUpLeavesThePayloadUnread() throws {
    let bytes = Array(#"{"heading":139.9,"magnetic":true}"#.utf8)
    try bytes.withUnsafeBufferPointer { line in
      var payload = RaspPayload(line: line, offset: 0)
      var readFirst: Double?
      let quick = payload.readQuickly { fields -> Double? in
        guard let key = fields.nextKey(), key == "heading", let value = fields.number() else {
          return nil
        }
        readFirst = value
        // Then `magnetic`, which this reading does not know.
        return fields.nextKey() == nil ? value : nil
      }
      #expect(readFirst == 139.9)
      #expect(quick == nil)
      let first = try #require(try payload.nextField())
      #expect(first == "heading")
      let heading = try payload.double()
      #expect(heading == 139.9)
      let second = try payload.nextField()?.string
      #expect(second == "magnetic")
    }
  }

  @Test func theCursorReadsKeysNumbersNullsAndPlainStrings() {
    let bytes = Array(#"{"a":-1.5e1,"bb":null,"c":"text","d":"es\"c"}"#.utf8)
    bytes.withUnsafeBufferPointer { line in
      var cursor = RaspQuickPayload(line: line, position: 1)
      var read: [String] = []
      while let key = cursor.nextKey() {
        read.append(key.string)
        switch key {
        case "a":
          read.append(cursor.string() == nil ? "not a string" : "a string")
          read.append("\(cursor.number().map { "\($0)" } ?? "no number")")
        case "bb":
          read.append(cursor.number() == nil ? "not a number" : "a number")
          read.append(cursor.null() ? "null" : "not null")
        case "c":
          read.append(cursor.null() ? "null" : "not null")
          read.append(cursor.string() ?? "no string")
        default:
          read.append(cursor.string() ?? "no plain string")
        }
      }
      #expect(
        read == [
          "a", "not a string", "-15.0", "bb", "not a number", "null", "c", "not null", "text",
          "d", "no plain string",
        ])
      // The escaped string was not read: the cursor gave up there, before the end.
      #expect(!cursor.hasEnded)
    }
    Array("{}".utf8).withUnsafeBufferPointer { line in
      var cursor = RaspQuickPayload(line: line, position: 1)
      let first = cursor.nextKey()
      #expect(first == nil)
      #expect(cursor.hasEnded)
      #expect(cursor.position == 2)
      let next = cursor.nextKey()
      #expect(next == nil, "nothing after the end")
    }
  }
}
