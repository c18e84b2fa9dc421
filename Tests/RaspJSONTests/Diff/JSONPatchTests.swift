import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONPatchTests {
  /// The result of applying `patch` to `document`, as compact JSON, or the error's message.
  private func apply(_ patch: String, to document: String) throws -> String {
    do {
      return try JSONPatch.apply(JSONParser.parse(patch), to: JSONParser.parse(document))
        .description
    } catch let error as JSONPatchError {
      return "error: \(error)"
    }
  }

  /// The examples of RFC 6902, appendix A (A.13 is a document rasp's parser already rejects).
  @Test(arguments: [
    (
      #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux"}]"#,
      #"{"baz":"qux","foo":"bar"}"#
    ),
    (
      #"{"foo":["bar","baz"]}"#, #"[{"op":"add","path":"/foo/1","value":"qux"}]"#,
      #"{"foo":["bar","qux","baz"]}"#
    ),
    (#"{"baz":"qux","foo":"bar"}"#, #"[{"op":"remove","path":"/baz"}]"#, #"{"foo":"bar"}"#),
    (
      #"{"foo":["bar","qux","baz"]}"#, #"[{"op":"remove","path":"/foo/1"}]"#,
      #"{"foo":["bar","baz"]}"#
    ),
    (
      #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"replace","path":"/baz","value":"boo"}]"#,
      #"{"baz":"boo","foo":"bar"}"#
    ),
    (
      #"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
      #"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
      #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#
    ),
    (
      #"{"foo":["all","grass","cows","eat"]}"#, #"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#,
      #"{"foo":["all","cows","eat","grass"]}"#
    ),
    (
      #"{"baz":"qux","foo":["a",2,"c"]}"#,
      #"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
      #"{"baz":"qux","foo":["a",2,"c"]}"#
    ),
    (
      #"{"baz":"qux"}"#, #"[{"op":"test","path":"/baz","value":"bar"}]"#,
      #"error: operation 0: test failed at '/baz': expected "bar", found "qux""#
    ),
    (
      #"{"foo":"bar"}"#, #"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#,
      #"{"child":{"grandchild":{}},"foo":"bar"}"#
    ),
    (
      #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux","xyz":123}]"#,
      #"{"baz":"qux","foo":"bar"}"#
    ),
    (
      #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz/bat","value":"qux"}]"#,
      "error: operation 0: no value at '/baz/bat' to add"
    ),
    (#"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":10}]"#, #"{"/":9,"~1":10}"#),
    (
      #"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":"10"}]"#,
      #"error: operation 0: test failed at '/~01': expected "10", found 10"#
    ),
    (
      #"{"foo":["bar"]}"#, #"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#,
      #"{"foo":["bar",["abc","def"]]}"#
    ),
  ])
  func appliesTheExamplesOfRFC6902(document: String, patch: String, result: String) throws {
    #expect(try apply(patch, to: document) == result)
  }

  @Test(arguments: [
    (#"[{"op":"replace","path":"","value":[1]}]"#, "{}", "[1]"),
    (#"[{"op":"add","path":"","value":3}]"#, "{}", "3"),
    (#"[{"op":"copy","from":"/a","path":"/b"}]"#, #"{"a":[1]}"#, #"{"a":[1],"b":[1]}"#),
    (#"[{"op":"copy","from":"","path":"/a"}]"#, #"{"x":1}"#, #"{"a":{"x":1},"x":1}"#),
    (#"[{"op":"move","from":"/a","path":"/a"}]"#, #"{"a":1}"#, #"{"a":1}"#),
    (#"[{"op":"move","from":"/a/0","path":"/b"}]"#, #"{"a":[1,2]}"#, #"{"a":[2],"b":1}"#),
    (#"[{"op":"add","path":"/a/2","value":3}]"#, #"{"a":[1,2]}"#, #"{"a":[1,2,3]}"#),
    (#"[{"op":"add","path":"/a","value":3}]"#, #"{"a":1}"#, #"{"a":3}"#),
    (#"[{"op":"add","path":"/0","value":1}]"#, "{}", #"{"0":1}"#),
    (#"[{"op":"test","path":"","value":{"a":1.0}}]"#, #"{"a":1}"#, #"{"a":1}"#),
    (
      #"[{"op":"remove","path":"/a/b/0"},{"op":"add","path":"/a/b/0","value":9}]"#,
      #"{"a":{"b":[1,2]}}"#, #"{"a":{"b":[9,2]}}"#
    ),
    ("[]", "[1]", "[1]"),
  ])
  func appliesEveryOperation(patch: String, document: String, result: String) throws {
    #expect(try apply(patch, to: document) == result)
  }

  @Test(arguments: [
    (#"{"op":"add"}"#, "{}", "error: a patch must be an array of operations, found an object"),
    ("[1]", "{}", "error: operation 0: an operation must be an object, found a number"),
    (#"[{"path":"/a"}]"#, "{}", "error: operation 0: missing member 'op'"),
    (#"[{"op":"add","value":1}]"#, "{}", "error: operation 0: missing member 'path'"),
    (#"[{"op":"add","path":1,"value":1}]"#, "{}", "error: operation 0: missing member 'path'"),
    (#"[{"op":"add","path":"/a"}]"#, "{}", "error: operation 0: missing member 'value'"),
    (#"[{"op":"move","path":"/a"}]"#, "{}", "error: operation 0: missing member 'from'"),
    (#"[{"op":"rename","path":"/a"}]"#, "{}", "error: operation 0: unknown operation 'rename'"),
    (
      #"[{"op":"remove","path":"a"}]"#, "{}",
      "error: operation 0: invalid pointer 'a': a JSON pointer must start with '/'"
    ),
    (
      #"[{"op":"remove","path":"/~2"}]"#, "{}",
      "error: operation 0: invalid pointer '/~2': '~' must be followed by '0' or '1'"
    ),
    (
      #"[{"op":"test","path":"/a","value":1},{"op":"remove","path":"/b"}]"#, #"{"a":1}"#,
      "error: operation 1: no value at '/b' to remove"
    ),
    (
      #"[{"op":"replace","path":"/b","value":1}]"#, #"{"a":1}"#,
      "error: operation 0: no value at '/b' to replace"
    ),
    (
      #"[{"op":"remove","path":"/a/2"}]"#, #"{"a":[1,2]}"#,
      "error: operation 0: no value at '/a/2' to remove"
    ),
    (
      #"[{"op":"remove","path":"/a/-"}]"#, #"{"a":[1,2]}"#,
      "error: operation 0: no value at '/a/-' to remove"
    ),
    (
      #"[{"op":"remove","path":"/a/01"}]"#, #"{"a":[1,2]}"#,
      "error: operation 0: invalid array index '01' in '/a/01'"
    ),
    (
      #"[{"op":"add","path":"/a/3","value":0}]"#, #"{"a":[1,2]}"#,
      "error: operation 0: invalid array index '3' in '/a/3'"
    ),
    (
      #"[{"op":"add","path":"/a/x","value":0}]"#, #"{"a":[1,2]}"#,
      "error: operation 0: invalid array index 'x' in '/a/x'"
    ),
    (
      #"[{"op":"add","path":"/a/b","value":0}]"#, #"{"a":"text"}"#,
      "error: operation 0: '/a/b' goes through a string, which has no members or elements"
    ),
    (
      #"[{"op":"remove","path":"/a/b/c"}]"#, #"{"a":7}"#,
      "error: operation 0: '/a/b/c' goes through a number, which has no members or elements"
    ),
    (
      #"[{"op":"move","from":"/a","path":"/a/b"}]"#, #"{"a":{}}"#,
      "error: operation 0: cannot move '/a' into itself at '/a/b'"
    ),
    (
      #"[{"op":"copy","from":"/x","path":"/a"}]"#, "{}",
      "error: operation 0: no value at '/x' to copy"
    ),
    (
      #"[{"op":"test","path":"/x","value":1}]"#, "{}",
      "error: operation 0: no value at '/x' to test"
    ),
    (#"[{"op":"remove","path":""}]"#, "{}", "error: operation 0: cannot remove the whole document"),
  ])
  func reportsTheOperationThatFailed(patch: String, document: String, message: String) throws {
    #expect(try apply(patch, to: document) == message)
  }

  @Test func errorsCarryTheOperationAndTheReason() throws {
    #expect(
      throws: JSONPatchError(
        operation: 1, reason: .missingValue(pointer: "/b", operation: "remove"))
    ) {
      try JSONPatch.apply(
        [["op": "add", "path": "/a", "value": 1], ["op": "remove", "path": "/b"]], to: [:])
    }
    #expect(
      JSONPatchError(operation: nil, reason: .notAnArray(found: "null")).description
        == "a patch must be an array of operations, found null")
  }

  /// Applying the patch from `a` to `b` to `a` gives `b`, for random documents and their edits.
  @Test func applyingADiffPatchGivesTheTarget() throws {
    var generator = SplitMix64(seed: 404)
    for round in 0..<3_000 {
      let a = RandomJSON.value(depth: 4, using: &generator)
      let b =
        round % 4 == 0
        ? RandomJSON.value(depth: 4, using: &generator)
        : RandomJSON.mutation(of: a, using: &generator)
      let patch = JSONDiff.patch(from: a, to: b)
      let patched = try JSONPatch.apply(patch, to: a)
      #expect(patched == b, "patch \(patch) from \(a)")
      // The patch goes through JSON text unharmed, as `rasp replay --emit diff` prints it.
      #expect(try JSONParser.parse(patch.description) == patch)
    }
  }
}
