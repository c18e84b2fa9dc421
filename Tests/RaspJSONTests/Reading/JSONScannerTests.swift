import RaspJSON
import Testing

@Suite struct JSONScannerTests {
  @Test func aScannerLentOverASpanStartsAtTheGivenPosition() throws {
    // The doc comment's example: reading a number in the middle of a line.
    let line = Array(#"{"heading": 271.5}"#.utf8)
    let heading = try JSONScanner.withScanner(over: line.span, position: 12) {
      scanner throws(JSONError) in try scanner.readDouble()
    }
    #expect(heading == 271.5)
    // A span of part of the line is all the scanner sees, with offsets from its start.
    let number = try JSONScanner.withScanner(over: line.span.extracting(12..<17)) {
      scanner throws(JSONError) -> (Int, Bool) in
      try scanner.skipValue()
      return (scanner.position, scanner.isAtEnd)
    }
    #expect(number == (5, true))
    // Without its closing brace, the object is unterminated.
    #expect(throws: JSONError.self) {
      try JSONScanner.withScanner(over: line.span.extracting(0..<17)) {
        scanner throws(JSONError) in try scanner.skipValue()
      }
    }
  }

  @Test func walksObjectsMemberByMember() throws {
    let fields = try withScanner(
      #" { "heading" : 271.5 , "name":"N", "moving": true, "fix": null } "#
    ) {
      scanner throws(JSONError) -> [String] in
      var fields: [String] = []
      var members = try scanner.beginObject()
      #expect(scanner.depth == 1)
      while let key = try scanner.nextMember(&members) {
        switch scanner.string(key) {
        case "heading": fields.append("heading=\(try scanner.readDouble())")
        case "name": fields.append("name=\(try scanner.readString())")
        case "moving": fields.append("moving=\(try scanner.readBool())")
        default: fields.append("\(scanner.string(key)) null=\(try scanner.readNull())")
        }
      }
      #expect(members.count == 4)
      #expect(scanner.depth == 0)
      try scanner.expectEnd()
      #expect(scanner.isAtEnd)
      return fields
    }
    #expect(fields == ["heading=271.5", "name=N", "moving=true", "fix null=true"])
  }

  @Test func walksArraysElementByElement() throws {
    let sum = try withScanner("[1, 2.5,\t3\r\n]") { scanner throws(JSONError) -> Double in
      var elements = try scanner.beginArray()
      #expect(elements.start == 0)
      var sum = 0.0
      while try scanner.nextElement(&elements) { sum += try scanner.readDouble() }
      #expect(elements.count == 3)
      return sum
    }
    #expect(sum == 6.5)
  }

  @Test func emptyContainersEndAtOnce() throws {
    try withScanner("[ ] { }") { scanner throws(JSONError) in
      var elements = try scanner.beginArray()
      #expect(try !scanner.nextElement(&elements))
      var members = try scanner.beginObject()
      #expect(try scanner.nextMember(&members) == nil)
      #expect(scanner.depth == 0)
    }
  }

  @Test func peeksWithoutConsuming() throws {
    try withScanner("  x") { scanner throws(JSONError) in
      #expect(scanner.peek() == UInt8(ascii: " "))
      scanner.skipWhitespace()
      #expect(scanner.position == 2)
      #expect(scanner.peek() == UInt8(ascii: "x"))
      scanner.position = 3
      #expect(scanner.peek() == nil)
      #expect(scanner.isAtEnd)
    }
  }

  @Test func whitespaceIsOnlySpaceTabCarriageReturnAndLineFeed() throws {
    try withScanner(" \t\r\n\u{C}") { scanner throws(JSONError) in
      scanner.skipWhitespace()
      #expect(scanner.position == 4, "form feed is not JSON whitespace")
    }
    #expect(parseError("\u{C}1")?.description == "expected a value, found control character U+000C")
    #expect(parseError("\u{A0}1")?.description == "expected a value, found '\u{A0}'")
  }

  @Test(arguments: [
    ("{}", JSONKind.object), ("[]", .array), (#""""#, .string), ("-1", .number), ("0", .number),
    ("true", .bool), ("false", .bool), ("null", .null), ("  \n null", .null),
  ])
  func peeksTheKindOfTheNextValue(text: String, kind: JSONKind) throws {
    #expect(try withScanner(text) { scanner throws(JSONError) in try scanner.peekKind() } == kind)
  }

  @Test func readNullConsumesOnlyNull() throws {
    try withScanner("nullx null") { scanner throws(JSONError) in
      #expect(try !scanner.readNull())
      #expect(scanner.position == 0)
      scanner.position = 5
      #expect(try scanner.readNull())
      #expect(scanner.isAtEnd)
    }
    #expect(
      scannerError("  ") { scanner throws(JSONError) in _ = try scanner.readNull() }
        == JSONError(offset: 2, reason: .unexpectedEnd(expected: "a value")))
  }

