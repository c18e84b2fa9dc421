import RaspJSON
import Testing

@testable import RaspReplay

@Suite struct RecordDifferTests {
  private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func patchesOnlyTheDomainsWhoseBytesChanged() {
    var differ = RecordDiffer(
      initialDomains: [bytes(#"{"x":1}"#)[...], bytes("[1]")[...]], names: ["a", "b"])
    #expect(differ.advance(domains: [bytes(#"{"x":1}"#)[...], bytes("[1]")[...]]) == [])
    #expect(
      differ.advance(domains: [bytes(#"{"x":1}"#)[...], bytes("[1,2]")[...]])
        == [["op": "add", "path": "/b/1", "value": 2]])
    #expect(
      differ.advance(domains: [bytes(#"{"x":2}"#)[...], bytes("[1,2]")[...]])
        == [["op": "replace", "path": "/a/x", "value": 2]])
    #expect(
      differ.advance(domains: [bytes(#"{"x~/":2}"#)[...], bytes("[]")[...]]) == [
        ["op": "remove", "path": "/a/x"], ["op": "add", "path": "/a/x~0~1", "value": 2],
        ["op": "remove", "path": "/b/1"], ["op": "remove", "path": "/b/0"],
      ])
  }

  @Test func patchesASelectedValueWhole() {
    var differ = RecordDiffer(initialValue: bytes(#"{"a":1}"#))
    #expect(differ.advance(value: bytes(#"{"a":1}"#)) == [])
    #expect(
      differ.advance(value: bytes(#"{"a":1,"b":2}"#)) == [["op": "add", "path": "/b", "value": 2]])
    #expect(differ.advance(value: bytes("[1]")) == [["op": "replace", "path": "", "value": [1]]])
    #expect(differ.advance(value: bytes("[1,3]")) == [["op": "add", "path": "/1", "value": 3]])
    #expect(differ.advance(value: bytes("null")) == [["op": "replace", "path": "", "value": nil]])
  }
}
