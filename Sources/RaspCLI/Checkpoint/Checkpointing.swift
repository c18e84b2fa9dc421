#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Dispatch
import Rasp
import RaspJSON
import RaspReplay

/// The checkpoints of one `rasp replay`: the file it resumes from, checked against its logs,
/// and the one it saves, written atomically each time the replay yields a checkpoint.
///
/// The logs' bytes before the checkpoint's offsets are hashed on a thread of their own while
/// the replay goes on from the offsets; the replay prints nothing, and saves nothing, before
/// they are found unchanged (``finishChecking()``).
///
/// ```swift
/// var checkpointing = try Checkpointing(options, environment: environment)
/// let rest = checkpointing.startOffsets   // where each log is read from
/// try checkpointing.finishChecking()       // before the first line printed
/// try checkpointing.save(checkpoint, environment: environment)
/// ```
struct Checkpointing {
  /// Each log's place, as of the last checkpoint saved or resumed from.
  private var inputs: [CheckpointInput]
  /// The options the state depends on.
  private let options: JSONObject
  /// Where to save, or `nil`.
  private let saveFile: String?
  /// The checkpoint resumed from, if any.
  let resumed: CheckpointFile?
  /// The check of the logs against the checkpoint resumed from, until it is finished.
  private var checking: Checking?

  /// Reads and checks the checkpoint to resume from, if the options name one.
  ///
  /// Whether its logs changed is told by ``finishChecking()``; the check goes on meanwhile.
  ///
  /// - Throws: ``RaspCommandError`` for a checkpoint that cannot be read, is not one, was
  ///   saved with other options or other logs, or whose logs are shorter than what it read.
  init(_ options: ReplayOptions, environment: RaspEnvironment) throws(RaspCommandError) {
    self.options = options.checkpointOptions
    saveFile = options.saveStateFile
    inputs = zip(options.files, options.displayNames).map {
      CheckpointInput(name: $1, path: environment.resolve($0))
    }
    if let saveFile {
      // Found now rather than after the whole replay: a folder that is missing or read-only
      // (the temporary file that a save writes cannot be made there), or a folder's name.
      var status = stat()
      if stat(environment.resolve(saveFile), &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
        throw .cannotWrite(saveFile, reason: RaspSystemError.message(EISDIR))
      }
      // Its temporary file is removed again when the writer is released.
      _ = try environment.makeAtomicWriter(saveFile)
    }
    guard let file = options.resumeFile else {
      resumed = nil
      checking = nil
      return
    }
    let checkpoint = try CheckpointFile(parsing: environment.readFile(file), file: file)
    try Self.checkOptions(checkpoint.options, against: self.options, file: file)
    guard checkpoint.inputs.map(\.name) == inputs.map(\.name) else {
      let saved = checkpoint.inputs.map { "'\($0.name)'" }.joined(separator: ", ")
      throw .failure(
        "cannot resume from '\(file)': it is a checkpoint of \(saved), not of "
          + inputs.map { "'\($0.name)'" }.joined(separator: ", "))
    }
    for (input, saved) in zip(inputs, checkpoint.inputs) {
      guard let size = input.size() else {
        throw .cannotOpen(saved.name, reason: String(cString: strerror(errno)))
      }
      guard size >= saved.hashed else {
        throw .failure(
          "'\(saved.name)' is shorter than \(Self.describe(read: saved)) in '\(file)': it was "
            + "truncated or replaced since; replay it from the start")
      }
    }
    try Self.checkRange(of: options, against: checkpoint, file: file)
    resumed = checkpoint
    checking = Checking(
      inputs, against: checkpoint.inputs, isVersion1: checkpoint.version == 1, file: file)
  }

  /// What a checkpoint read of a log: its bytes up to the offset, or on from it.
  private static func describe(read saved: CheckpointFile.Input) -> String {
    saved.hashed == saved.offset
      ? "the checkpoint's offset (\(saved.offset) bytes)"
      : "the \(saved.hashed) bytes the checkpoint read"
  }

