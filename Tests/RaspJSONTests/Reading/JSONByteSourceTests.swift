import RaspJSON
import Testing

@Suite struct JSONByteSourceTests {
  private func drain(_ source: inout JSONMemorySource, bufferSize: Int) throws -> [[UInt8]] {
    var chunks: [[UInt8]] = []
    var buffer = [UInt8](repeating: 0, count: bufferSize)
    while true {
      let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
      if count == 0 { return chunks }
      chunks.append(Array(buffer[..<count]))
    }
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
