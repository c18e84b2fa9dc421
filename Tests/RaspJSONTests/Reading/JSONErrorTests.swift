import RaspJSON
import Testing

@Suite struct JSONErrorTests {
  @Test(arguments: [
    (
      JSONError.Reason.unexpectedEnd(expected: "a value"),
      "unexpected end of input, expected a value"
    ),
    (
      .unterminatedContainer("array", expected: "',' or ']'"),
      "unexpected end of input in an unterminated array, expected ',' or ']'"
    ),
    (.expected("':' after the key", found: "'1'"), "expected ':' after the key, found '1'"),
    (.trailingComma(before: "}"), "trailing comma before '}'"),
    (.bareWord("nope"), "invalid literal 'nope': strings must be in double quotes"),
    (.notANumber("-Infinity"), "'-Infinity' is not valid JSON: numbers must be finite"),
    (.singleQuotedString, "strings must be in double quotes, not single quotes"),
    (.unterminatedString, "unterminated string: missing closing '\"'"),
    (.invalidEscape("x"), "invalid escape '\\x' in string"),
    (.invalidUnicodeEscape, "invalid \\u escape: expected four hexadecimal digits"),
    (
      .loneSurrogate("DC00"),
      "lone surrogate '\\uDC00' in string: a \\u escape of U+D800–U+DFFF must be a pair"
    ),
    (.invalidUTF8(0xC0), "invalid UTF-8 byte 0xC0"),
    (.controlCharacterInString(0x0A), "control character U+000A must be escaped in a string"),
    (.nulByte, "unexpected NUL byte"),
    (
      .byteOrderMark,
      "unexpected byte order mark (U+FEFF): it is allowed only at the start of a file"
    ),
    (.tooDeep(limit: 512), "arrays and objects nested more than 512 levels deep"),
    (.numberOutOfRange("1e999"), "number '1e999' is out of the range of a double"),
    (
      .invalidNumber("leading zeros are not allowed"),
      "invalid number: leading zeros are not allowed"
    ),
    (.trailingContent(found: "'x'"), "unexpected 'x' after the JSON value"),
    (.duplicateKey("type"), "duplicate key 'type'"),
    (.lineTooLong(limit: 16), "line is longer than the limit of 16 bytes"),
  ])
  func describesEveryReason(reason: JSONError.Reason, message: String) {
    #expect(reason.description == message)
    let error = JSONError(offset: 12, reason: reason)
    #expect(error.description == message)
    #expect(error.offset == 12)
    #expect(error.reason == reason)
  }

  @Test func shortensLongValuesInMessages() {
    let digits = String(repeating: "9", count: 400)
    #expect(
      JSONError.Reason.numberOutOfRange(digits).description
        == "number '\(String(repeating: "9", count: 40))… (400 characters)' "
        + "is out of the range of a double")
    let key = String(repeating: "é", count: 41)
    #expect(
      JSONError.Reason.duplicateKey(key).description
        == "duplicate key '\(String(repeating: "é", count: 40))… (41 characters)'")
    #expect(
      JSONError.abbreviated(String(repeating: "é", count: 40)) == String(repeating: "é", count: 40))
    #expect(JSONError.abbreviated("") == "")
  }

  @Test func comparesOffsetAndReason() {
    let error = JSONError(offset: 3, reason: .nulByte)
    #expect(error == JSONError(offset: 3, reason: .nulByte))
    #expect(error != JSONError(offset: 4, reason: .nulByte))
    #expect(error != JSONError(offset: 3, reason: .byteOrderMark))
  }
}
