import Foundation

/// The repository's root: the nearest folder above this file that holds `Package.swift`, so
/// that a test finds the fixtures however deep in the test folders its own file is.
let repositoryRoot: URL = {
  var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  while folder.path != "/",
    !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
  {
    folder = folder.deletingLastPathComponent()
  }
  return folder
}()
