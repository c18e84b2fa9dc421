import Foundation
import RaspDomains
import RaspJSON
import Testing

@testable import RaspReplay

/// One OpenTelemetry log record made into a plain event: every record of real OTLP/JSON lines
/// checked against an independent conversion written with Foundation, byte-exact events for
/// simple records, and the errors, with their messages and offsets.
@Suite struct OTLPLogRecordTests {
  // MARK: Real lines, against an independent conversion

  @Test func everyRecordOfTheSamplesMatchesAnIndependentConversion() throws {
    let text = try String(contentsOfFile: Self.fixture("samples.jsonl"), encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.count == 9)
    var records = 0
    for (number, line) in (lines + [Self.everyKind]).enumerated() {
      let located = try locateRecords(line)
      let expected = try independentEvents(line)
      #expect(located.count == expected.count, "line \(number + 1)")
      for (index, (place, event)) in zip(located, expected).enumerated() {
        let actual = try convert(line, place)
        let context = "line \(number + 1), record \(index)"
        let (converted, independent) = (try canonical(parse(actual)), try canonical(event))
        #expect(converted == independent, "\(context)")
        // rasp's own parser and canonical writer give the same bytes: keys sorted, compact.
        var writer = JSONWriter()
        writer.write(try JSONParser.parse(Array(actual.utf8)))
        #expect(String(decoding: writer.bytes, as: UTF8.self) == actual, "\(context)")
        records += 1
      }
    }
    #expect(records == 16)
  }

  /// A record with every kind of AnyValue and the odd spellings OTLP/JSON allows.
  static let everyKind =
    #"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":{"kvlistValue":{"values":["#
    + #"{"key":"s","value":{"stringValue":"a\"b\u00e9\n"}},"#
    + #"{"key":"b","value":{"boolValue":false}},"#
    + #"{"key":"i","value":{"intValue":"-9223372036854775808"}},"#
    + #"{"key":"n","value":{"intValue":42}},"#
    + #"{"key":"d","value":{"doubleValue":1.5e3}},{"key":"nan","value":{"doubleValue":"NaN"}},"#
    + #"{"key":"ds","value":{"doubleValue":"-0.25"}},{"key":"y","value":{"bytesValue":"AAE="}},"#
    + #"{"key":"e","value":{}},{"key":"none"},{"value":{"intValue":"7"},"key":"late"},"#
    + #"{"key":"a","value":{"arrayValue":{"values":[{"stringValue":"x"},{},{"arrayValue":{}}]}}},"#
    + #"{"key":"k\u0041","value":{"kvlistValue":{"values":[{"key":"z","value":{"intValue":"1"}},"#
    + #"{"key":"Z","value":{"stringValue":"upper"}},{"key":"\u00e9","value":{"boolValue":true}}"#
    + #"]}}},{"key":"","value":{"stringValue":"empty"}}"#
    + #"]}},"attributes":[{"key":"event.name","value":{"stringValue":"device.app.lifecycle"}},"#
    + #"{"key":"future","value":{"stringValue":"kept"},"comment":"ignored"}],"#
    + #""timeUnixNano":1700000000000000000,"observedTimeUnixNano":"0","spanId":null}]}],"#
    + #""resource":{"droppedAttributesCount":2}}]}"#

  // MARK: Byte-exact events

  @Test func writesAFilelogRecordWithItsResource() throws {
    let line = try sample(9)
    #expect(
      try convert(line)
        == #"{"attributes":{"log.file.path_resolved":"logwriter/data.log"},"#
        + #""body":"2022-06-03 13:57:00.62739 +0200 CEST m=+14.018296742 log entry14","#
        + #""observedTimeUnixNano":"1654257420681895000","#
        + #""resource":{"_sourceCategory":"logfile","_sourceHost":"host"}}"#)
  }

  @Test func writesEveryFieldOfARecordInKeyOrder() throws {
    #expect(
      try convert(try sample(7))
        == #"{"attributes":{"sdkVersion":"1.0.1"},"body":"hello world","#
        + #""droppedAttributesCount":1,"eventName":"someEvent","flags":1,"#
        + #""observedTimeUnixNano":"1684623646539558000","resource":{"host.name":"testHost"},"#
        + #""scope":{"name":"name","version":"version"},"severityNumber":17,"#
        + #""severityText":"Error","spanId":"1112131415161718","#
        + #""timeUnixNano":"1684617382541971000","traceId":"0102030405060708090a0b0c0d0e0f10"}"#)
  }

