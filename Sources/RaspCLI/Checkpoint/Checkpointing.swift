#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspJSON
import RaspReplay

/// The checkpoints of one `rasp replay`: the file it resumes from, checked against its logs,
/// and the one it saves, written atomically each time the replay yields a checkpoint.
///
/// ```swift
/// var checkpointing = try Checkpointing(options, environment: environment)
/// let rest = checkpointing.startOffsets   // where each log is read from
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

  /// Reads and checks the checkpoint to resume from, if the options name one.
  ///
  /// - Throws: ``RaspCommandError`` for a checkpoint that cannot be read, is not one, was
  ///   saved with other options or other logs, or whose logs changed before its offsets.
  init(_ options: ReplayOptions, environment: RaspEnvironment) throws(RaspCommandError) {
    self.options = options.checkpointOptions
    saveFile = options.saveStateFile
    inputs = zip(options.files, options.displayNames).map {
      CheckpointInput(name: $1, path: environment.resolve($0))
    }
    guard let file = options.resumeFile else {
      resumed = nil
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
    for (index, saved) in checkpoint.inputs.enumerated() {
      let name = saved.name
      let read: LogHash?
      do {
        // The bytes before the offset, where the replay goes on, and then those it read ahead.
        let isLongEnough = try inputs[index].skip(bytes: saved.offset, line: saved.line)
        read = isLongEnough ? try inputs[index].hash(ofFirst: saved.hashed) : nil
      } catch {
        throw .cannotOpen(name, reason: error.message)
      }
      guard let read else {
        let what =
          saved.hashed == saved.offset
          ? "the checkpoint's offset (\(saved.offset) bytes)"
          : "the \(saved.hashed) bytes the checkpoint read"
        throw .failure(
          "'\(name)' is shorter than \(what) in '\(file)': it was truncated or replaced since; "
            + "replay it from the start")
      }
      guard read.hexadecimal == saved.hash else {
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
    try Self.checkRange(of: options, against: checkpoint, file: file)
    resumed = checkpoint
  }

  /// Refuses a checkpoint past the place of `--at` or `--until`: its state is after events
  /// that the range stops before, and cannot be gone back from. A checkpoint at or before the
  /// place is where the replay starts instead of the first line. (`--since` takes any: before
  /// it, the events up to it are applied without a line, as in a whole replay; after it, the
  /// replay prints what a whole one prints after the checkpoint.)
  private static func checkRange(
    of options: ReplayOptions, against saved: CheckpointFile, file: String
  ) throws(RaspCommandError) {
    let ranges = [("--at", options.configuration.at), ("--until", options.configuration.until)]
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
        "the checkpoint in '\(file)' is past \(option) '\(options.text(of: option))': it was saved "
          + "after event \(saved.checkpoint.events) (\(place)); resume from an earlier checkpoint, "
          + "or replay without --resume")
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

  /// The hash of each log's bytes before ``startOffsets``, which the replay goes on from.
  var hashesBefore: [LogHash] { inputs.map(\.hash) }

  /// Saves a checkpoint the replay yielded, atomically, with the hash of what the replay read
  /// of each log; a log whose offset the replay could not tell (after a line found too long)
  /// is read again to find it, and hashed up to it.
  ///
  /// - Throws: ``RaspCommandError`` when a log cannot be read again, or the file written.
  mutating func save(_ checkpoint: ReplayCheckpoint, environment: RaspEnvironment)
    throws(RaspCommandError)
  {
    guard let saveFile else { return }
    var saved: [CheckpointFile.Input] = []
    for index in inputs.indices {
      let line = checkpoint.lines[index]
      var offset = checkpoint.offsets[index]
      let hash: LogHash
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
    let file = CheckpointFile(options: options, inputs: saved, checkpoint: checkpoint)
    try environment.writeFileAtomically(saveFile, bytes: file.bytes)
  }
}
