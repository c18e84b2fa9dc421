import RaspJSON

/// Writes one record of a replay into the output: a selected value or the snapshot, whole or
/// as a diff from the stream's last record, alone or with the event (`--with-event`) and the
/// key (`--key-by`).
///
/// The shapes, members in key order as rasp writes every object:
///
/// | options                     | record                                                    |
/// |-----------------------------|-----------------------------------------------------------|
/// | (none)                      | the snapshot, or the selected value                       |
/// | `--key-by`                  | `{"key":…,"state":…}` or `{"key":…,"value":…}`            |
/// | `--with-event`              | `{"event":…,"file":…,"line":…,"seq":…,"state":…}`         |
/// | `--emit diff`               | `[{"op":…,"path":…,"value":…},…]`                         |
/// | `--emit diff --with-event`  | `{"diff":[…],"event":…,"file":…,"line":…,"seq":…}`        |
///
/// (`key` joins the members of a keyed replay's records with the event.) The diff is the
/// stream's (``RecordDiffer``), which moves on to the record written; with `changesOnly`, a
/// record whose diff is empty is not written at all.
///
/// ```swift
/// let records = RecordWriter(includesEvent: false, changesOnly: false, inputNames: ["a.jsonl"])
/// var pendingSeq: Int?
/// let record = records.write(
///   value: nil, event: nil, key: nil, of: &stream, snapshot: .kept, to: &writer,
///   pendingSeqAt: &pendingSeq)
/// ```
struct RecordWriter {
  /// Whether records hold their event, its file, line and number (`--with-event`).
  let includesEvent: Bool
  /// Whether a diff that is empty writes no record (`--changes-only`).
  let changesOnly: Bool
  /// The inputs' names, for a record's `file`.
  let inputNames: [String]

  /// How the snapshot of a record is encoded.
  enum SnapshotWriting {
    /// From the stream's text, which keeps what it encoded: only the domains that changed
    /// since the stream's last record are encoded again.
    case kept
    /// As ``kept``, and the text's place noted for the kernel's look ahead
    /// (``ReplayStream/textInMemory``).
    case keptForLookAhead
    /// Encoded for this record and not kept: a keyed replay's `--final` record, written once
    /// per key.
    case once
  }

  /// Writes the record of `stream`'s current state, or of `value`, to `writer`.
  ///
  /// - Parameters:
  ///   - value: A selected value's canonical JSON; `nil` for the snapshot.
  ///   - event: The event's bytes, for `--with-event`; `nil` when there is none (a key's
  ///     record before any event) — `null`.
  ///   - key: The key's canonical JSON, in a keyed replay.
  ///   - stream: The stream whose record it is: its snapshot, text, diff and last event's
  ///     place.
  ///   - snapshot: How the snapshot is encoded.
  ///   - writer: The output the record is appended to.
  ///   - pendingSeq: Set to the offset in `writer` where the record's `seq` belongs, when
  ///     the stream's last event's number is not known yet (``ReplayStream/EventNumber``).
  /// - Returns: The record's place in `writer`, and its event's; `nil` when no record is
  ///   written.
  func write(
    value: [UInt8]?, event: UnsafeBufferPointer<UInt8>?, key: ArraySlice<UInt8>?,
    of stream: inout ReplayStream, snapshot: SnapshotWriting, to writer: inout JSONWriter,
    pendingSeqAt pendingSeq: inout Int?
  ) -> ReplayRecord? {
    let start = writer.bytes.count
    if stream.differ != nil {
      let operations: [JSONValue]
      if let value {
        operations = stream.differ?.advance(value: value) ?? []
      } else {
        let state = stream.pipeline.current
        let domains = state.domainNames.indices.map {
          stream.text.domain(at: $0, of: state, spare: &writer)
        }
        operations = stream.differ?.advance(domains: domains) ?? []
      }
      if changesOnly, operations.isEmpty { return nil }
      if includesEvent || key != nil {
        writer.writeRaw("{\"diff\":")
        writer.write(.array(operations))
        if includesEvent {
          writer.writeRaw(",")
          writeEventMembers(event, key: key, of: stream, to: &writer, pendingSeqAt: &pendingSeq)
        } else if let key {
          writer.writeRaw(",\"key\":")
          writer.writeRaw(key)
        }
        writer.writeRaw("}")
      } else {
        writer.write(.array(operations))
      }
    } else if includesEvent || key != nil {
      writer.writeRaw("{")
      if includesEvent {
        writeEventMembers(event, key: key, of: stream, to: &writer, pendingSeqAt: &pendingSeq)
        writer.writeRaw(",")
      } else if let key {
        writer.writeRaw("\"key\":")
        writer.writeRaw(key)
        writer.writeRaw(",")
      }
      writer.writeRaw(value == nil ? "\"state\":" : "\"value\":")
      writeValue(value, of: &stream, snapshot: snapshot, to: &writer)
      writer.writeRaw("}")
    } else {
      writeValue(value, of: &stream, snapshot: snapshot, to: &writer)
    }
    return ReplayRecord(
      range: start..<writer.bytes.count, seq: stream.lastSeq.recordValue,
      input: stream.lastInput, line: stream.lastLine)
  }

  /// Writes a selected value, or the stream's snapshot when it is `nil`.
  @inline(__always)
  private func writeValue(
    _ value: [UInt8]?, of stream: inout ReplayStream, snapshot: SnapshotWriting,
    to writer: inout JSONWriter
  ) {
    if let value {
      writer.writeRaw(value)
      return
    }
    switch snapshot {
    case .once:
      stream.text.writeOnce(stream.pipeline.current, to: &writer)
    case .kept:
      stream.text.write(stream.pipeline.current, to: &writer)
    case .keptForLookAhead:
      stream.text.write(stream.pipeline.current, to: &writer)
      stream.textInMemory = stream.text.inMemory
    }
  }

  /// Writes `"event":…,"file":…,"key":…,"line":…,"seq":…`, the members a record with its event
  /// has besides its value (`key` in a keyed replay), in key order.
  private func writeEventMembers(
    _ event: UnsafeBufferPointer<UInt8>?, key: ArraySlice<UInt8>?, of stream: ReplayStream,
    to writer: inout JSONWriter, pendingSeqAt pendingSeq: inout Int?
  ) {
    writer.writeRaw("\"event\":")
    writer.write(event.flatMap { try? JSONParser.parse($0) } ?? .null)
    writer.writeRaw(",\"file\":")
    if let input = stream.lastInput {
      writer.writeString(inputNames[input])
    } else {
      writer.writeNull()
    }
    if let key {
      writer.writeRaw(",\"key\":")
      writer.writeRaw(key)
    }
    writer.writeRaw(",\"line\":")
    if let line = stream.lastLine { writer.writeInteger(Int64(line)) } else { writer.writeNull() }
    writer.writeRaw(",\"seq\":")
    switch stream.lastSeq.state {
    case .known(let number):
      writer.writeInteger(Int64(number))
    case .pending:
      // Not known yet, in a kernel with a share of the keys: the pool writes it here.
      pendingSeq = writer.bytes.count
    }
  }
}