  @Test func leavesOutTimesOfZeroAndEmptyIds() throws {
    let line = try sample(8)
    #expect(
      try convert(line, record: 1)
        == #"{"body":"Message Body","flags":1,"observedTimeUnixNano":"1643240673066096200","#
        + #""resource":{"service.name":"dotnet"},"severityText":"Information","#
        + #""spanId":"0c2ad924e1771630","traceId":"7b20d1349ef9b6d6f9d4d1d4a3ac2e82"}"#)
    #expect(
      try convert(line, record: 2)
        == #"{"body":"Message Body","flags":1,"resource":{"service.name":"dotnet"},"#
        + #""severityText":"Information","spanId":"0c2ad924e1771630","#
        + #""traceId":"7b20d1349ef9b6d6f9d4d1d4a3ac2e82"}"#)
    #expect(
      try convert(try sample(1), record: 1)
        == #"{"attributes":{"customer":"acme","env":"dev"},"body":"something happened","#
        + #""droppedAttributesCount":1,"resource":{"resource-attr":"resource-attr-val-1"},"#
        + #""severityNumber":9,"severityText":"Info","timeUnixNano":"1581452773000000789"}"#)
  }

  @Test func sortsTheKeysOfAStructuredBody() throws {
    #expect(
      try convert(try sample(6))
        == #"{"attributes":{"event.attribute":"some event attribute"},"#
        + #""body":{"referrer":"https://wwww.google.com","#
        + #""title":"Free Online GUID Generator","type":0,"#
        + #""url":"https://www.guidgenerator.com/online-guid-generator.aspx"},"#
        + #""eventName":"browser.page_view","observedTimeUnixNano":"1544712660300000000","#
        + #""resource":{"service.name":"my.service"},"#
        + #""scope":{"attributes":{"my.scope.attribute":"some scope attribute"},"#
        + #""name":"my.library","version":"1.0.0"},"severityNumber":9,"#
        + #""severityText":"test severity text","timeUnixNano":"1544712660300000000"}"#)
  }

  @Test func writesEveryKindOfValue() throws {
    #expect(
      try convert(Self.everyKind)
        == #"{"attributes":{"event.name":"device.app.lifecycle","future":"kept"},"#
        + #""body":{"":"empty","a":["x",null,[]],"b":false,"d":1500,"ds":-0.25,"e":null,"#
        + #""i":-9223372036854775808,"kA":{"Z":"upper","z":1,"é":true},"late":7,"n":42,"#
        + #""nan":null,"none":null,"s":"a\"bé\n","y":"AAE="},"eventName":"device.app.lifecycle","#
        + #""timeUnixNano":"1700000000000000000"}"#)
  }