  /// Waits for the check of the logs against the checkpoint resumed from, if it is not over.
  ///
  /// - Throws: ``RaspCommandError`` when a log changed in what the checkpoint read, or cannot
  ///   be read.
  mutating func finishChecking() throws(RaspCommandError) {
    guard let checking else { return }
    self.checking = nil
    inputs = try checking.result()
  }

  /// The check of a checkpoint's logs, on a thread of its own: each log's bytes up to the
  /// offset hashed, where the next checkpoint goes on from, and on up to what the checkpoint
  /// read, to compare with its hash.
  private final class Checking: Sendable {
    /// What the checking thread found, `nil` until it is done: the one value the two threads
    /// share, waited for under its lock.
    private let outcome = RaspMutex<Result<[CheckpointInput], RaspCommandError>?>(nil)

    init(
      _ inputs: [CheckpointInput], against saved: [CheckpointFile.Input], isVersion1: Bool,
      file: String
    ) {
      DispatchQueue.global(qos: .userInitiated).async { [self] in
        let result = Result { () throws(RaspCommandError) in
          try Self.check(inputs, against: saved, isVersion1: isVersion1, file: file)
        }
        outcome.withLock { $0 = result }
      }
    }

    /// The logs at the checkpoint's offsets, once they are found unchanged.
    func result() throws(RaspCommandError) -> [CheckpointInput] {
      let result = outcome.withLock(when: { $0 != nil }) { outcome, _ in outcome }
      switch result {
      case .success(let inputs)?: return inputs
      case .failure(let error)?: throw error
      case nil: return []
      }
    }

    /// Checks each log's first bytes against the checkpoint's hash; a checkpoint of version 1
    /// leaves the logs at their start, where the next checkpoint hashes them from.
    private static func check(
      _ inputs: [CheckpointInput], against checkpoint: [CheckpointFile.Input], isVersion1: Bool,
      file: String
    ) throws(RaspCommandError) -> [CheckpointInput] {
      var inputs = inputs
      for (index, saved) in checkpoint.enumerated() {
        let name = saved.name
        let read: String?
        do throws(CheckpointInput.ReadError) {
          if isVersion1 {
            read = try inputs[index].plainHash(ofFirst: saved.offset)?.hexadecimal
          } else {
            read = try inputs[index].resume(
              at: saved.offset, line: saved.line, hashedUpTo: saved.hashed)?.hexadecimal
          }
        } catch {
          throw .cannotOpen(name, reason: error.message)
        }
        guard let read else {
          throw .failure(
            "'\(name)' is shorter than \(describe(read: saved)) in '\(file)': it was truncated "
              + "or replaced since; replay it from the start")
        }
        guard read == saved.hash else {
          let place =
            saved.hashed == saved.offset
            ? "before the checkpoint's offset (\(saved.offset) bytes)"
            : "in the first \(saved.hashed) bytes, which the checkpoint read (its offset is "
              + "\(saved.offset))"
          throw .failure(
            "'\(name)' changed \(place) in '\(file)': its first bytes are not those the "
              + "checkpoint read; replay it from the start")
        }
      }
      return inputs
    }
  }

  /// Refuses a checkpoint past the place of `--at` or `--until`: its state is after events
  /// that the range stops before, and cannot be gone back from. A checkpoint at or before the
  /// place is where the replay starts instead of the first line. (`--since` takes any: before
  /// it, the events up to it are applied without a line, as in a whole replay; after it, the
  /// replay prints what a whole one prints after the checkpoint.)
  private static func checkRange(
    of options: ReplayOptions, against saved: CheckpointFile, file: String
  ) throws(RaspCommandError) {
    let ranges = [
      (RaspOptionName.at, options.configuration.at), (.until, options.configuration.until),
    ]
    for case let (option, position?) in ranges {
      let isPast: Bool
      switch position {
      case .event(let number): isPast = saved.checkpoint.events > number
      case .line(let input, let line): isPast = saved.checkpoint.lines[input] > line
      case .time(let time):
        isPast = saved.checkpoint.times.contains { $0.map { $0 > time } ?? false }
      }
      guard isPast else { continue }
      let place = zip(saved.inputs.map(\.name), saved.checkpoint.lines).map { "'\($0)' line \($1)" }
        .joined(separator: ", ")
      throw .failure(
        "the checkpoint in '\(file)' is past --\(option.rawValue) '\(options.text(of: option))': "
          + "it was saved after event \(saved.checkpoint.events) (\(place)); resume from an "
          + "earlier checkpoint, or replay without --resume")
    }
  }

