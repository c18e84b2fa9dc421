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
  public func makeAtomicWriter(_ path: String) throws(RaspCommandError) -> RaspAtomicFileWriter {
    try RaspAtomicFileWriter(path: path, resolvedPath: resolve(path), fault: writeFault)
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
    guard let value = variables["CI"] else { return false }
    return !value.isEmpty && value != "0" && value.lowercased() != "false"
  }
}
