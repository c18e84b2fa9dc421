import RaspJSON
import RaspTestSupport
import Testing

/// A source that hands out its bytes and then fails.
private struct FailingSource: JSONByteSource {
  struct Failure: Error, Equatable {}
  var inner: JSONMemorySource
  let failAt: Int

  mutating func read(into buffer: inout MutableRawSpan) throws -> Int {
    if inner.offset >= failAt { throw Failure() }
    let room = min(buffer.byteCount, failAt - inner.offset)
    var space = buffer._mutatingExtracting(0..<room)
    return try inner.read(into: &space)
  }
}

@Suite struct JSONLinesReaderTests {
  @Test(arguments: [
    ("", true), (" \t\r", true), ("\r", true), (" {}", false), ("\u{A0}", false), ("\n", false),
  ])
  func blankBytesAreSpacesTabsAndCarriageReturnsOnly(text: String, isBlank: Bool) {
    // The line feed ends a line, and is never part of one: a line holding one is not blank.
    let bytes = Array(text.utf8)
    #expect(JSONLine.isBlank(bytes.span) == isBlank, "\(Array(text.unicodeScalars))")
    #expect(bytes.withUnsafeBufferPointer { JSONLine.isBlank($0) } == isBlank)
  }

  /// The public forms of a line's bytes — the span lent to a closure, the copy, the count —
  /// give the text between its line ends, as splitting the input on `\n` does.
  @Test func aLineLendsItsBytesAsASpanAndCopiesThem() throws {
    let text = "{\"a\":1}\r\n\n[2]\n\"éé\""
    // Split as bytes: as characters, "\r\n" is one, not a "\n".
    let expected = Array(text.utf8).split(
      separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false
    ).map { Array($0).filter { $0 != UInt8(ascii: "\r") } }
    let reader = JSONLinesReader(
      source: JSONMemorySource(Array(text.utf8), chunkSize: 3), chunkSize: 4)
    var spans: [[UInt8]] = []
    var copies: [[UInt8]] = []
    var counts: [Int] = []
    var values: [JSONValue] = []
    while let line = try reader.next() {
      spans.append(line.withSpan { span in (0..<span.count).map { span[$0] } })
      copies.append(line.array)
      counts.append(line.count)
      if !line.isBlank { values.append(try line.withSpan { try JSONParser.parse($0) }) }
    }
    #expect(spans == expected)
    #expect(copies == expected)
    #expect(counts == expected.map(\.count))
    #expect(values == (try ["{\"a\":1}", "[2]", "\"éé\""].map { try JSONParser.parse($0) }))
  }

