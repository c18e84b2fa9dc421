import RaspJSON

/// Reads an input with ``RaspJSON/JSONLinesReader`` and parses each line, checking that:
///
/// - the reader returns the lines ``LineModel`` finds, numbered from 1, whatever the chunk
///   sizes of the source and the reader, and marks as too long exactly the lines over its limit;
/// - ``RaspJSON/JSONParser`` accepts a line exactly when skipping it with
///   ``RaspJSON/JSONScanner/skipValue()`` does, and fails with the same error (offset and reason);
/// - a parsed value survives writing it canonically, reading it back, and pretty-printing it,
///   and the canonical text is a fixed point.
enum ReaderCheck {
  static func run(_ input: [UInt8]) {
    // Small chunks and a small line limit exercise refills, CRLF split across chunks and the
    // too-long path; the limit is at least 1.
    let limit = 1 + (input.count > 2 ? Int(input[2]) % 48 : 0)
    readLines(input, sourceChunk: 7, readerChunk: 16, maximumLineLength: limit) { _ in }
    let longest = JSONLimits.maximumLineLength
    readLines(input, sourceChunk: .max, readerChunk: 4096, maximumLineLength: longest, parse)
  }

  /// Reads every line and compares it with the model, handing each to `body`.
  private static func readLines(
    _ input: [UInt8], sourceChunk: Int, readerChunk: Int, maximumLineLength: Int,
    _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    let expected = LineModel.lines(of: input, maximumLineLength: maximumLineLength)
    let reader = JSONLinesReader(
      source: JSONMemorySource(input, chunkSize: sourceChunk), chunkSize: readerChunk,
      maximumLineLength: maximumLineLength)
    var count = 0
    while true {
      let next: JSONLine?
      do {
        next = try reader.next()
      } catch {
        FuzzFailure.fail("a memory source failed to read: \(error)")
      }
      guard let line = next else { break }
      count += 1
      guard count <= expected.count else {
        FuzzFailure.fail(
          "the reader returned line \(line.number) of \(expected.count) (limit \(maximumLineLength))"
        )
      }
      guard line.number == count, reader.lineNumber == count else {
        FuzzFailure.fail(
          "line \(count) is numbered \(line.number), the reader says \(reader.lineNumber)")
      }
      switch expected[count - 1] {
      case nil:
        guard line.isTooLong, line.bytes.isEmpty else {
          FuzzFailure.fail(
            "line \(count) is over the limit \(maximumLineLength) but was not reported too long")
        }
      case let bytes?:
        guard !line.isTooLong, line.bytes.elementsEqual(bytes) else {
          FuzzFailure.fail(
            "line \(count) is \(Array(line.bytes)) (too long: \(line.isTooLong)), expected \(Array(bytes)) (limit \(maximumLineLength))"
          )
        }
        body(line.bytes)
      }
    }
    guard count == expected.count else {
      FuzzFailure.fail(
        "the reader returned \(count) lines, expected \(expected.count) (limit \(maximumLineLength))"
      )
    }
    guard reader.bytesRead == input.count else {
      FuzzFailure.fail("the reader read \(reader.bytesRead) of \(input.count) bytes")
    }
  }

  /// Parses one line at the default depth limit and at a small one.
  private static func parse(_ line: UnsafeBufferPointer<UInt8>) {
    for depth in [JSONLimits.maximumDepth, 3] {
      let parsed = Result { () throws(JSONError) -> JSONValue in
        try JSONParser.parse(line, maximumDepth: depth)
      }
      let skipped = Result { () throws(JSONError) -> Void in
        var scanner = JSONScanner(line, maximumDepth: depth)
        try scanner.skipValue()
        try scanner.expectEnd()
      }
      switch (parsed, skipped) {
      case (.success(let value), .success):
        if depth == JSONLimits.maximumDepth { checkRoundTrip(value) }
      case (.failure(let parseError), .failure(let skipError)):
        guard parseError == skipError else {
          FuzzFailure.fail(
            "parsing fails at \(parseError.offset) with '\(parseError)', skipping at \(skipError.offset) with '\(skipError)' (depth \(depth))"
          )
        }
        guard parseError.offset >= 0, parseError.offset <= line.count else {
          FuzzFailure.fail(
            "error offset \(parseError.offset) outside a line of \(line.count) bytes")
        }
        let position = JSONTextPosition(offset: parseError.offset, in: line)
        guard position.column >= 1 else { FuzzFailure.fail("error column \(position.column)") }
        _ = JSONScanner(line).describe(at: parseError.offset)
      case (.success, .failure(let error)):
        FuzzFailure.fail(
          "parsing succeeds but skipping fails at \(error.offset) with '\(error)' (depth \(depth))")
      case (.failure(let error), .success):
        FuzzFailure.fail(
          "skipping succeeds but parsing fails at \(error.offset) with '\(error)' (depth \(depth))")
      }
    }
  }

  /// Writes a value canonically, reads it back, and pretty-prints it.
  private static func checkRoundTrip(_ value: JSONValue) {
    var writer = JSONWriter()
    writer.write(value)
    let canonical = writer.bytes
    guard let again = try? JSONParser.parse(canonical) else {
      FuzzFailure.fail(
        "the canonical text \(String(decoding: canonical, as: UTF8.self)) does not parse")
    }
    guard again == value else {
      FuzzFailure.fail("\(String(decoding: canonical, as: UTF8.self)) reads back as \(again)")
    }
    var rewriter = JSONWriter()
    rewriter.write(again)
    guard rewriter.bytes == canonical else {
      FuzzFailure.fail(
        "canonical text is not a fixed point: \(String(decoding: canonical, as: UTF8.self)) then \(String(decoding: rewriter.bytes, as: UTF8.self))"
      )
    }
    var pretty: [UInt8] = []
    JSONPrettyPrinter.append(canonical[...], to: &pretty)
    guard let fromPretty = try? JSONParser.parse(pretty), fromPretty == value else {
      FuzzFailure.fail(
        "the pretty text \(String(decoding: pretty, as: UTF8.self)) does not read back as the value"
      )
    }
  }
}