  @Test(arguments: [
    ("[1]", "beginObject", 0, "expected an object, found an array"),
    ("", "beginObject", 0, "unexpected end of input, expected an object"),
    (" 1", "beginArray", 1, "expected an array, found a number"),
    ("{}", "readBool", 0, "expected a boolean, found an object"),
    ("tru", "readBool", 0, "invalid literal 'tru': strings must be in double quotes"),
    ("null", "readString", 0, "expected a string, found null"),
    ("\"1\"", "readNumber", 0, "expected a number, found a string"),
    ("", "readNumber", 0, "unexpected end of input, expected a number"),
  ])
  func reportsValuesOfTheWrongKind(text: String, read: String, offset: Int, message: String) throws
  {
    let error = try #require(
      scannerError(text) { scanner throws(JSONError) in
        switch read {
        case "beginObject": _ = try scanner.beginObject()
        case "beginArray": _ = try scanner.beginArray()
        case "readBool": _ = try scanner.readBool()
        case "readString": _ = try scanner.readString()
        default: _ = try scanner.readNumber()
        }
      })
    #expect(error.offset == offset)
    #expect(error.description == message)
  }

  @Test(arguments: [
    (#"{"a":1,}"#, 6, "trailing comma before '}'"),
    (#"{"a":1, }"#, 6, "trailing comma before '}'"),
    ("[1,]", 2, "trailing comma before ']'"),
    ("[1 ,\n ]", 3, "trailing comma before ']'"),
    (#"{"a":1 "b":2}"#, 7, "expected ',' or '}' after an object member, found '\"'"),
    ("[1 2]", 3, "expected ',' or ']' after an array element, found '2'"),
    ("[1}", 2, "expected ',' or ']' after an array element, found '}'"),
    (#"{"a":1]"#, 6, "expected ',' or '}' after an object member, found ']'"),
    (#"{"a" 1}"#, 5, "expected ':' after the key, found '1'"),
    (#"{"a"}"#, 4, "expected ':' after the key, found '}'"),
    ("{1:2}", 1, "expected a key in double quotes, found '1'"),
    ("{,}", 1, "expected a key in double quotes, found ','"),
    (#"{"a":1,,}"#, 7, "expected a key in double quotes, found ','"),
    ("[", 1, "unexpected end of input in an unterminated array, expected a value or ']'"),
    ("[1,2", 4, "unexpected end of input in an unterminated array, expected ',' or ']'"),
    ("[1,", 3, "unexpected end of input, expected a value"),
    ("{", 1, "unexpected end of input in an unterminated object, expected a key or '}'"),
    (#"{"a":1"#, 6, "unexpected end of input in an unterminated object, expected ',' or '}'"),
    (#"{"a":1,"#, 7, "unexpected end of input, expected a key"),
    (#"{"a""#, 4, "unexpected end of input, expected ':' after the key"),
    (#"{"a":"#, 5, "unexpected end of input, expected a value"),
    (
      #"[{"a":[1,{}]}"#, 13, "unexpected end of input in an unterminated array, expected ',' or ']'"
    ),
  ])
  func reportsStructuralMistakesAtTheirOffset(text: String, offset: Int, message: String) throws {
    let error = try #require(parseError(text), "\(text) must not parse")
    #expect(error.offset == offset, "\(text)")
    #expect(error.description == message, "\(text)")
    #expect(skipError(bytes: Array(text.utf8)) == error, "skipping reports the same error")
  }

  @Test(arguments: [
    ("[1] 2", 4, "unexpected '2' after the JSON value"),
    ("{}}", 2, "unexpected '}' after the JSON value"),
    ("1x", 1, "unexpected 'x' after the JSON value"),
    ("1 é", 2, "unexpected 'é' after the JSON value"),
    ("null\n\u{1}", 5, "unexpected control character U+0001 after the JSON value"),
    ("1\u{0}", 1, "unexpected NUL byte"),
    (
      "[]\u{FEFF}", 2,
      "unexpected byte order mark (U+FEFF): it is allowed only at the start of a file"
    ),
  ])
  func rejectsContentAfterTheValue(text: String, offset: Int, message: String) throws {
    let error = try #require(parseError(text))
    #expect(error.offset == offset)
    #expect(error.description == message)
  }

  @Test func rejectsInvalidUTF8AfterTheValue() throws {
    let error = try #require(parseError(bytes: [0x31, 0x20, 0xFF]))
    #expect(error == JSONError(offset: 2, reason: .invalidUTF8(0xFF)))
  }

  @Test func acceptsNestingUpToTheLimit() throws {
    for limit in [1, 2, 10, JSONLimits.maximumDepth] {
      let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
      let value = try parse(deepest, maximumDepth: limit)
      #expect(value.description == deepest)
      let error = parseError("[" + deepest + "]", maximumDepth: limit)
      #expect(error == JSONError(offset: limit, reason: .tooDeep(limit: limit)))
    }
  }

  @Test func objectsCountTowardsTheDepthLimit() throws {
    let text = String(repeating: #"{"a":"#, count: 513) + "1" + String(repeating: "}", count: 513)
    let error = try #require(parseError(text))
    #expect(error == JSONError(offset: 512 * 5, reason: .tooDeep(limit: 512)))
    #expect(error.description == "arrays and objects nested more than 512 levels deep")
  }

  @Test func literalsMustEndAtAWordBoundary() throws {
    #expect(try JSONParser.parse("[true,false,null]") == [true, false, nil])
    #expect(try JSONParser.parse("true") == true)
    #expect(parseError("nullnull") == JSONError(offset: 0, reason: .bareWord("nullnull")))
    #expect(parseError("true_") == JSONError(offset: 0, reason: .bareWord("true_")))
    #expect(parseError("[true]x") == JSONError(offset: 6, reason: .trailingContent(found: "'x'")))
  }
}
