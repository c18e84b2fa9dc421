import RaspJSON
import RaspReplay

/// The snapshots of a JSON-lines file — a golden file, or a side of `rasp diff` — read one line
/// at a time with flat memory.
///
/// Blank lines are skipped (but counted, so line numbers match the file). Lines are not parsed
/// here; ``SnapshotComparison`` parses them, and ``inputError(_:in:)`` places its mistakes.
///
/// ```swift
/// var golden = try SnapshotLines(file: "expected.jsonl", environment: environment)
/// while let line = try golden.next() {
///   print(line.number, line.bytes.count)
/// }
/// ```
struct SnapshotLines {
  /// The file's name for messages: as the user wrote it, or `<stdin>` for `-`.
  let name: String
  /// How many snapshots (non-blank lines) were returned.
  private(set) var count = 0
  private let reader: JSONLinesReader<RaspInputSource>

  /// Opens a file, or standard input for `-`.
  ///
  /// - Throws: ``RaspCommandError/cannotOpen(_:reason:)``.
  init(file: String, environment: RaspEnvironment) throws(RaspCommandError) {
    let source = file == "-" ? environment.standardInput : try environment.openForReading(file)
    self.init(name: file == "-" ? "<stdin>" : file, source: source)
  }

  /// Reads from a source.
  init(name: String, source: RaspInputSource) {
    self.name = name
    self.reader = JSONLinesReader(source: source)
  }

  /// The next non-blank line, or `nil` at the end; its bytes are valid until the next call.
  ///
  /// - Throws: ``RaspCommandError/input(file:line:column:reason:)`` for a line that is too
  ///   long, ``RaspCommandError/cannotOpen(_:reason:)`` when reading fails.
  mutating func next() throws(RaspCommandError) -> JSONLine? {
    while true {
      let line: JSONLine?
      do {
        line = try reader.next()
      } catch {
        throw .cannotOpen(name, reason: "\(error)")
      }
      guard let line else { return nil }
      if line.isTooLong {
        throw .input(
          file: name, line: line.number, column: 1,
          reason: JSONError.Reason.lineTooLong(limit: reader.maximumLineLength).description)
      }
      if line.isBlank { continue }
      count += 1
      return line
    }
  }

  /// Checks that a line of this file holds exactly one JSON value.
  ///
  /// - Throws: ``RaspCommandError/input(file:line:column:reason:)`` at the first mistake.
  func validate(_ line: JSONLine) throws(RaspCommandError) {
    do throws(JSONError) {
      var scanner = JSONScanner(line.bytes, maximumDepth: JSONLimits.maximumWrittenDepth)
      try scanner.skipValue()
      try scanner.expectEnd()
    } catch {
      throw inputError(error, in: line)
    }
  }

  /// The error for a JSON mistake in a line: `expected.jsonl:3:9: error: …`.
  func inputError(_ error: JSONError, in line: JSONLine) -> RaspCommandError {
    .input(
      file: name, line: line.number,
      column: JSONTextPosition(offset: error.offset, in: line.bytes).column,
      reason: error.description)
  }
}