  /// Every line a reader returns, as `number:text`, or `number:long` for a line too long.
  ///
  /// With `keepsLines`, the lines are described only once the input has been read to its end,
  /// from the blocks kept along the way: their bytes must not have moved or changed.
  private func lines(
    _ bytes: [UInt8], sourceChunk: Int = .max, readerChunk: Int = 16, maximum: Int = 1 << 20,
    keepsLines: Bool = false
  ) throws -> [String] {
    let reader = JSONLinesReader(
      source: JSONMemorySource(bytes, chunkSize: sourceChunk), chunkSize: readerChunk,
      maximumLineLength: maximum, keepsLines: keepsLines)
    func describe(_ line: JSONLine) -> String {
      line.isTooLong
        ? "\(line.number):long" : "\(line.number):" + String(decoding: line.bytes, as: UTF8.self)
    }
    var result: [String] = []
    var kept: [JSONLine] = []
    var blocks: [JSONLinesBlock] = []
    var blockNumber = reader.blockNumber
    while let line = try reader.next() {
      #expect(reader.lineNumber == line.number)
      if line.isTooLong { #expect(line.bytes.isEmpty, "a long line's bytes are skipped") }
      // The block number changes exactly when the block does.
      let isNewBlock = blocks.last !== reader.currentBlock
      #expect(blocks.isEmpty || isNewBlock == (blockNumber != reader.blockNumber))
      if isNewBlock { blocks.append(reader.currentBlock) }
      blockNumber = reader.blockNumber
      if keepsLines { kept.append(line) } else { result.append(describe(line)) }
    }
    #expect(try reader.next() == nil, "the end is sticky")
    #expect(reader.bytesRead == bytes.count)
    withExtendedLifetime(blocks) { result += kept.map(describe) }
    return result
  }

  /// What the reader must return, worked out the slow and obvious way.
  private func expectedLines(_ input: [UInt8], maximum: Int = 1 << 20) -> [String] {
    var bytes = input[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    var pieces = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
    if pieces.last?.isEmpty == true { pieces.removeLast() }
    return pieces.enumerated().map { index, piece in
      var line = piece
      if line.last == 0x0D { line.removeLast() }
      return line.count > maximum
        ? "\(index + 1):long" : "\(index + 1):" + String(decoding: line, as: UTF8.self)
    }
  }

  private static let inputs: [[UInt8]] = [
    [],
    Array("\n".utf8),
    Array("\n\n\n".utf8),
    Array("{}".utf8),
    Array("{}\n".utf8),
    Array("{\"a\":1}\r\n\n  \n[2]".utf8),
    [0xEF, 0xBB, 0xBF] + Array("{\"a\":1}\r\n\n  \n[2]".utf8),
    [0xEF, 0xBB, 0xBF],
    [0xEF, 0xBB, 0xBF, 0x0A],
    [0xEF, 0xBB],
    Array("a\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("b\n".utf8),
    Array("a\rb\r\n\r\n\r".utf8),
    Array("\r\n\r\n".utf8),
    Array(
      (String(repeating: "x", count: 40) + "\n" + String(repeating: "y", count: 35) + "\r\nz")
        .utf8),
    Array("é😀\n\u{2028}\n".utf8),
  ]

  @Test(arguments: inputs)
  func splitsLinesAlikeForEveryChunkSize(input: [UInt8]) throws {
    let expected = expectedLines(input)
    for sourceChunk in 1...max(1, input.count + 1) {
      for readerChunk in [16, 17, 64] {
        for keepsLines in [false, true] {
          let actual = try lines(
            input, sourceChunk: sourceChunk, readerChunk: readerChunk, keepsLines: keepsLines)
          #expect(
            actual == expected,
            "source chunk \(sourceChunk), reader chunk \(readerChunk), \(keepsLines)")
        }
      }
    }
  }

  @Test func handlesCRLFAByteOrderMarkAndAMissingFinalNewline() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{\"a\":1}\r\n\n  \n[2]".utf8)
    #expect(try lines(bytes) == ["1:{\"a\":1}", "2:", "3:  ", "4:[2]"])
  }

  @Test func keepsAByteOrderMarkThatIsNotAtTheStart() throws {
    let bytes = Array("a\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("b".utf8)
    #expect(try lines(bytes) == ["1:a", "2:\u{FEFF}b"])
  }

  @Test func returnsNothingForEmptyInput() throws {
    #expect(try lines([]).isEmpty)
  }

  @Test func reportsBlankLines() throws {
    let reader = JSONLinesReader(source: JSONMemorySource(Array(" \t\n\n\r\n x\n".utf8)))
    var blank: [Bool] = []
    while let line = try reader.next() { blank.append(line.isBlank) }
    #expect(blank == [true, true, true, false])
  }

  @Test func reportsEachLongLineOnceAndKeepsCountingLines() throws {
    let long = String(repeating: "x", count: 100)
    let bytes = Array("a\n\(long)\nb\n\(long)\n\(long)\r\nc\n\(long)".utf8)
    let expected = ["1:a", "2:long", "3:b", "4:long", "5:long", "6:c", "7:long"]
    #expect(expectedLines(bytes, maximum: 20) == expected)
    for sourceChunk in [1, 2, 5, 16, 19, 21, 33, 1000] {
      for readerChunk in [16, 32, 256] {
        for keepsLines in [false, true] {
          let actual = try lines(
            bytes, sourceChunk: sourceChunk, readerChunk: readerChunk, maximum: 20,
            keepsLines: keepsLines)
          #expect(
            actual == expected,
            "source chunk \(sourceChunk), reader chunk \(readerChunk), \(keepsLines)")
        }
      }
    }
  }

  @Test func aLineOfExactlyTheMaximumIsAccepted() throws {
    let bytes = Array("12345\n123456\n12345\r\n123456\r\n12345\r".utf8)
    let expected = ["1:12345", "2:long", "3:12345", "4:long", "5:12345"]
    for sourceChunk in 1...bytes.count {
      #expect(
        try lines(bytes, sourceChunk: sourceChunk, maximum: 5) == expected,
        "source chunk \(sourceChunk)")
    }
  }

  @Test func aLongLastLineWithoutNewlineIsReported() throws {
    let bytes = Array(("ok\n" + String(repeating: "y", count: 50)).utf8)
    for sourceChunk in [1, 3, 7, 64] {
      #expect(try lines(bytes, sourceChunk: sourceChunk, maximum: 10) == ["1:ok", "2:long"])
    }
  }

