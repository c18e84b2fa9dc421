import Foundation
import RaspJSON
import RaspTestSupport
import Testing

/// The table of examples in `JSONDiff`'s doc comment says what `differences(from:to:)` prints:
/// each row's two values, compared, give the row's differences, in its order and spelling.
@Suite struct JSONDiffDocTests {
  /// The table's rows: expected, actual, and the differences (empty for "none").
  private func rows() throws -> [(expected: String, actual: String, differences: [String])] {
    let source = try String(
      contentsOfFile: Repository.path("Sources/RaspJSON/Diff/JSONDiff.swift"), encoding: .utf8)
    var rows: [(String, String, [String])] = []
    for line in source.components(separatedBy: "\n") where line.hasPrefix("/// | `") {
      let cells = line.dropFirst("/// |".count).split(separator: "|").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count == 3 else { continue }
      // A cell's code spans, without their backquotes.
      func spans(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
          .filter { $0.offset % 2 == 1 }.map { String($0.element) }
      }
      let values = spans(cells[0]) + spans(cells[1])
      guard values.count == 2 else { continue }
      rows.append((values[0], values[1], cells[2] == "none" ? [] : spans(cells[2])))
    }
    return rows
  }

  @Test func eachRowIsWhatTheDiffPrints() throws {
    let rows = try rows()
    #expect(rows.count == 6, "the table's rows were found")
    for row in rows {
      let printed = try JSONDiff.differences(
        from: JSONParser.parse(row.expected), to: JSONParser.parse(row.actual)
      ).map(\.description)
      #expect(printed == row.differences, "\(row.expected) to \(row.actual)")
    }
  }

  @Test func theExampleIsWhatTheDiffPrints() throws {
    let expected = try JSONParser.parse(#"{"geo":{"heading":90},"nav":{"stack":["home"]}}"#)
    let actual = try JSONParser.parse(
      #"{"nav":{"stack":["home","list"]},"geo":{"heading":91}}"#)
    let printed = JSONDiff.differences(from: expected, to: actual).map(\.description)
    #expect(printed == ["geo.heading: 90 -> 91", #"nav.stack[1]: + "list""#])
    let source = try String(
      contentsOfFile: Repository.path("Sources/RaspJSON/Diff/JSONDiff.swift"), encoding: .utf8)
    for line in printed { #expect(source.contains("/// // \(line)\n"), "\(line)") }
  }
}
