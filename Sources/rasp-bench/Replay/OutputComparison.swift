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

extension OutputComparison {
  /// Throws unless `sample` and `reference` are the same bytes: the same number of lines and of
  /// bytes, and the same hash of every byte (both made with `hashing`).
  ///
  /// ```swift
  /// try OutputComparison.checkIdentical(fsa.output, to: own.output, label: "'rasp replay …'")
  /// ```
  ///
  /// - Parameters:
  ///   - sample: The output checked.
  ///   - reference: The output it must equal.
  ///   - label: The command checked, for the message.
  /// - Throws: ``BenchError/mismatch(_:)`` with both outputs' counts and hashes, and the first
  ///   line that differs when it is among the lines the samples kept.
  static func checkIdentical(
    _ sample: OutputSample, to reference: OutputSample, label: String
  ) throws(BenchError) {
    precondition(sample.hash != nil && reference.hash != nil, "both outputs must be hashed")
    guard
      sample.lineCount != reference.lineCount || sample.byteCount != reference.byteCount
        || sample.hash != reference.hash
    else { return }
    func summary(_ output: OutputSample) -> String {
      "\(BenchFormat.lines(output.lineCount)), \(BenchFormat.grouped(output.byteCount)) bytes, "
        + "FNV-1a \(BenchFormat.hash(output.hash))"
    }
    var message =
      "\(label) printed \(summary(sample)), where the reference printed \(summary(reference))"
    if let (number, expected, actual) = firstDifferingLine(sample, reference) {
      message += "\n  line \(number):\n  - \(text(expected))\n  + \(text(actual))"
    }
    throw .mismatch(message)
  }

  /// The first line, among those both samples kept, where `sample` differs from `reference`.
  private static func firstDifferingLine(
    _ sample: OutputSample, _ reference: OutputSample
  ) -> (number: Int, expected: [UInt8], actual: [UInt8])? {
    if let index = firstDifference(sample.head, reference.head) {
      return (index + 1, reference.head[index], sample.head[index])
    }
    // The last lines are the same lines of both outputs only when both have as many.
    guard sample.lineCount == reference.lineCount else { return nil }
    let tail = sample.tail
    let referenceTail = reference.tail
    guard let index = firstDifference(tail, referenceTail) else { return nil }
    return (sample.lineCount - tail.count + index + 1, referenceTail[index], tail[index])
  }

  /// The first index at which `lines` and `others` hold different lines, among those both have.
  private static func firstDifference(_ lines: [[UInt8]], _ others: [[UInt8]]) -> Int? {
    (0..<min(lines.count, others.count)).first { lines[$0] != others[$0] }
  }
}
