/// When `rasp check` writes its golden file instead of comparing with it.
///
/// | Mode      | Golden file exists | Golden file missing                      |
/// |-----------|--------------------|------------------------------------------|
/// | `never`   | check              | error, suggesting `--record missing`     |
/// | `missing` | check              | record                                   |
/// | `all`     | record             | record                                   |
///
/// In continuous integration (``RaspEnvironment/isContinuousIntegration``) recording is
/// refused, so that a missing or outdated golden file fails the build instead of being written
/// and passing, unless `RASP_ALLOW_RECORD=1` asks for it explicitly.
///
/// ```swift
/// let action = try RecordMode.missing.action(
///   golden: "expected.jsonl", exists: false, environment: environment)   // .record
/// ```
enum RecordMode: String {
  /// Only compare (the default).
  case never
  /// Record the golden file if it does not exist; compare with it otherwise.
  case missing
  /// Always record the golden file (`--update`).
  case all

  /// What `rasp check` does with its golden file.
  enum Action: Equatable {
    /// Compare the replay with the golden file.
    case check
    /// Write the golden file from the replay.
    case record
  }

  /// The environment variable that allows recording in continuous integration.
  static let allowVariable = "RASP_ALLOW_RECORD"

  /// Decides whether to check or record.
  ///
  /// - Parameters:
  ///   - golden: The golden file's path, as the user wrote it.
  ///   - exists: Whether the golden file exists.
  ///   - environment: The environment, for `CI` and `RASP_ALLOW_RECORD`.
  /// - Returns: The action.
  /// - Throws: ``RaspCommandError/failure(_:)`` when the golden file is missing and may not be
  ///   recorded, or when recording is refused in continuous integration.
  func action(
    golden: String, exists: Bool, environment: RaspEnvironment
  ) throws(RaspCommandError) -> Action {
    switch (self, exists) {
    case (.never, true), (.missing, true):
      return .check
    case (.never, false):
      throw .failure(
        "golden file '\(golden)' does not exist; run with '--record missing' to record it")
    case (.missing, false), (.all, _):
      guard environment.isContinuousIntegration, !Self.allowsRecordingInCI(environment) else {
        return .record
      }
      let ci = "CI=\(environment.variables["CI"] ?? "")"
      if self == .missing {
        throw .failure(
          "golden file '\(golden)' does not exist, and recording is refused in CI (\(ci)); "
            + "record it locally with '--record missing' and commit it, "
            + "or set \(Self.allowVariable)=1"
        )
      }
      throw .failure(
        "refusing to update '\(golden)' in CI (\(ci)); set \(Self.allowVariable)=1 to allow it")
    }
  }

  /// Whether `RASP_ALLOW_RECORD` is `1` or `true`.
  static func allowsRecordingInCI(_ environment: RaspEnvironment) -> Bool {
    guard let value = environment.variables[allowVariable] else { return false }
    return value == "1" || value.lowercased() == "true"
  }
}
