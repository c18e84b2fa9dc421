import RaspJSON
import RaspTestSupport
import Testing

/// Expected texts were produced once with `jq --indent 2 .` (jq 1.6), read, and pasted here.
@Suite struct JSONPrettyPrinterTests {
  private func pretty(_ json: String, indent: Int = 2) throws -> String {
    var writer = JSONWriter()
    writer.write(try JSONParser.parse(json))
    var output: [UInt8] = []
    JSONPrettyPrinter.append(writer.bytes[...], to: &output, indent: indent)
    return String(decoding: output, as: UTF8.self)
  }

  @Test(arguments: [
    (
      #"{"a":[1,2],"b":{}}"#,
      #"""
      {
        "a": [
          1,
          2
        ],
        "b": {}
      }
      """#
    ),
    ("[]", "[]"),
    ("{}", "{}"),
    (#""x""#, #""x""#),
    ("-1.5", "-1.5"),
    (
      #"[[],{},[[]],{"a":{}}]"#,
      #"""
      [
        [],
        {},
        [
          []
        ],
        {
          "a": {}
        }
      ]
      """#
    ),
    (
      #"{"geo":{"heading":271.5,"location":null},"nav":{"stack":["home","list"]},"#
        + #""rest":{"links":{"next":"/b","self":"/a"}}}"#,
      #"""
      {
        "geo": {
          "heading": 271.5,
          "location": null
        },
        "nav": {
          "stack": [
            "home",
            "list"
          ]
        },
        "rest": {
          "links": {
            "next": "/b",
            "self": "/a"
          }
        }
      }
      """#
    ),
    (
      #"{"s":"a,b:{c}[d]\"e\\\\","t":"é😀\u007f","u":[true,false,null,-1,1e-05,1.5e+300]}"#,
      #"""
      {
        "s": "a,b:{c}[d]\"e\\\\",
        "t": "é😀\u007f",
        "u": [
          true,
          false,
          null,
          -1,
          1e-05,
          1.5e+300
        ]
      }
      """#
    ),
    (
      #"[{"a":[{"b":[1,[2,[3]]]}]}]"#,
      #"""
      [
        {
          "a": [
            {
              "b": [
                1,
                [
                  2,
                  [
                    3
                  ]
                ]
              ]
            }
          ]
        }
      ]
      """#
    ),
    (
      #"{"":{"":""}}"#,
      #"""
      {
        "": {
          "": ""
        }
      }
      """#
    ),
  ])
  func indentsLikeJq(compact: String, expected: String) throws {
    #expect(try pretty(compact) == expected)
  }

  @Test func honoursTheIndentWidth() throws {
    let expected = #"""
      {
          "": {
              "": ""
          }
      }
      """#
    #expect(try pretty(#"{"":{"":""}}"#, indent: 4) == expected)
    #expect(try pretty("[1,[2]]", indent: 0) == "[\n1,\n[\n2\n]\n]")
  }

  @Test func appendsToExistingOutputAndReadsSlices() {
    var output = Array("> ".utf8)
    let text = Array(#"xx[1]yy"#.utf8)
    JSONPrettyPrinter.append(text[2..<5], to: &output)
    #expect(String(decoding: output, as: UTF8.self) == "> [\n  1\n]")
  }

  @Test func prettyTextParsesToTheSameValue() throws {
    var generator = SplitMix64(seed: 21)
    for _ in 0..<1_000 {
      let value = RandomJSON.value(using: &generator)
      let text = try pretty(value.description)
      #expect(try JSONParser.parse(text) == value, "\(text)")
    }
  }
}
