import RaspJSON
import Testing

@Suite struct JSONByteSourceTests {
  /// The chunks `source` hands out into a buffer of `bufferSize` bytes, read through the
  /// span form (the public one).
  private func drain(_ source: inout JSONMemorySource, bufferSize: Int) throws -> [[UInt8]] {
    var chunks: [[UInt8]] = []
    var buffer = [UInt8](repeating: 0, count: bufferSize)
    while true {
      var elements = buffer.mutableSpan
      var space = elements.mutableBytes
      let count = try source.read(into: &space)
      if count == 0 { return chunks }
      chunks.append(Array(buffer[..<count]))
    }
  }

  @Test func readsIntoTheStartOfASpanOfPartOfABufferAndNoFurther() throws {
    // The doc comment's example, then a span of the middle of a buffer: the bytes go to the
    // span's first bytes, and the buffer's bytes outside it are left as they were.
    var source = JSONMemorySource(Array("{}\n".utf8))
    var chunk = [UInt8](repeating: 0, count: 2)
    do {
      var elements = chunk.mutableSpan
      var space = elements.mutableBytes
      #expect(try source.read(into: &space) == 2)
    }
    #expect(chunk == Array("{}".utf8))
    var buffer = [UInt8](repeating: 0x2E, count: 6)
    do {
      var elements = buffer.mutableSpan
      var space = elements.mutableBytes
      var middle = space._mutatingExtracting(2..<4)
      #expect(try source.read(into: &middle) == 1)
    }
    #expect(String(decoding: buffer, as: UTF8.self) == "..\n...")
  }

  @Test func theUnsafeFormReadsWhatTheSpanFormReads() throws {
    // The package's readers read into their buffers through the unsafe form, which forwards
    // to the span form: the same chunks.
    var bySpan = JSONMemorySource(Array("abcdefg".utf8), chunkSize: 3)
    var byPointer = bySpan
    var buffer = [UInt8](repeating: 0, count: 5)
    var chunks: [[UInt8]] = []
    while true {
      let count = try buffer.withUnsafeMutableBytes { try byPointer.read(into: $0) }
      if count == 0 { break }
      chunks.append(Array(buffer[..<count]))
    }
    #expect(chunks == (try drain(&bySpan, bufferSize: 5)))
    #expect(chunks.map(\.count) == [3, 3, 1])
  }

  @Test func handsOutChunksNoLargerThanTheChunkSizeOrTheBuffer() throws {
    var source = JSONMemorySource(Array("abcdefg".utf8), chunkSize: 3)
    #expect(
      try drain(&source, bufferSize: 10).map { String(decoding: $0, as: UTF8.self) } == [
        "abc", "def", "g",
      ])
    #expect(source.offset == 7)
    var small = JSONMemorySource(Array("abcdefg".utf8))
    #expect(try drain(&small, bufferSize: 4).map(\.count) == [4, 3])
  }

  @Test func readsNothingFromEmptyInputAndAfterTheEnd() throws {
    var empty = JSONMemorySource([])
    #expect(try drain(&empty, bufferSize: 8).isEmpty)
    var source = JSONMemorySource([1, 2])
    _ = try drain(&source, bufferSize: 8)
    #expect(try drain(&source, bufferSize: 8).isEmpty)
  }

  @Test func aChunkSizeBelowOneMeansOne() throws {
    var source = JSONMemorySource([1, 2, 3], chunkSize: 0)
    #expect(source.chunkSize == 1)
    #expect(try drain(&source, bufferSize: 8) == [[1], [2], [3]])
  }
}
