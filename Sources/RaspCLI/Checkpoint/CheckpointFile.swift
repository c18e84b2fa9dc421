import RaspDomains
import RaspJSON
import RaspReplay

/// A checkpoint as `rasp replay --save-state` writes it and `--resume` reads it: one JSON
/// document.
///
/// ```json
/// {"events":20,"format":"rasp-checkpoint","inputs":[{"hash":"…","hashed":1742,"line":20,
///  "name":"events.jsonl","offset":1742,"size":1742}],"options":{…},"records":20,
///  "state":{…},"version":2}
/// ```
///
/// - `options`: the options the state depends on (``ReplayOptions/checkpointOptions``); a
///   resume with others is refused, naming the option.
/// - `inputs`: for each log, its name, the byte after the last line the replay handled
///   (`offset`), that line's number (`line`), the hash (16 hexadecimal digits of
///   ``RaspReplay/SegmentedLogHash``) of the log's first `hashed` bytes — what the replay had
///   read, at least up to `offset` — and the log's size when it was saved. Version 1 had no
///   `hashed`, and its hash is one ``RaspReplay/LogHash`` of the bytes before `offset`; it is
///   still read.
/// - `events`, `records`: the events applied and the lines printed up to there.
/// - `state`: the kernel's state of every stream (``RaspReplay/ReplayCheckpoint/state``).
struct CheckpointFile {
  /// What the file says it is.
  static let formatName = "rasp-checkpoint"
  /// The version this rasp writes; it reads it and version 1.
  static let version = 2

  /// One log's place.
  struct Input: Equatable {
    var name: String
    var offset: Int
    var line: Int
    var hash: String
    /// How many of the log's first bytes ``hash`` is of: at least ``offset``.
    var hashed: Int
    var size: Int
    /// The time of the last line, as the merge orders lines
    /// (``RaspReplay/ReplayCheckpoint/times``).
    var time: RaspTimestamp?
  }

  /// The version the file was written in: how its hashes were made.
  var version: Int
  var options: JSONObject
  var inputs: [Input]
  var checkpoint: ReplayCheckpoint
  /// The lines printed up to the checkpoint, which differ from its records when a record is
  /// printed over several lines (`--pretty`, a `[]` path, `-r`); `nil` in a checkpoint that
  /// does not say, such as one saved by an earlier rasp.
  var lines: Int?

  /// The document's bytes: canonical JSON, with a line end.
  var bytes: [UInt8] {
    let inputs = inputs.map { input -> JSONValue in
      .object(
        JSONObject(sortedMembers: [
          ("hash", .string(input.hash)), ("hashed", .number(JSONNumber(input.hashed))),
          ("line", .number(JSONNumber(input.line))),
          ("name", .string(input.name)), ("offset", .number(JSONNumber(input.offset))),
          ("size", .number(JSONNumber(input.size))), ("time", Self.json(input.time)),
        ]))
    }
    let document = JSONValue.object(
      JSONObject(
        sortedMembers: [
          ("events", .number(JSONNumber(checkpoint.events))),
          ("format", .string(Self.formatName)),
          ("inputs", .array(inputs)),
        ] + (lines.map { [("lines", .number(JSONNumber($0)))] } ?? []) + [
          ("options", .object(options)),
          ("records", .number(JSONNumber(checkpoint.records))),
          ("state", checkpoint.state),
          ("version", .number(JSONNumber(Self.version))),
        ]))
    var writer = JSONWriter()
    writer.write(document)
    writer.writeRaw("\n")
    return writer.bytes
  }

  /// Reads a checkpoint file's bytes.
  ///
  /// - Parameters:
  ///   - bytes: The file's bytes.
  ///   - file: Its name, for messages.
  /// - Throws: ``RaspCommandError/invalidFile(_:line:column:path:reason:)`` naming the place
  ///   (a line and column for bad JSON, a JSON path for a member that is wrong).
  init(parsing bytes: [UInt8], file: String) throws(RaspCommandError) {
    let value: JSONValue
    do {
      value = try JSONParser.parse(bytes, maximumDepth: JSONLimits.maximumWrittenDepth)
    } catch {
      let position = bytes.withUnsafeBufferPointer {
        JSONTextPosition(offset: error.offset, in: $0)
      }
      throw .invalidFile(
        file, line: position.line, column: position.column, path: nil,
        reason: "not a checkpoint: \(error.reason)")
    }
    do throws(RaspStateError) {
      let root = RaspStateValue(value)
      guard case .object = value,
        try root.optionalMember("format")?.value == .string(Self.formatName)
      else {
        throw root.error(
          "not a checkpoint of 'rasp replay --save-state': no \"format\":\"\(Self.formatName)\"")
      }
      let version = try root.member("version")
      let number = try version.integer()
      self.version = number
      guard number == 1 || number == Self.version else {
        throw version.error(
          "a checkpoint of version \(version.value), which this rasp cannot read (it reads "
            + "versions 1 and \(Self.version)): save it again with this rasp")
      }
      options = try root.member("options").object()
      inputs = []
      for entry in try root.member("inputs").array() {
        func count(_ key: String) throws(RaspStateError) -> Int {
          try entry.member(key).count()
        }
        let hash = try entry.member("hash")
        let text = try hash.string()
        guard text.utf8.count == 16, UInt64(text, radix: 16) != nil else {
          throw hash.error("expected 16 hexadecimal digits, found '\(text)'")
        }
        let offset = try count("offset")
        let hashed = number == 1 ? offset : try count("hashed")
        guard hashed >= offset else {
          throw try entry.member("hashed").error(
            "expected at least the offset, \(offset) bytes, found \(hashed)")
        }
        inputs.append(
          Input(
            name: try entry.member("name").string(), offset: offset, line: try count("line"),
            hash: text, hashed: hashed, size: try count("size"),
            time: try Self.time(entry.member("time"))))
      }
      checkpoint = ReplayCheckpoint(
        lines: inputs.map(\.line), offsets: inputs.map(\.offset), times: inputs.map(\.time),
        events: try root.member("events").count(),
        records: try root.member("records").count(), state: try root.member("state").value)
      lines = try root.optionalMember("lines")?.count()
    } catch {
      throw .invalidFile(
        file, line: nil, column: nil, path: error.path.isEmpty ? nil : error.path,
        reason: error.reason)
    }
  }

  /// A time as a checkpoint writes it: `{"nanoseconds":…,"seconds":…}`, or `null`.
  static func json(_ time: RaspTimestamp?) -> JSONValue {
    guard let time else { return .null }
    return .object(
      JSONObject(sortedMembers: [
        ("nanoseconds", .number(JSONNumber(Int(time.nanoseconds)))),
        ("seconds", .number(JSONNumber(time.seconds))),
      ]))
  }

  /// A time read back.
  static func time(_ value: RaspStateValue) throws(RaspStateError) -> RaspTimestamp? {
    guard !value.isNull else { return nil }
    let nanoseconds = try value.member("nanoseconds")
    guard let fraction = Int32(exactly: try nanoseconds.integer()),
      (0..<1_000_000_000).contains(fraction)
    else { throw nanoseconds.error("expected a count of nanoseconds below 1000000000") }
    return RaspTimestamp(
      seconds: Int64(try value.member("seconds").integer()), nanoseconds: fraction)
  }

  /// A checkpoint to write.
  init(options: JSONObject, inputs: [Input], checkpoint: ReplayCheckpoint, lines: Int?) {
    version = Self.version
    self.options = options
    self.inputs = inputs
    self.checkpoint = checkpoint
    self.lines = lines
  }
}
