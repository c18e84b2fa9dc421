import Foundation
import Testing

@testable import RaspCLI
import RaspTestSupport

/// A whole-file JSON input — a DevTools export, a map file, a spec — read with a UTF-8 byte
/// order mark at its start, as Windows editors save one: read as without it, with messages at
/// the same lines and columns.
@Suite struct ByteOrderMarkTests {
  /// A fixture's command run as it is, and again with `file` given a byte order mark: the
  /// second run's outputs, with the temporary folder's path taken out, and the first's.
  private func runs(
    fixture: String, file: String
  ) throws -> (marked: CommandRun, plain: CommandRun, folder: String) {
    let folder = Repository.path("fixtures/" + fixture)
    let arguments = try String(contentsOfFile: folder + "/args", encoding: .utf8)
      .split(separator: " ").map(String.init).map {
        $0.hasSuffix("\n") ? String($0.dropLast()) : $0
      }
    let directory = try TemporaryDirectory()
    let bytes = try #require(FileManager.default.contents(atPath: folder + "/" + file))
    #expect(!bytes.starts(with: [0xEF, 0xBB, 0xBF]))
    try Data([0xEF, 0xBB, 0xBF] + bytes).write(to: URL(fileURLWithPath: directory.file(file)))
    let marked = CommandRun.run(
      arguments.map { $0 == file ? directory.file(file) : $0 }, in: folder)
    return (marked, CommandRun.run(arguments, in: folder), directory.path + "/")
  }

  @Test func aDevToolsExportIsReadAsWithoutIt() throws {
    let (marked, plain, _) = try runs(fixture: "format-devtools", file: "session.json")
    #expect(plain.status == 0 && !plain.standardOutput.isEmpty)
    #expect(marked.status == plain.status)
    #expect(marked.standardOutput == plain.standardOutput)
    #expect(marked.standardError == plain.standardError)
  }

  @Test func aMapFileIsReadAsWithoutItAndItsErrorsAreInTheSamePlaces() throws {
    let (marked, plain, folder) = try runs(
      fixture: "format-map-invalid", file: "typos.map.json")
    #expect(plain.status == 2 && plain.standardError.hasPrefix("typos.map.json:2:11: error"))
    #expect(marked.status == plain.status)
    #expect(marked.standardError.replacing(folder, with: "") == plain.standardError)
  }

  @Test func aMistakeOnTheFirstLineIsAtTheColumnAnEditorShows() throws {
    let directory = try TemporaryDirectory()
    let mark = "\u{FEFF}"
    try directory.write("m.map.json", mark + #"{"type": 1}"#)
    try directory.write("s.json", mark + #"{"domains": 1}"#)
    try directory.write("e.json", mark + #"{"actionsById": 1}"#)
    try directory.write("events.jsonl", "")
    let map = CommandRun.run(["replay", "--map", "m.map.json", "events.jsonl"], in: directory.path)
    #expect(
      map.standardError.hasPrefix("m.map.json:1:10: error: at type: "), "\(map.standardError)")
    let spec = CommandRun.run(["replay", "--spec", "s.json", "events.jsonl"], in: directory.path)
    #expect(spec.standardError.hasPrefix("s.json:1:13: "), "\(spec.standardError)")
    let export = CommandRun.run(
      ["replay", "--log-format", "devtools", "e.json"], in: directory.path)
    #expect(export.standardError.hasPrefix("e.json:1:17: "), "\(export.standardError)")
  }
}