  @Test func anEventNameFieldWinsOverTheAttribute() throws {
    let attribute = #"[{"key":"event.name","value":{"stringValue":"old"}}]"#
    #expect(
      try convert(record: #"{"eventName":"new","attributes":\#(attribute)}"#)
        == #"{"attributes":{"event.name":"old"},"eventName":"new"}"#)
    #expect(
      try convert(record: #"{"eventName":"","attributes":\#(attribute)}"#)
        == #"{"attributes":{"event.name":"old"},"eventName":"old"}"#)
    #expect(
      try convert(record: #"{"attributes":[{"key":"event.name","value":{"intValue":"1"}}]}"#)
        == #"{"attributes":{"event.name":1}}"#)
  }

  @Test func leavesOutWhatIsEmpty() throws {
    #expect(try convert(record: "{}") == "{}")
    #expect(
      try convert(record: #"{"body":{},"attributes":[],"traceId":"","timeUnixNano":0}"#) == "{}")
    #expect(try convert(record: #"{"body":null,"severityText":null,"flags":0}"#) == #"{"flags":0}"#)
    let line =
      #"{"resourceLogs":[{"resource":{},"scopeLogs":[{"scope":{"attributes":[]},"#
      + #""logRecords":[{"severityNumber":"9","timeUnixNano":"000123"}]}]}]}"#
    #expect(try convert(line) == #"{"severityNumber":9,"timeUnixNano":"123"}"#)
  }

  @Test func appendsToWhatIsThereAndLeavesItAloneOnError() throws {
    let line = #"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"flags":1},[]]}]}]}"#
    let places = try locateRecords(line)
    var output = Array("x\n".utf8)
    var failed = false
    Array(line.utf8).withUnsafeBufferPointer { buffer in
      do {
        try OTLPLogRecord.write(
          line: buffer, record: places[0].record, resource: nil, scope: nil, into: &output)
        try OTLPLogRecord.write(
          line: buffer, record: places[1].record, resource: nil, scope: nil, into: &output)
      } catch {
        failed = true
      }
    }
    #expect(failed)
    #expect(String(decoding: output, as: UTF8.self) == "x\n{\"flags\":1}")
  }

  // MARK: Errors

  @Test func aRecordMustBeAnObject() {
    let line = #"{"resourceLogs":[{"scopeLogs":[{"logRecords":[3]}]}]}"#
    #expect(failure(line) == "col 47: an event must be a JSON object, found a number")
    #expect(
      failure(#"{"resourceLogs":[{"resource":[],"scopeLogs":[{"logRecords":[{}]}]}]}"#)
        == "col 30: field 'resource' must be an object, found an array")
    #expect(
      failure(#"{"resourceLogs":[{"scopeLogs":[{"scope":{"name":1},"logRecords":[{}]}]}]}"#)
        == "col 49: field 'scope.name' must be a string, found a number")
  }

  @Test func anAnyValueHoldsExactlyOneKnownField() {
    #expect(
      failure(record: #"{"body":{"stringValue":"a","intValue":"1"}}"#)
        == "col 99: invalid value for field 'body': an AnyValue holds one value, found "
        + "'stringValue' and 'intValue'")
    #expect(
      failure(record: #"{"body":{"stringvalue":"a"}}"#)
        == "col 81: invalid value for field 'body': an AnyValue holds one of stringValue, "
        + "boolValue, intValue, doubleValue, bytesValue, arrayValue or kvlistValue, found only "
        + "'stringvalue'")
    #expect(
      failure(record: #"{"body":"text"}"#)
        == "col 80: field 'body' must be an AnyValue object, found a string")
  }

  @Test func anIntValueIsA64BitInteger() {
    let attributes = #"{"key":"a","value":{"stringValue":"x"}},{"key":"b","value":{}},"#
    #expect(
      failure(record: #"{"attributes":[\#(attributes){"key":"c","value":{"intValue":"1.5"}}]}"#)
        == "col 181: invalid value for field 'attributes[2].value.intValue': '1.5' is not a "
        + "64-bit integer")
    #expect(
      failure(record: #"{"body":{"intValue":1.5}}"#)
        == "col 92: invalid value for field 'body.intValue': '1.5' is not a 64-bit integer")
    #expect(
      failure(record: #"{"body":{"intValue":"9223372036854775808"}}"#)
        == "col 92: invalid value for field 'body.intValue': '9223372036854775808' is not a "
        + "64-bit integer")
    #expect(
      failure(record: #"{"body":{"intValue":" 1"}}"#)
        == "col 92: invalid value for field 'body.intValue': ' 1' is not a 64-bit integer")
    #expect(
      failure(record: #"{"body":{"intValue":true}}"#)
        == "col 92: field 'body.intValue' must be an integer or a decimal string, found a "
        + "boolean")
  }

  @Test func otherFieldsOfTheWrongKind() {
    #expect(
      failure(record: #"{"body":{"bytesValue":12}}"#)
        == "col 94: field 'body.bytesValue' must be a base64 string, found a number")
    #expect(
      failure(record: #"{"body":{"doubleValue":"fast"}}"#)
        == "col 95: invalid value for field 'body.doubleValue': 'fast' is not a number")
    #expect(
      failure(record: #"{"body":{"arrayValue":{"values":{}}}}"#)
        == "col 104: field 'body.arrayValue.values' must be an array, found an object")
    #expect(
      failure(record: #"{"timeUnixNano":"-1"}"#)
        == "col 88: invalid value for field 'timeUnixNano': '-1' is not an unsigned 64-bit "
        + "integer")
    #expect(
      failure(record: #"{"severityNumber":"SEVERITY_NUMBER_INFO"}"#)
        == "col 90: invalid value for field 'severityNumber': 'SEVERITY_NUMBER_INFO' is not a "
        + "32-bit integer: OTLP/JSON writes enums as numbers")
    #expect(
      failure(record: #"{"traceId":5}"#)
        == "col 83: field 'traceId' must be a string, found a number")
  }

  @Test func aKeyValueEntryNeedsAStringKey() {
    let body = #"{"body":{"kvlistValue":{"values":[{"value":{"stringValue":"v"}}]}}}"#
    #expect(
      failure(record: body)
        == "col 106: missing required field 'body.kvlistValue.values[0].key'")
    #expect(
      failure(record: #"{"attributes":[{"key":1,"value":{}}]}"#)
        == "col 94: field 'attributes[0].key' must be a string, found a number")
    #expect(
      failure(record: #"{"attributes":[[]]}"#)
        == "col 87: field 'attributes[0]' must be a key/value object, found an array")
  }

  @Test func aRepeatedKeyIsAnError() {
    let app = #"{"key":"app","value":{"stringValue":"a"}}"#
    #expect(
      failure(record: #"{"attributes":[\#(app),\#(app)]}"#)
        == "col 136: invalid value for field 'attributes[1].key': 'app' is also the key of "
        + "attributes[0]: keys must be unique")
    let line =
      #"{"resourceLogs":[{"resource":{"attributes":[{"key":"k","value":{}},{"key":"x"},"#
      + #"{"key":"\u006b"}]},"scopeLogs":[{"logRecords":[{}]}]}]}"#
    #expect(
      failure(line)
        == "col 87: invalid value for field 'resource.attributes[2].key': 'k' is also the key "
        + "of resource.attributes[0]: keys must be unique")
  }

  @Test func sortsLongListsAndFindsTheirRepeatedKeys() throws {
    // Past 32 keys the tracker of repeated keys hashes them.
    let keys = (0..<40).reversed().map { "k\($0)" }
    let entries = keys.map { #"{"key":"\#($0)","value":{"intValue":"1"}}"# }
    let record = #"{"attributes":["# + entries.joined(separator: ",") + "]}"
    let sorted = keys.sorted { JSONObject.keyPrecedes($0, $1) }
    #expect(
      try convert(record: record)
        == #"{"attributes":{"# + sorted.map { #""\#($0)":1"# }.joined(separator: ",") + "}}")
    let repeated = #"{"attributes":["# + entries.joined(separator: ",") + #",{"key":"k3"}]}"#
    let column = line(record: repeated).utf8.count - #""k3"}]}]}]}]}"#.utf8.count + 1
    #expect(
      failure(record: repeated)
        == "col \(column): invalid value for field 'attributes[40].key': 'k3' is also the key "
        + "of attributes[36]: keys must be unique")
  }

  @Test func snakeCaseNamesGetTheirCamelCaseSpelling() throws {
    #expect(
      failure(record: #"{"time_unix_nano":"1"}"#)
        == "col 73: invalid value for field 'time_unix_nano': OTLP/JSON names fields in "
        + "lowerCamelCase: write 'timeUnixNano'")
    #expect(
      failure(record: #"{"body":{"string_value":"a"}}"#)
        == "col 81: invalid value for field 'body.string_value': OTLP/JSON names fields in "
        + "lowerCamelCase: write 'stringValue'")
    // Names OTLP does not define are ignored, underscores or not.
    #expect(try convert(record: #"{"my_field":1,"schemaUrl":"x"}"#) == "{}")
  }

  // MARK: Nesting

  @Test func nestingIsBoundedByTheScannerAndFitsAThreadStack() {
    // Each array level takes three containers (the AnyValue, its arrayValue and the values),
    // each key/value level four (and the entry); the record, here the whole line, is the
    // first. 170 and 127 levels reach 512, the scanner's limit; one more is an error.
    let array = (open: #"{"arrayValue":{"values":["#, close: "]}}")
    let list = (open: #"{"kvlistValue":{"values":[{"key":"k","value":"#, close: "}]}}")
    func nested(_ level: (open: String, close: String), _ count: Int) -> String {
      #"{"body":"# + String(repeating: level.open, count: count) + "{}"
        + String(repeating: level.close, count: count) + "}"
    }
    let lines = [
      nested(array, 170), nested(array, 171), nested(list, 127), nested(list, 128),
    ]
    final class Results: @unchecked Sendable { var lines: [String] = [] }
    let results = Results()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      results.lines = lines.map { (line: String) -> String in
        var output: [UInt8] = []
        do {
          try Array(line.utf8).withUnsafeBufferPointer { buffer in
            try OTLPLogRecord.write(
              line: buffer, record: 0..<buffer.count, resource: nil, scope: nil, into: &output)
          }
          return "\(output.count) bytes"
        } catch let error as RaspEventError {
          return "col \((error.offset ?? -1) + 1): \(error)"
        } catch {
          return "unexpected error: \(error)"
        }
      }
      done.signal()
    }
    // Release builds take about 1.2 KiB of stack per array level and 2 KiB per key/value
    // level; debug builds about four times as much.
    thread.stackSize = 2 << 20
    thread.start()
    done.wait()
    let tooDeep = "arrays and objects nested more than 512 levels deep"
    let body = #"{"body":"#.utf8.count
    // The 513th container: the arrayValue of level 171, the entry of level 128.
    let deepestArray: Int = body + 170 * array.open.utf8.count + #"{"arrayValue":"#.utf8.count
    let deepestEntry: Int =
      body + 127 * list.open.utf8.count + #"{"kvlistValue":{"values":["#.utf8.count
    let listBytes: Int = body + 127 * #"{"k":"#.utf8.count + "null".utf8.count + 127 + 1
    #expect(
      results.lines == [
        "\(body + 170 + 4 + 170 + 1) bytes", "col \(deepestArray + 1): \(tooDeep)",
        "\(listBytes) bytes", "col \(deepestEntry + 1): \(tooDeep)",
      ])
  }

  // MARK: Helpers

  /// The path of a file in `fixtures/format-otel-samples`.
  static func fixture(_ name: String) -> String {
    repositoryRoot.appendingPathComponent("fixtures/format-otel-samples/\(name)").path
  }

  /// Line `number` (from 1) of the samples.
  private func sample(_ number: Int) throws -> String {
    let text = try String(contentsOfFile: Self.fixture("samples.jsonl"), encoding: .utf8)
    return String(text.split(separator: "\n")[number - 1])
  }

  /// Where a record and its resource and scope are in a line.
  struct Place {
    var record: Range<Int>
    var resource: Range<Int>?
    var scope: Range<Int>?
  }

  /// Every log record of a line, in order, found with rasp's scanner.
  private func locateRecords(_ line: String) throws -> [Place] {
    try Array(line.utf8).withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(buffer)
      func range() throws -> Range<Int> {
        let start = try scanner.skipValue()
        return start..<scanner.position
      }
      var places: [Place] = []
      var request = try scanner.beginObject()
      while let key = try scanner.nextMember(&request) {
        guard scanner.matches(key, "resourceLogs") else {
          try scanner.skipValue()
          continue
        }
        var resourceLogs = try scanner.beginArray()
        while try scanner.nextElement(&resourceLogs) {
          var resource: Range<Int>?
          var scopes: [(scope: Range<Int>?, records: [Range<Int>])] = []
          var members = try scanner.beginObject()
          while let key = try scanner.nextMember(&members) {
            if scanner.matches(key, "resource") {
              resource = try range()
            } else if scanner.matches(key, "scopeLogs") {
              var scopeLogs = try scanner.beginArray()
              while try scanner.nextElement(&scopeLogs) {
                var scope: Range<Int>?
                var records: [Range<Int>] = []
                var scopeMembers = try scanner.beginObject()
                while let key = try scanner.nextMember(&scopeMembers) {
                  if scanner.matches(key, "scope") {
                    scope = try range()
                  } else if scanner.matches(key, "logRecords") {
                    var logRecords = try scanner.beginArray()
                    while try scanner.nextElement(&logRecords) { records.append(try range()) }
                  } else {
                    try scanner.skipValue()
                  }
                }
                scopes.append((scope, records))
              }
            } else {
              try scanner.skipValue()
            }
          }
          for (scope, records) in scopes {
            places += records.map { Place(record: $0, resource: resource, scope: scope) }
          }
        }
      }
      return places
    }
  }

  /// The event of record `record` of a line.
  private func convert(_ line: String, record: Int = 0) throws -> String {
    try convert(line, try locateRecords(line)[record])
  }

  private func convert(_ line: String, _ place: Place) throws -> String {
    var output: [UInt8] = []
    try Array(line.utf8).withUnsafeBufferPointer { buffer in
      try OTLPLogRecord.write(
        line: buffer, record: place.record, resource: place.resource, scope: place.scope,
        into: &output)
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// A line with one resource, one empty scope and `record`.
  private func line(record: String) -> String {
    #"{"resourceLogs":[{"resource":{},"scopeLogs":[{"scope":{},"logRecords":["# + record
      + "]}]}]}"
  }

  private func convert(record: String) throws -> String {
    try convert(line(record: record))
  }

  /// The error for record `record` of a line, as `col <n>: <message>` (columns from 1).
  private func failure(_ line: String, record: Int = 0) -> String {
    do {
      let place = try locateRecords(line)[record]
      return "no error: " + (try convert(line, place))
    } catch let error as RaspEventError {
      return "col \((error.offset ?? -1) + 1): \(error)"
    } catch {
      return "unexpected error: \(error)"
    }
  }

  private func failure(record: String) -> String {
    failure(line(record: record))
  }

  // MARK: The independent conversion, with Foundation

  private func parse(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
  }

  /// The value as canonical JSON text, keys sorted, for comparing parsed values.
  private func canonical(_ value: Any) throws -> String {
    let data = try JSONSerialization.data(
      withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    return String(decoding: data, as: UTF8.self)
  }

  /// The events of a line's records, by the rules `OTLPLogRecord` documents.
  private func independentEvents(_ line: String) throws -> [[String: Any]] {
    let request = try parse(line) as? [String: Any] ?? [:]
    var events: [[String: Any]] = []
    for resourceLogs in request["resourceLogs"] as? [[String: Any]] ?? [] {
      let resource = resourceLogs["resource"] as? [String: Any]
      for scopeLogs in resourceLogs["scopeLogs"] as? [[String: Any]] ?? [] {
        let scope = scopeLogs["scope"] as? [String: Any]
        for record in scopeLogs["logRecords"] as? [[String: Any]] ?? [] {
          events.append(event(record, resource: resource, scope: scope))
        }
      }
    }
    return events
  }

  private func event(_ record: [String: Any], resource: [String: Any]?, scope: [String: Any]?)
    -> [String: Any]
  {
    var event: [String: Any] = [:]
    for name in ["timeUnixNano", "observedTimeUnixNano"] {
      guard let time = record[name].map({ "\($0)" }), let value = UInt64(time), value != 0
      else { continue }
      event[name] = String(value)
    }
    for name in ["severityNumber", "flags", "droppedAttributesCount"] {
      if let value = record[name].flatMap({ Int64("\($0)") }) { event[name] = value }
    }
    for name in ["severityText", "traceId", "spanId", "eventName"] {
      guard let text = record[name] as? String else { continue }
      if text.isEmpty, name != "severityText" { continue }
      event[name] = text
    }
    if let body = record["body"], !(plain(body) is NSNull) { event["body"] = plain(body) }
    let attributes = object(record["attributes"])
    if !attributes.isEmpty { event["attributes"] = attributes }
    let attributeList = record["attributes"] as? [[String: Any]] ?? []
    if event["eventName"] == nil,
      let entry = attributeList.first(where: { $0["key"] as? String == "event.name" }),
      let name = (entry["value"] as? [String: Any])?["stringValue"] as? String, !name.isEmpty
    {
      event["eventName"] = name
    }
    let resourceAttributes = object(resource?["attributes"])
    if !resourceAttributes.isEmpty { event["resource"] = resourceAttributes }
    var plainScope: [String: Any] = [:]
    if let name = scope?["name"] as? String { plainScope["name"] = name }
    if let version = scope?["version"] as? String { plainScope["version"] = version }
    let scopeAttributes = object(scope?["attributes"])
    if !scopeAttributes.isEmpty { plainScope["attributes"] = scopeAttributes }
    if !plainScope.isEmpty { event["scope"] = plainScope }
    return event
  }

  /// A list of `{"key", "value"}` as an object.
  private func object(_ list: Any?) -> [String: Any] {
    var object: [String: Any] = [:]
    for entry in list as? [[String: Any]] ?? [] {
      guard let key = entry["key"] as? String else { continue }
      object[key] = plain(entry["value"] ?? NSNull())
    }
    return object
  }

  /// An AnyValue as the JSON value it holds.
  private func plain(_ anyValue: Any) -> Any {
    guard let value = anyValue as? [String: Any] else { return NSNull() }
    if let text = value["stringValue"] as? String { return text }
    if let flag = value["boolValue"] as? Bool { return flag }
    if let integer = value["intValue"] { return Int64("\(integer)") ?? "bad" }
    if let bytes = value["bytesValue"] as? String { return bytes }
    if let double = value["doubleValue"] {
      guard let text = double as? String else { return double }
      if let number = Double(text), number.isFinite { return number }
      return NSNull()
    }
    if let array = value["arrayValue"] as? [String: Any] {
      return (array["values"] as? [Any] ?? []).map(plain)
    }
    if let list = value["kvlistValue"] as? [String: Any] { return object(list["values"]) }
    return NSNull()
  }
}
