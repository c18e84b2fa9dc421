import Foundation
import RaspTestSupport
import Testing

/// Where a malformed line's error is reported, against Python's `json` module, a parser that
/// reports positions: hundreds of lines made by breaking good ones — every bracket, brace, comma,
/// colon and quote replaced or deleted, and closers and commas inserted everywhere — replayed
/// with `--on-error skip`, each error's column compared with Python's.
///
/// Two differences are rasp's on purpose, and are checked as such: a trailing comma is reported
/// at the comma (`trailing comma before '}'`), where Python reports the bracket after it; and a
/// number cut short (`52.}`) at the number's start (`invalid number: expected a digit after
/// '.'`), where Python reads `52` and reports the `.` after it.
@Suite struct ErrorPlacesTests {
  static let lines = [
    #"{"type":"geo.heading","payload":{"heading":90}}"#,
    #"{"type":"geo.location","payload":{"latitude":52.5,"longitude":13.4,"accuracy":[1,2]}}"#,
    #"{"type":"nav.push","payload":{"screen":"map"},"meta":{"a":[1,{"b":2}]}}"#,
  ]

  /// Every line made from `lines` by one change, each once.
  static func brokenLines() -> [String] {
    var made: [String] = []
    var seen: Set<String> = []
    func add(_ line: String) {
      if seen.insert(line).inserted { made.append(line) }
    }
    for line in lines {
      let characters = Array(line)
      for (index, character) in characters.enumerated() where "{}[],:\"".contains(character) {
        for replacement in ["}", "]", ",", ":", "", "x", " "] where replacement != "\(character)" {
          add(String(characters[..<index]) + replacement + String(characters[(index + 1)...]))
        }
      }
      for index in 0...characters.count {
        for insertion in ["}", "]", ","] {
          add(String(characters[..<index]) + insertion + String(characters[index...]))
        }
      }
    }
    return made
  }

  /// Python's column for each line that is not JSON, by line number; absent for valid lines.
  static func pythonColumns(of lines: [String]) async throws -> [Int: (
    column: Int, message: String
  )] {
    let program = """
      import json, sys
      for number, line in enumerate(sys.stdin.read().split("\\n")[:-1], 1):
          try:
              json.loads(line)
          except json.JSONDecodeError as error:
              print(number, error.colno, error.msg, sep="\\t")
      """
    let run = await Shell.run(
      "/usr/bin/env", ["python3", "-c", program],
      input: Array((lines.joined(separator: "\n") + "\n").utf8))
    guard run.status == 0 else {
      throw Failure(description: "python3 failed (\(run.status)): \(run.standardError)")
    }
    var columns: [Int: (Int, String)] = [:]
    for row in run.standardOutput.split(separator: "\n") {
      let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 3, let number = Int(fields[0]), let column = Int(fields[1]) else {
        throw Failure(description: "unexpected output of python3: \(row)")
      }
      columns[number] = (column, String(fields[2]))
    }
    return columns
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  @Test func reportsEachMalformedLineWherePythonDoes() async throws {
    let lines = Self.brokenLines()
    let python = try await Self.pythonColumns(of: lines)
    #expect(python.count > 600, "most changes break the line")
    let input = Array((lines.joined(separator: "\n") + "\n").utf8)
    let run = CommandRun.run(["replay", "--on-error", "skip", "--final", "-"], input: input)
    var rasp: [Int: (column: Int, reason: String)] = [:]
    for row in run.standardError.split(separator: "\n") where row.hasPrefix("<stdin>:") {
      let parts = row.split(separator: ":", maxSplits: 3)
      guard parts.count == 4, let number = Int(parts[1]), let column = Int(parts[2]) else {
        continue
      }
      rasp[number] = (column, String(parts[3].dropFirst(" error: ".count)))
    }
    var compared = 0
    for (number, expected) in python.sorted(by: { $0.key < $1.key }) {
      let line = lines[number - 1]
      guard let found = rasp[number] else {
        Issue.record(
          "line \(number) is not JSON (\(expected.message)) but was not reported: \(line)")
        continue
      }
      compared += 1
      if found.column == expected.column { continue }
      if found.reason.hasPrefix("trailing comma"), found.column < expected.column {
        let between = Array(line)[found.column..<(expected.column - 1)]
        #expect(between.allSatisfy { $0 == " " }, "\(number): \(line)")
        continue
      }
      if found.reason.hasPrefix("invalid number"), found.column < expected.column {
        let number = Array(line)[(found.column - 1)..<(expected.column - 1)]
        #expect(number.allSatisfy { $0.isNumber || "-+.eE".contains($0) }, "\(number): \(line)")
        continue
      }
      Issue.record(
        """
        line \(number): rasp says column \(found.column) (\(found.reason)), \
        Python \(expected.column) (\(expected.message)): \(line)
        """)
    }
    #expect(compared == python.count)
  }
}
