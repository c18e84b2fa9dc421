import Foundation
import Testing
import RaspTestSupport

/// The modules the `rasp` command is built of import no Foundation: Foundation's libraries
/// (ICU's among them, tens of megabytes) would be loaded at every start of `rasp`, which took
/// 8.2 ms with them and 4.5 ms without (`perf stat -r 30 rasp replay /dev/null`), a tenth of a
/// short replay. RaspRecording, for apps, and `rasp-bench` may import it.
@Suite struct SourceImportsTests {
  static let modules = ["Rasp", "RaspJSON", "RaspDomains", "RaspReplay", "RaspCLI", "rasp"]

  @Test(arguments: modules)
  func noSourceOfTheCommandImportsFoundation(module: String) throws {
    let root = Repository.path("Sources/" + module)
    let files = try FileManager.default.subpathsOfDirectory(atPath: root)
      .filter { $0.hasSuffix(".swift") }.sorted()
    #expect(!files.isEmpty, "expected the Swift files under \(root)")
    for file in files {
      let text = try String(contentsOfFile: "\(root)/\(file)", encoding: .utf8)
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let words = line.split(separator: " ")
        guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { continue }
        let imported = words[at + 1]
        if imported.hasPrefix("Foundation") {
          Issue.record("Sources/\(module)/\(file):\(index + 1): imports \(imported)")
        }
      }
    }
  }
}
