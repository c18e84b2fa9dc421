#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspReplay

extension RaspEnvironment {
  /// Starts writing a file atomically: the bytes go to a temporary file beside it, which
  /// replaces it only when committed.
  ///
  /// Readers of the file see either the old file or the whole new one, and a failure or an
  /// interruption leaves the old file as it was. See ``RaspAtomicFileWriter``.
  ///
  /// ```swift
  /// let file = try environment.makeAtomicWriter("expected.jsonl")
  /// try file.write(snapshotLines)
  /// try file.commit()
  /// ```
  ///
  /// - Parameter path: The path as the user wrote it.
  /// - Returns: A writer whose temporary file exists.
  /// - Throws: ``RaspCommandError/cannotWrite(_:reason:)`` when the temporary file cannot be
  ///   created.
  ///
  /// A symbolic link is followed: the file it points to is replaced, and the link stays.
  public func makeAtomicWriter(_ path: String) throws(RaspCommandError) -> RaspAtomicFileWriter {
    try RaspAtomicFileWriter(
      path: path, resolvedPath: followingLinks(resolve(path)), fault: writeFault)
  }

  /// The file a path names once symbolic links are followed, or the path itself when it is no
  /// link (or a dangling one).
  private func followingLinks(_ path: String) -> String {
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
      let real = realpath(path, nil)
    else { return path }
    defer { free(real) }
    return String(cString: real)
  }

  /// Whether two paths name the same existing file (the same device and inode), as
  /// `--golden events.jsonl` and the log `./events.jsonl` do.
  ///
  /// ```swift
  /// environment.isSameFile("expected.jsonl", "./expected.jsonl")   // true
  /// ```
  ///
  /// - Parameters:
  ///   - first: A path as the user wrote it.
  ///   - second: Another path.
  /// - Returns: `true` when both exist and are one file.
  public func isSameFile(_ first: String, _ second: String) -> Bool {
    var a = stat()
    var b = stat()
    guard stat(resolve(first), &a) == 0, stat(resolve(second), &b) == 0 else { return false }
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino
  }

  /// Replaces a file's contents in one step: the old file or the new one, never a part.
  ///
  /// ```swift
  /// try environment.writeFileAtomically("expected.jsonl", bytes: Array("{}\n".utf8))
  /// ```
  ///
  /// - Parameters:
  ///   - path: The path as the user wrote it.
  ///   - bytes: The file's new contents.
  /// - Throws: ``RaspCommandError/cannotWrite(_:reason:)``; the old file is then unchanged.
  public func writeFileAtomically(_ path: String, bytes: [UInt8]) throws(RaspCommandError) {
    let file = try makeAtomicWriter(path)
    try file.write(bytes)
    try file.commit()
  }

  /// Whether the command runs in continuous integration: `CI` is set to anything but an empty
  /// string, `0` or `false` (as GitHub Actions, GitLab CI, CircleCI and others set it).
  ///
  /// ```swift
  /// RaspEnvironment(…, variables: ["CI": "true"]).isContinuousIntegration   // true
  /// ```
  public var isContinuousIntegration: Bool {
    Self.isContinuousIntegration(variables: variables)
  }

  /// Whether `variables` say that a command runs in continuous integration (see
  /// ``isContinuousIntegration``).
  static func isContinuousIntegration(variables: [String: String]) -> Bool {
    guard let value = variables["CI"] else { return false }
    return !value.isEmpty && value != "0" && value.lowercased() != "false"
  }
}
