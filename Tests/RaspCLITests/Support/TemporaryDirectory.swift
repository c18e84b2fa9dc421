import Foundation

/// A fresh directory under the system's temporary directory, removed when released.
final class TemporaryDirectory: Sendable {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("rasp-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// The path of a file in the directory.
  func file(_ name: String) -> String { path + "/" + name }

  /// Writes a file in the directory.
  func write(_ name: String, _ text: String) throws {
    try text.write(toFile: file(name), atomically: false, encoding: .utf8)
  }

  /// The bytes of a file in the directory, or `nil` when it does not exist.
  func bytes(_ name: String) -> [UInt8]? {
    FileManager.default.contents(atPath: file(name)).map { Array($0) }
  }

  /// The names of the files in the directory, hidden ones included, sorted.
  var names: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }
}
