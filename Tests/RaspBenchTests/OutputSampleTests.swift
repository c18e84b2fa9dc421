import Testing

@testable import rasp_bench

@Suite struct OutputSampleTests {
  func text(_ lines: [[UInt8]]) -> [String] { lines.map { String(decoding: $0, as: UTF8.self) } }

  @Test func keepsTheFirstAndLastLinesAcrossBlocks() {
    var sample = OutputSample(limit: 2)
    for block in ["a\nb", "b\ncc\n", "d", "\ne", "e\nf\n"] { sample.consume(Array(block.utf8)) }
    #expect(sample.lineCount == 6)
    #expect(sample.byteCount == 15)
    #expect(text(sample.head) == ["a", "bb"])
    #expect(text(sample.tail) == ["ee", "f"])
    #expect(sample.lastLine.map { String(decoding: $0, as: UTF8.self) } == "f")
  }

  @Test func countsALastLineWithoutLineEnd() {
    var sample = OutputSample(limit: 5)
    sample.consume(Array("x\ny".utf8))
    #expect(sample.lineCount == 2)
    #expect(text(sample.head) == ["x"])
    #expect(text(sample.tail) == ["x", "y"])
  }

  @Test func keepsFewBlocksOfALongOutput() {
    var sample = OutputSample(limit: 3)
    for index in 0..<10_000 { sample.consume(Array("line \(index)\n".utf8)) }
    #expect(sample.lineCount == 10_000)
    #expect(text(sample.head) == ["line 0", "line 1", "line 2"])
    #expect(text(sample.tail) == ["line 9997", "line 9998", "line 9999"])
  }

  @Test func emptyOutputHasNoLines() {
    let sample = OutputSample(limit: 3)
    #expect(sample.lineCount == 0)
    #expect(sample.tail.isEmpty)
    #expect(sample.lastLine == nil)
  }
}

@Suite struct OutputSampleHashTests {
  @Test func hashesEveryByteWithFNV1a() {
    var sample = OutputSample(limit: 0, hashing: true)
    #expect(sample.hash == 0xCBF2_9CE4_8422_2325)
    sample.consume(Array("a".utf8))
    #expect(sample.hash == 0xAF63_DC4C_8601_EC8C)
    var foobar = OutputSample(limit: 0, hashing: true)
    foobar.consume(Array("foobar".utf8))
    #expect(foobar.hash == 0x8594_4171_F739_67E8)
  }

  @Test func hashIsTheSameHoweverTheOutputIsCut() {
    var whole = OutputSample(limit: 2, hashing: true)
    whole.consume(Array("a\nbb\nccc\n".utf8))
    var pieces = OutputSample(limit: 2, hashing: true)
    for piece in ["a", "\nb", "b\ncc", "c\n"] { pieces.consume(Array(piece.utf8)) }
    #expect(whole.hash == pieces.hash)
    #expect(whole.lineCount == 3)
  }

  @Test func hashesNothingUnlessAsked() {
    var sample = OutputSample(limit: 2)
    sample.consume(Array("a\n".utf8))
    #expect(sample.hash == nil)
  }
}
