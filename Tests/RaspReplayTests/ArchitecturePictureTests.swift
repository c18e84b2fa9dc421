import Foundation
import Testing

/// The picture of the replay in `docs/architecture.md` names the stages as the code has them:
/// each row's type is a file of the folder the row names, and every other type the picture
/// names is a file of `Sources/RaspReplay`.
@Suite struct ArchitecturePictureTests {
  /// The rows of the picture, from `ReplayInput` to `Replay`.
  private func pictureRows() throws -> [String] {
    let page = try String(
      contentsOf: repositoryRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    let lines = page.components(separatedBy: "\n")
    let start = try #require(lines.firstIndex { $0.hasPrefix("ReplayInput ") })
    let end = try #require(lines[start...].firstIndex { $0.hasPrefix("Replay ") })
    return Array(lines[start..<end])
  }

  /// The paths of the Swift files under `Sources/RaspReplay`, from there (`Keys/ReplayKeys`).
  private func sourceFiles() throws -> Set<String> {
    let root = repositoryRoot.appendingPathComponent("Sources/RaspReplay")
    let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
    var files: Set<String> = []
    for case let path as String in enumerator where path.hasSuffix(".swift") {
      files.insert(String(path.dropLast(".swift".count)))
    }
    return files
  }

  @Test func eachRowsTypeIsAFileOfItsFolder() throws {
    let files = try sourceFiles()
    var checked = 0
    for row in try pictureRows() {
      let words = row.split(separator: " ").filter { $0 != "│" }
      // A row that goes on from the one above starts in lower case.
      guard let folder = words.last, folder.hasSuffix("/"), let type = words.first,
        type.first?.isUppercase == true
      else {
        continue
      }
      #expect(files.contains("\(folder)\(type)"), "\(type) in \(folder): \(row)")
      checked += 1
    }
    #expect(checked >= 10, "the picture's rows were found")
  }

  @Test func everyTypeThePictureNamesIsAFile() throws {
    let names = Set(try sourceFiles().map { $0.split(separator: "/").last.map(String.init) ?? $0 })
    var checked = 0
    for row in try pictureRows() {
      // A word of two capitals or more in camel case, as types are named.
      for word in row.split(whereSeparator: { !$0.isLetter }) {
        guard let first = word.first, first.isUppercase,
          word.dropFirst().contains(where: \.isUppercase),
          word.contains(where: \.isLowercase)
        else { continue }
        // A plural names the type's values (`RaspDomainSlots`).
        let name = String(word)
        #expect(
          names.contains(name) || (name.hasSuffix("s") && names.contains(String(name.dropLast()))),
          "\(word): \(row)")
        checked += 1
      }
    }
    #expect(checked >= 20)
  }
}
