/// One event log a replay reads: its name for messages, and where its bytes come from.
///
/// A file is read in large blocks, as fast as it goes. A live input — a pipe, a socket, a
/// terminal, or a file followed as it grows — is read as its lines arrive: each line is
/// replayed as soon as its line end is read, and the replay yields ``ReplayOutcome/waiting``
/// whenever it is about to wait for more.
///
/// ```swift
/// let input = ReplayInput(name: "<stdin>", source: .descriptor(0))   // live when a pipe
/// let log = try ReplayInput.following("/var/log/app.jsonl", name: "app.jsonl")
/// ```
public struct ReplayInput: Sendable {
  /// The input's name in messages: a path as the user wrote it, or `<stdin>`.
  ///
  /// ```swift
  /// input.name   // "events.jsonl"
  /// ```
  public let name: String
  /// Where the bytes come from, unless the input is followed.
  let source: RaspInputSource?
  /// The followed file, for ``following(_:name:)``.
  let followed: FollowedFile?
  /// Whether the input is read as its lines arrive.
  ///
  /// ```swift
  /// ReplayInput(name: "<stdin>", source: .descriptor(0)).isLive   // true for a pipe
  /// ```
  public let isLive: Bool

  /// An input read from `source`.
  ///
  /// ```swift
  /// let input = ReplayInput(name: "events.jsonl", source: try environment.openForReading(path))
  /// ```
  ///
  /// - Parameters:
  ///   - name: The name for messages.
  ///   - source: Where the bytes come from.
  ///   - isLive: Whether to read the lines as they arrive; by default, when `source` is a
  ///     pipe, a socket or a terminal. Pass `false` only for a source whose reads never wait:
  ///     a replay waits for a read that waits, and cannot stop it.
  public init(name: String, source: RaspInputSource, isLive: Bool? = nil) {
    self.name = name
    self.source = source
    self.followed = nil
    self.isLive = isLive ?? source.isLive
  }

  /// A file read as it grows, like `tail -F`: at its end the replay waits for more, and when
  /// the file is replaced (rotated) or truncated, it says so and goes on from the new start.
  /// Only a ``ReplayInterruption`` ends it.
  ///
  /// ```swift
  /// let input = try ReplayInput.following("logs/app.jsonl", name: "app.jsonl")
  /// ```
  ///
  /// - Parameters:
  ///   - path: The file's path.
  ///   - name: The name for messages.
  /// - Returns: The input.
  /// - Throws: ``RaspInputError`` when the file cannot be opened.
  public static func following(_ path: String, name: String) throws(RaspInputError) -> ReplayInput {
    let file = try FollowedFile(path: path, name: name)
    // A pipe or a device has no size to watch: it is read as it arrives, as standard input is.
    if let special = file.takeSpecialFile() {
      return ReplayInput(name: name, source: .file(special), isLive: true)
    }
    return ReplayInput(name: name, followed: file)
  }

  private init(name: String, followed: FollowedFile) {
    self.name = name
    self.source = nil
    self.followed = followed
    self.isLive = true
  }

  /// Whether the input is a followed file.
  ///
  /// ```swift
  /// try ReplayInput.following("app.log", name: "app.log").isFollowed   // true
  /// ```
  public var isFollowed: Bool { followed != nil }

  /// Whether the input is a terminal, where a person types the events.
  ///
  /// ```swift
  /// ReplayInput(name: "<stdin>", source: .descriptor(0)).isTerminal   // true at a prompt
  /// ```
  public var isTerminal: Bool { source?.isTerminal ?? false }

  /// The number of bytes the replay will read, when known: the rest of a regular file, never
  /// a pipe's or a followed file's, which can grow.
  ///
  /// ```swift
  /// ReplayInput(name: "events.jsonl", source: file).byteCount   // 1742
  /// ```
  public var byteCount: Int? {
    guard followed == nil, !isLive else { return nil }
    return source?.byteCount
  }

  /// The same input, read from byte `offset` on: the rest of a log after a checkpoint.
  ///
  /// ```swift
  /// let rest = try input.startingAt(byte: 1742)
  /// ```
  ///
  /// - Parameter offset: The first byte to read.
  /// - Returns: The input.
  /// - Throws: ``RaspInputError`` when the input is not a file that can be read from there.
  public func startingAt(byte offset: Int) throws(RaspInputError) -> ReplayInput {
    guard offset > 0 else { return self }
    guard followed == nil, let source, source.seek(to: offset) else {
      throw RaspInputError(message: "cannot be read from byte \(offset): it is not a file")
    }
    return self
  }
}
