import RaspJSON
import Testing

@Suite struct JSONPatchErrorTests {
  @Test(arguments: [
    (
      JSONPatchError.Reason.notAnArray(found: "an object"),
      "a patch must be an array of operations, found an object"
    ),
    (.notAnObject(found: "a number"), "an operation must be an object, found a number"),
    (.missingMember("path"), "missing member 'path'"),
    (.unknownOperation("rename"), "unknown operation 'rename'"),
    (
      .invalidPointer("a", detail: "a JSON pointer must start with '/'"),
      "invalid pointer 'a': a JSON pointer must start with '/'"
    ),
    (.missingValue(pointer: "/a", operation: "remove"), "no value at '/a' to remove"),
    (.invalidIndex(pointer: "/a/01", token: "01"), "invalid array index '01' in '/a/01'"),
    (
      .notAContainer(pointer: "/a/b", found: "a string"),
      "'/a/b' goes through a string, which has no members or elements"
    ),
    (.moveIntoItself(from: "/a", path: "/a/b"), "cannot move '/a' into itself at '/a/b'"),
    (.removesTheDocument, "cannot remove the whole document"),
    (
      .testFailed(pointer: "/a", expected: "10", found: 10),
      #"test failed at '/a': expected "10", found 10"#
    ),
  ])
  func describesEveryReason(reason: JSONPatchError.Reason, message: String) {
    #expect(reason.description == message)
    #expect(JSONPatchError(operation: 3, reason: reason).description == "operation 3: " + message)
    #expect(JSONPatchError(operation: nil, reason: reason).description == message)
  }

  @Test func comparesOperationAndReason() {
    let error = JSONPatchError(operation: 1, reason: .removesTheDocument)
    #expect(error == JSONPatchError(operation: 1, reason: .removesTheDocument))
    #expect(error != JSONPatchError(operation: 2, reason: .removesTheDocument))
    #expect(error != JSONPatchError(operation: nil, reason: .removesTheDocument))
  }
}
