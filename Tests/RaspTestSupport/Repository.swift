/// The repository's root, found from this file's path, for tests that read its fixtures and
/// docs.
public enum Repository {
  /// The root's absolute path.
  public static let root: String = {
    var path = #filePath
    for _ in 0..<3 {
      guard let slash = path.lastIndex(of: "/") else { break }
      path = String(path[..<slash])
    }
    return path
  }()

  /// The absolute path of `relative`, a path from the root.
  public static func path(_ relative: String) -> String { root + "/" + relative }
}
