import Foundation
import RaspCLI
import Testing

/// Output streams take bytes as a span: a file's descriptor and memory each get exactly the
/// span's bytes, however the span was cut from a larger buffer.
@Suite struct RaspOutputStreamTests {
  @Test func memoryKeepsExactlyTheBytesOfASpanOfPartOfABuffer() throws {
    let line = Array(#"{"a":1}{"b":2}"#.utf8)
    let output = RaspMemoryOutput()
    try output.write(line.span.extracting(7..<14).bytes)
    try output.write([0x0A])
    try output.write(line.span.extracting(0..<0).bytes)  // nothing
    #expect(output.text == "{\"b\":2}\n")
  }

  @Test func memoryStopsAtTheBrokenPipeLimitWithinASpan() {
    let output = RaspMemoryOutput(brokenPipeAfter: 3)
    let bytes = Array("abcdef".utf8)
    #expect(throws: RaspOutputError.brokenPipe) { try output.write(bytes.span.bytes) }
    #expect(output.text == "abc")
  }

  @Test func aFileGetsTheBytesOfTheSpansWrittenToItInOrder() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("out.jsonl")
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    try #require(descriptor >= 0)
    let output = RaspFileOutput(descriptor: descriptor)
    let text = Array("first\nsecond\n".utf8)
    try output.write(text.span.extracting(6..<13).bytes)
    try output.write(text.span.extracting(0..<6).bytes)
    close(descriptor)
    #expect(directory.bytes("out.jsonl") == Array("second\nfirst\n".utf8))
  }
}
