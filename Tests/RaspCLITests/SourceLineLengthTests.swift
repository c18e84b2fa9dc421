import Foundation
import Testing
import RaspTestSupport

/// Keeps every line of the sources and of the tests within 100 characters, the house rule.
///
/// It reads every Swift file under `Sources/` and under `Tests/`. `swift format` wraps code but
/// leaves long string literals and comments alone, so this test catches what it cannot fix.
/// Length counts Unicode scalars, not bytes: `−` and `…` are one character each. A long string
/// literal is split into `"…" + "…"` pieces (or, inside a multi-line `"""` literal, continued
/// with a `\` at the end of the line), a long comment rewrapped.
@Suite struct SourceLineLengthTests {
  static let limit = 100

  /// Each folder checked, with the fewest Swift files it holds: a wrong path or an empty listing
  /// must fail, not pass for having no lines to check.
  static let folders: [(folder: String, minimumFiles: Int)] = [("Sources", 100), ("Tests", 100)]

  @Test(arguments: folders)
  func everyLineFitsInOneHundredColumns(folder: String, minimumFiles: Int) throws {
    let root = Repository.path(folder)
    let paths = try FileManager.default.subpathsOfDirectory(atPath: root)
    let files = paths.filter { $0.hasSuffix(".swift") }.sorted()
    for file in files {
      let text = try String(contentsOfFile: "\(root)/\(file)", encoding: .utf8)
      let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
      for (index, line) in lines.enumerated() where line.count > Self.limit {
        Issue.record(
          "\(folder)/\(file):\(index + 1): \(line.count) characters, more than \(Self.limit)")
      }
    }
    #expect(files.count >= minimumFiles, "expected the Swift files under \(root)")
  }
}
