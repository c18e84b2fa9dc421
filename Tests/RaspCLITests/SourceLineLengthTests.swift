import Foundation
import Testing

/// Keeps every line of the sources within 100 characters, the house rule.
///
/// `swift format` wraps code but leaves long string literals and comments alone, so this test
/// catches what it cannot fix. Length counts Unicode scalars, not bytes: `−` and `…` are one
/// character each. A long string literal is split into `"…" + "…"` pieces, a long comment
/// rewrapped.
@Suite struct SourceLineLengthTests {
  static let limit = 100

  @Test func everySourceLineFitsInOneHundredColumns() throws {
    let root = Repository.path("Sources")
    let paths = try FileManager.default.subpathsOfDirectory(atPath: root)
    let files = paths.filter { $0.hasSuffix(".swift") }.sorted()
    for file in files {
      let text = try String(contentsOfFile: "\(root)/\(file)", encoding: .utf8)
      let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
      for (index, line) in lines.enumerated() where line.count > Self.limit {
        Issue.record(
          "Sources/\(file):\(index + 1): \(line.count) characters, more than \(Self.limit)")
      }
    }
    #expect(files.count >= 100, "expected the Swift files under \(root)")
  }
}