  /// Refuses a checkpoint saved with options the state depends on that differ from these.
  private static func checkOptions(
    _ saved: JSONObject, against current: JSONObject, file: String
  ) throws(RaspCommandError) {
    for key in Set(saved.keys + current.keys).sorted() where saved[key] != current[key] {
      throw .failure(
        "cannot resume from '\(file)': it was saved \(describe(key, saved[key])), not "
          + "\(describe(key, current[key])); resume with the options it was saved with")
    }
  }

  /// An option as a command line gives it: `with '--select geo.heading'`, `without '--strict'`.
  private static func describe(_ option: String, _ value: JSONValue?) -> String {
    switch value {
    case .string(let text)?: return "with '--\(option) \(text)'"
    case .bool(true)?: return "with '--\(option)'"
    case .array(let values)? where !values.isEmpty:
      let texts = values.map { value -> String in
        if case .string(let text) = value { return text }
        return "\(value)"
      }
      return "with '--\(option) \(texts.joined(separator: ","))'"
    default: return "without '--\(option)'"
    }
  }

  /// The byte each log is read from: after the checkpoint's last line, or 0.
  var startOffsets: [Int] {
    resumed?.inputs.map(\.offset) ?? inputs.map { _ in 0 }
  }

  /// Saves a checkpoint the replay yielded, atomically, with the hash of what the replay read
  /// of each log; a log whose offset the replay could not tell (after a line found too long)
  /// is read again to find it, and hashed up to it.
  ///
  /// - Parameters:
  ///   - checkpoint: The checkpoint.
  ///   - linesWritten: The lines this run printed before it, if the output counts them: the
  ///     checkpoint's `lines` adds those printed before the checkpoint resumed from (or its
  ///     records, for one that does not say).
  ///   - environment: Where to read the logs and write the file.
  /// - Throws: ``RaspCommandError`` when a log cannot be read again, or the file written.
  mutating func save(
    _ checkpoint: ReplayCheckpoint, linesWritten: Int?, environment: RaspEnvironment
  ) throws(RaspCommandError) {
    guard let saveFile else { return }
    try finishChecking()
    var saved: [CheckpointFile.Input] = []
    for index in inputs.indices {
      let line = checkpoint.lines[index]
      var offset = checkpoint.offsets[index]
      let hash: SegmentedLogHash
      if offset >= 0, index < checkpoint.readHashes.count,
        let read = checkpoint.readHashes[index], read.count >= offset
      {
        hash = read
      } else {
        do {
          try inputs[index].advance(toLine: line, endingAt: offset)
        } catch {
          throw .cannotOpen(inputs[index].name, reason: error.message)
        }
        offset = inputs[index].offset
        hash = inputs[index].hash
      }
      let input = inputs[index]
      saved.append(
        CheckpointFile.Input(
          name: input.name, offset: offset, line: line, hash: hash.hexadecimal,
          hashed: Int(hash.count), size: input.size() ?? offset, time: checkpoint.times[index]))
    }
    let linesBefore = resumed.map { $0.lines ?? $0.checkpoint.records } ?? 0
    let file = CheckpointFile(
      options: options, inputs: saved, checkpoint: checkpoint,
      lines: linesWritten.map { linesBefore + $0 })
    try environment.writeFileAtomically(saveFile, bytes: file.bytes)
  }
}
