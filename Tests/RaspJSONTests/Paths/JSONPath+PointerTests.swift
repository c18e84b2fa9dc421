import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONPathPointerTests {
  @Test(arguments: [
    ("", [String]()),
    ("/", [""]),
    ("//", ["", ""]),
    ("/a/b", ["a", "b"]),
    ("/a~1b/~0", ["a/b", "~"]),
    ("/~01", ["~1"]),
    ("/~10", ["/0"]),
    ("/ é😀/0", [" é😀", "0"]),
  ])
  func readsReferenceTokensAsKeys(pointer: String, keys: [String]) throws {
    let path = try JSONPath(pointer: pointer)
    #expect(path.components == keys.map { .key($0) })
    #expect(path.pointer == pointer, "writing the pointer back gives the same text")
  }

  @Test func pointsAtWhatThePointerPointsAt() throws {
    let document: JSONValue = ["nav": ["stack": ["home", "list"]], "": ["": 1], "a/b": ["~": 2]]
    #expect(try JSONPath(pointer: "/nav/stack/1").evaluate(document) == "list")
    #expect(try JSONPath(pointer: "/nav/stack/01").evaluate(document) == absent)
    #expect(try JSONPath(pointer: "/nav/stack/-").evaluate(document) == absent)
    #expect(try JSONPath(pointer: "//").evaluate(document) == 1)
    #expect(try JSONPath(pointer: "/a~1b/~0").evaluate(document) == 2)
    #expect(try JSONPath(pointer: "").evaluate(document) == document)
  }

  @Test(arguments: [
    ("a", 1, "a JSON pointer must start with '/'"),
    ("a/b", 1, "a JSON pointer must start with '/'"),
    ("/~2", 2, "'~' must be followed by '0' or '1'"),
    ("/a~", 3, "'~' must be followed by '0' or '1'"),
    ("/é/~x", 4, "'~' must be followed by '0' or '1'"),
  ])
  func rejectsMalformedPointers(pointer: String, column: Int, reason: String) {
    #expect(throws: JSONPathError(text: pointer, column: column, reason: reason)) {
      try JSONPath(pointer: pointer)
    }
  }

  @Test func everyConcretePathSurvivesARoundTripThroughItsPointer() throws {
    var generator = SplitMix64(seed: 55)
    for _ in 0..<300 {
      let value = RandomJSON.value(using: &generator)
      for components in RandomJSON.paths(in: value) {
        let path = JSONPath(components: components)
        let reread = try JSONPath(pointer: path.pointer)
        #expect(reread.evaluate(value) == path.evaluate(value), "\(path.pointer)")
      }
    }
  }
}
