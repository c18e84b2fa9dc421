import Testing
import RaspJSON

@Suite struct JSONParserTests {
  @Test func roundTripsCanonically() throws {
    let value = try JSONParser.parse(#" {"b": [1, 2.5, -0.0, 1e-5, 9007199254740993, "x\"\n\u00e9\ud83d\ude00"], "a": null, "c": {"z": true, "y": false}} "#)
    #expect(value.description == #"{"a":null,"b":[1,2.5,0,1e-05,9007199254740993,"x\"\né😀"],"c":{"y":false,"z":true}}"#)
  }

  @Test(arguments: [
    (#"{"a":1,}"#, 6, "trailing comma before '}'"),
    (#"{"a":1 "b":2}"#, 7, "expected ',' or '}' after an object member, found '\"'"),
    ("[1,2", 4, "unexpected end of input in an unterminated array, expected ',' or ']'"),
    ("nope", 0, "invalid literal 'nope': strings must be in double quotes"),
    ("NaN", 0, "'NaN' is not valid JSON: numbers must be finite"),
    ("-Infinity", 0, "'-Infinity' is not valid JSON: numbers must be finite"),
    ("{'a':1}", 1, "strings must be in double quotes, not single quotes"),
    (#"{"a":"x}"#, 5, "unterminated string: missing closing '\"'"),
    (#"{"a":1,"a":2}"#, 7, "duplicate key 'a'"),
    (#""\ud800""#, 1, "lone surrogate '\\uD800' in string: a \\u escape of U+D800–U+DFFF must be a pair"),
    ("01", 0, "invalid number: leading zeros are not allowed"),
    ("1e999", 0, "number '1e999' is out of the range of a double"),
    ("[1] 2", 4, "unexpected '2' after the JSON value"),
  ])
  func reportsReasonAndOffset(text: String, offset: Int, reason: String) {
    do {
      _ = try JSONParser.parse(text)
      Issue.record("expected an error for \(text)")
    } catch {
      #expect(error.offset == offset)
      #expect(error.description == reason)
    }
  }

  @Test func linesReaderHandlesCRLFBOMAndMissingFinalNewline() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{\"a\":1}\r\n\n  \n[2]".utf8)
    for chunk in [1, 2, 3, 7, 1000] {
      let reader = JSONLinesReader(source: JSONMemorySource(bytes, chunkSize: chunk), chunkSize: 16)
      var lines: [String] = []
      while let line = try reader.next() { lines.append("\(line.number):\(String(decoding: line.bytes, as: UTF8.self))") }
      #expect(lines == ["1:{\"a\":1}", "2:", "3:  ", "4:[2]"], "chunk \(chunk)")
    }
  }

  @Test func linesReaderReportsAndSkipsLongLines() throws {
    let bytes = Array(("a\n" + String(repeating: "x", count: 100) + "\nb").utf8)
    let reader = JSONLinesReader(source: JSONMemorySource(bytes, chunkSize: 5), chunkSize: 16, maximumLineLength: 20)
    var lines: [String] = []
    while let line = try reader.next() { lines.append(line.isTooLong ? "\(line.number):long" : "\(line.number):" + String(decoding: line.bytes, as: UTF8.self)) }
    #expect(lines == ["1:a", "2:long", "3:b"])
  }

  @Test func pathsParseEvaluateAndPrint() throws {
    let state: JSONValue = ["nav": ["stack": ["home", "list"]], "rest": ["links": ["self": "/a", "next": "/b"]]]
    #expect(try JSONPath("nav.stack[-1]").evaluate(state) == "list")
    #expect(try JSONPath(".rest.links | length").evaluate(state) == 2)
    #expect(try JSONPath("nav.stack.0").evaluate(state) == "home")
    #expect(try JSONPath(#"rest["links"].next"#).description == "rest.links.next")
    #expect(throws: JSONPathError.self) { try JSONPath("geo..heading") }
    #expect(throws: JSONPathError.self) { try JSONPath("geo.*") }
    let bytes = Array(state.description.utf8)
    let location = try bytes.withUnsafeBufferPointer { try JSONPath("nav.stack[1]").locate(in: $0) }
    guard case .value(let range) = location else { Issue.record("missing"); return }
    #expect(String(decoding: bytes[range], as: UTF8.self) == "\"list\"")
  }
}
