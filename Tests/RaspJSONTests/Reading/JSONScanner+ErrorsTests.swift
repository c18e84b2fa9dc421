import RaspJSON
import Testing

@Suite struct JSONScannerErrorsTests {
  @Test(arguments: [
    ("nope", 0, "invalid literal 'nope': strings must be in double quotes"),
    ("[1, nope]", 4, "invalid literal 'nope': strings must be in double quotes"),
    ("True", 0, "invalid literal 'True': strings must be in double quotes"),
    ("nul", 0, "invalid literal 'nul': strings must be in double quotes"),
    ("truex", 0, "invalid literal 'truex': strings must be in double quotes"),
    ("[nulll]", 1, "invalid literal 'nulll': strings must be in double quotes"),
    ("trueé", 0, "invalid literal 'trueé': strings must be in double quotes"),
    ("-x", 0, "invalid literal '-x': strings must be in double quotes"),
    ("NaN", 0, "'NaN' is not valid JSON: numbers must be finite"),
    ("nan", 0, "'nan' is not valid JSON: numbers must be finite"),
    ("-NaN", 0, "'-NaN' is not valid JSON: numbers must be finite"),
    ("Infinity", 0, "'Infinity' is not valid JSON: numbers must be finite"),
    ("[1,-Infinity]", 3, "'-Infinity' is not valid JSON: numbers must be finite"),
    (#"{"a":inf}"#, 5, "'inf' is not valid JSON: numbers must be finite"),
    ("'a'", 0, "strings must be in double quotes, not single quotes"),
    (#"{"a":'b'}"#, 5, "strings must be in double quotes, not single quotes"),
    ("{'a':1}", 1, "strings must be in double quotes, not single quotes"),
    ("\u{0}", 0, "unexpected NUL byte"),
    ("[\u{0}]", 1, "unexpected NUL byte"),
    (#"{"a":"# + "\u{0}}", 5, "unexpected NUL byte"),
    (
      "\u{FEFF}1", 0,
      "unexpected byte order mark (U+FEFF): it is allowed only at the start of a file"
    ),
    (
      "[1,\u{FEFF}2]", 3,
      "unexpected byte order mark (U+FEFF): it is allowed only at the start of a file"
    ),
    ("", 0, "unexpected end of input, expected a value"),
    ("  \n", 3, "unexpected end of input, expected a value"),
    ("é", 0, "expected a value, found 'é'"),
    ("-é", 1, "expected a value, found 'é'"),
    ("\u{1}", 0, "expected a value, found control character U+0001"),
    ("\u{7F}", 0, "expected a value, found control character U+007F"),
    ("}", 0, "expected a value, found '}'"),
    ("[,1]", 1, "expected a value, found ','"),
    ("[1,,2]", 3, "expected a value, found ','"),
    (#"{"a":}"#, 5, "expected a value, found '}'"),
  ])
  func explainsWhyNoValueStarts(text: String, offset: Int, message: String) throws {
    let error = try #require(parseError(text), "\(text) must not parse")
    #expect(error.offset == offset, "\(text)")
    #expect(error.description == message, "\(text)")
    #expect(skipError(bytes: Array(text.utf8)) == error, "skipping reports the same error")
  }

  @Test func explainsInvalidUTF8WhereAValueShouldStart() throws {
    let error = try #require(parseError(bytes: [0x5B, 0xFF, 0x5D]))
    #expect(error.offset == 1)
    #expect(error.description == "expected a value, found invalid UTF-8 byte 0xFF")
  }

  @Test(arguments: [
    ([UInt8(ascii: "{")], 0, "'{'"),
    ([UInt8(ascii: "{")], 1, "end of input"),
    ([0], 0, "a NUL byte"),
    ([0x1F], 0, "control character U+001F"),
    ([0x7F], 0, "control character U+007F"),
    (Array("é".utf8), 0, "'é'"),
    (Array("😀".utf8), 0, "'😀'"),
    ([0xEF, 0xBB, 0xBF], 0, "a byte order mark (U+FEFF)"),
    ([0xFF], 0, "invalid UTF-8 byte 0xFF"),
    ([0xC3], 0, "invalid UTF-8 byte 0xC3"),
    ([0x80], 0, "invalid UTF-8 byte 0x80"),
  ])
  func describesTheByteAtAnOffset(bytes: [UInt8], offset: Int, description: String) throws {
    let text = try withScanner(bytes: bytes) { scanner throws(JSONError) in
      scanner.describe(at: offset)
    }
    #expect(text == description)
  }

  @Test(arguments: [
    ("{}", "an object"), ("[]", "an array"), (#""x""#, "a string"), ("-1", "a number"),
    ("7", "a number"), ("true", "a boolean"), ("false", "a boolean"), ("null", "null"),
    ("x", "'x'"), ("nul", "'n'"),
  ])
  func describesTheValueAtAnOffset(text: String, description: String) throws {
    let phrase = try withScanner(text) { scanner throws(JSONError) in scanner.describeValue(at: 0) }
    #expect(phrase == description)
  }

  @Test(arguments: [
    ("ninety", 0, "invalid literal 'ninety': strings must be in double quotes"),
    ("NaN", 0, "'NaN' is not valid JSON: numbers must be finite"),
    (#"[1,"a]"#, 3, "unterminated string: missing closing '\"'"),
    ("[[[", 3, "unexpected end of input in an unterminated array, expected a value or ']'"),
    ("1e999", 0, "number '1e999' is out of the range of a double"),
  ])
  func findsTheSyntaxErrorOfTextThatIsNoValue(text: String, offset: Int, message: String) throws {
    let error = try withScanner(text) { scanner throws(JSONError) in scanner.syntaxError(at: 0) }
    #expect(error?.offset == offset, "\(text)")
    #expect(error?.description == message, "\(text)")
  }

  @Test(arguments: ["{}", "[1,[2]]", #""x""#, "-1.5e3", "true", "null", #"{"a":1} trailing"#])
  func findsNoSyntaxErrorInAValue(text: String) throws {
    let error = try withScanner(text) { scanner throws(JSONError) in scanner.syntaxError(at: 0) }
    #expect(error == nil, "\(text)")
  }

  @Test(arguments: [
    (JSONKind.null, "null"), (.bool, "a boolean"), (.number, "a number"), (.string, "a string"),
    (.array, "an array"), (.object, "an object"),
  ])
  func namesKindsAsPhrases(kind: JSONKind, phrase: String) {
    #expect(kind.phrase == phrase)
  }
}
