import RaspJSON

/// Checks that two tools printed the same values: the same number of lines, and the same JSON
/// values on the lines both samples kept, compared parsed (so `52.5201` equals jq's
/// `52.520100000000001`, and key order does not matter).
///
/// ```swift
/// try OutputComparison.check(rasp.output, against: jq.output, expectedLines: 1_000_000,
///                            label: "every snapshot")
/// ```
enum OutputComparison {
  /// Throws unless `sample` and `reference` hold the same values.
  ///
  /// - Parameters:
  ///   - sample: rasp's output.
  ///   - reference: jq's output.
  ///   - expectedLines: How many lines both must have, when known.
  ///   - label: The case, for the message.
  /// - Returns: How many different lines were compared.
  /// - Throws: ``BenchError/mismatch(_:)`` naming the first line that differs.
  @discardableResult
  static func check(
    _ sample: OutputSample, against reference: OutputSample, expectedLines: Int?, label: String
  ) throws(BenchError) -> Int {
    if let expectedLines, sample.lineCount != expectedLines {
      throw .mismatch("\(label): rasp printed \(sample.lineCount) lines, expected \(expectedLines)")
    }
    guard sample.lineCount == reference.lineCount else {
      throw .mismatch(
        "\(label): rasp printed \(sample.lineCount) lines, jq \(reference.lineCount)")
    }
    try compare(sample.head, reference.head, firstLine: 1, label: label)
    let tail = sample.tail
    try compare(tail, reference.tail, firstLine: sample.lineCount - tail.count + 1, label: label)
    return min(sample.lineCount, sample.head.count + tail.count)
  }

  /// Throws unless the two lines hold the same JSON value.
  ///
  /// - Parameters:
  ///   - line: One line.
  ///   - other: The other.
  ///   - label: What is compared, for the message.
  /// - Throws: ``BenchError/mismatch(_:)``.
  static func checkSameValue(_ line: [UInt8]?, _ other: [UInt8]?, label: String) throws(BenchError)
  {
    guard let line, let other else { throw .mismatch("\(label): a line is missing") }
    guard try parse(line, label) == parse(other, label) else {
      throw .mismatch("\(label):\n  − \(text(other))\n  + \(text(line))")
    }
  }

  private static func compare(
    _ lines: [[UInt8]], _ others: [[UInt8]], firstLine: Int, label: String
  ) throws(BenchError) {
    guard lines.count == others.count else {
      throw .mismatch("\(label): rasp's sample has \(lines.count) lines, jq's \(others.count)")
    }
    for index in lines.indices where lines[index] != others[index] {
      guard try parse(lines[index], label) != parse(others[index], label) else { continue }
      throw .mismatch(
        "\(label), line \(firstLine + index):\n  − jq   \(text(others[index]))\n"
          + "  + rasp \(text(lines[index]))"
      )
    }
  }

  private static func parse(_ line: [UInt8], _ label: String) throws(BenchError) -> JSONValue {
    do {
      return try JSONParser.parse(line)
    } catch {
      throw .mismatch("\(label): not JSON (\(error)): \(text(line))")
    }
  }

  private static func text(_ line: [UInt8]) -> String {
    let shown = String(decoding: line.prefix(400), as: UTF8.self)
    return line.count > 400 ? shown + "…" : shown
  }
}