  @Test func randomInputsSplitAlikeForRandomChunkSizes() throws {
    var generator = SplitMix64(seed: 17)
    let pieces: [[UInt8]] = [
      [0x0A], [0x0D], [0x0D, 0x0A], [0x20], [0xEF, 0xBB, 0xBF], Array("{}".utf8),
      Array("abcdefghij".utf8),
    ]
    for _ in 0..<500 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0..<30, using: &generator) {
        bytes += pieces.randomElement(using: &generator)!
      }
      let maximum = Int.random(in: 1...25, using: &generator)
      let sourceChunk = Int.random(in: 1...40, using: &generator)
      let readerChunk = Int.random(in: 16...40, using: &generator)
      for keepsLines in [false, true] {
        let actual = try lines(
          bytes, sourceChunk: sourceChunk, readerChunk: readerChunk, maximum: maximum,
          keepsLines: keepsLines)
        #expect(
          actual == expectedLines(bytes, maximum: maximum),
          "\(bytes), max \(maximum), chunks \(sourceChunk)/\(readerChunk), \(keepsLines)")
      }
    }
  }

  @Test func aReadErrorPropagatesAfterTheCompleteLines() throws {
    let source = FailingSource(
      inner: JSONMemorySource(Array("a\nb\ncc".utf8), chunkSize: 1), failAt: 5)
    let reader = JSONLinesReader(source: source)
    #expect(try reader.next()?.number == 1)
    #expect(try reader.next()?.number == 2)
    #expect(throws: FailingSource.Failure()) { _ = try reader.next() }
  }

  @Test func aReadErrorOnTheFirstReadPropagates() throws {
    let reader = JSONLinesReader(source: FailingSource(inner: JSONMemorySource([]), failAt: 0))
    #expect(throws: FailingSource.Failure()) { _ = try reader.next() }
  }

  @Test func countsLinesAndBytes() throws {
    let reader = JSONLinesReader(source: JSONMemorySource(Array("1\n2\n".utf8)))
    #expect(reader.lineNumber == 0)
    _ = try reader.next()
    #expect(reader.lineNumber == 1)
    while try reader.next() != nil {}
    #expect(reader.lineNumber == 2)
    #expect(reader.bytesRead == 4)
    #expect(reader.maximumLineLength == JSONLimits.maximumLineLength)
  }

  /// What `takeBufferedLine()` gives, step by step, reading more only when it asks.
  private func steps(_ bytes: [UInt8], sourceChunk: Int, keepsLines: Bool = true) throws
    -> [String]
  {
    let reader = JSONLinesReader(
      source: JSONMemorySource(bytes, chunkSize: sourceChunk), chunkSize: 16,
      keepsLines: keepsLines)
    var steps: [String] = []
    while true {
      switch reader.takeBufferedLine() {
      case .line(let line):
        steps.append("\(line.number):" + String(decoding: line.bytes, as: UTF8.self))
      case .needsInput:
        steps.append("read (\(reader.unfinishedByteCount) held)")
        try reader.readMore()
      case .end:
        steps.append("end")
        return steps
      }
    }
  }

  @Test func aBufferedLineIsReturnedOnlyOnceItsEndIsRead() throws {
    // Four bytes a read — "ab\nc", "defg", "\nh" — then the end: a line is whole only once
    // its line end has been read; the partial rest is held, and the last line needs the end.
    #expect(
      try steps(Array("ab\ncdefg\nh".utf8), sourceChunk: 4) == [
        "read (0 held)", "1:ab", "read (1 held)", "read (5 held)", "2:cdefg", "read (1 held)",
        "3:h", "end",
      ])
  }

  @Test func aByteOrderMarkIsSkippedOnceTheFirstBytesAreRead() throws {
    #expect(
      try steps([0xEF, 0xBB, 0xBF] + Array("{}\n".utf8), sourceChunk: 1) == [
        "read (0 held)", "read (1 held)", "read (2 held)", "read (0 held)", "read (1 held)",
        "read (2 held)", "1:{}", "read (0 held)", "end",
      ])
  }

  @Test func aRestartedReaderGoesOnAfterTheEndAsANewInput() throws {
    // A source that ends twice, as a followed log ends its old file and goes on in the new.
    struct TwoFiles: JSONByteSource {
      var files = [Array("a\nb".utf8), Array("\u{FEFF}c\n".utf8)]
      var current = JSONMemorySource([])
      mutating func read(into buffer: inout MutableRawSpan) throws -> Int {
        let count = try current.read(into: &buffer)
        if count == 0, !files.isEmpty {
          current = JSONMemorySource(files.removeFirst())
          return try current.read(into: &buffer)
        }
        return count
      }
    }
    var source = TwoFiles()
    source.current = JSONMemorySource(source.files.removeFirst())
    source.files.insert([], at: 0)  // the old file's end
    let reader = JSONLinesReader(source: source, chunkSize: 16, keepsLines: true)
    var lines: [JSONLine] = []
    while let line = try reader.next() { lines.append(line) }
    let firstBlock = reader.currentBlock
    reader.restart()
    #expect(reader.lineNumber == 0)
    while let line = try reader.next() { lines.append(line) }
    #expect(lines.map(\.number) == [1, 2, 1])
    #expect(lines.map { String(decoding: $0.bytes, as: UTF8.self) } == ["a", "b", "c"])
    #expect(firstBlock !== reader.currentBlock, "the old lines' block is left to whoever keeps it")
  }
}
