import Rasp
import RaspDomains
import RaspJSON

/// The kernel's part of a checkpoint: the state of every stream, written as JSON and read
/// back.
///
/// A stream is saved as `{"domains":{…},"hasSelected":…,"last":…,"selected":…}`: each
/// domain's state as it writes it; the last event applied to the stream (`seq`, `input`,
/// `line` and its bytes, for `--final --with-event`), or `null`; the last value selected, as
/// text, or `null` (the next event prints its value whatever it is), and whether it is that
/// of the last event (after a hidden one, the next event selects again). A keyed replay saves
/// each key's stream with its key, in the order the keys were first seen.
extension ReplayKernel {
  /// Takes the counts of events applied and records yielded from a checkpoint, so that `seq`
  /// goes on from them, and counts the keys it brought.
  mutating func restoreCount(events: Int, records: Int) {
    seq = events
    self.records = records
    if isKeyed { statistics.keys = keys?.count ?? 0 }
  }

  /// The state of every stream, as JSON: `{"keys":[{"key":…,"stream":…},…]}` in a keyed
  /// replay, `{"stream":…}` otherwise.
  func checkpointState() -> JSONValue {
    guard isKeyed else {
      return .object(
        JSONObject(sortedMembers: [("stream", Self.json(of: streams.pointer(to: 0).pointee))]))
    }
    var keyed: [JSONValue] = []
    let keyList = keys?.allKeys() ?? []
    for (number, key) in keyList.enumerated() where number + 1 < streams.count {
      let value = (try? JSONParser.parse(key)) ?? .null
      keyed.append(
        .object(
          JSONObject(sortedMembers: [
            ("key", value), ("stream", Self.json(of: streams.pointer(to: number + 1).pointee)),
          ])))
    }
    return .object(JSONObject(sortedMembers: [("keys", .array(keyed))]))
  }

  /// A stream as JSON.
  private static func json(of stream: ReplayStream) -> JSONValue {
    let snapshot = stream.pipeline.current
    var domains: [JSONObject.Member] = []
    for index in 0..<snapshot.domainCount {
      let value = (try? JSONParser.parse(snapshot.encodedState(ofDomainAt: index))) ?? .null
      domains.append((snapshot.domainName(at: index), value))
    }
    var last = JSONValue.null
    if let input = stream.lastInput, let line = stream.lastLine {
      last = .object(
        JSONObject(sortedMembers: [
          ("event", .string(String(decoding: stream.lastEventBytes, as: UTF8.self))),
          ("input", .number(JSONNumber(input))), ("line", .number(JSONNumber(line))),
          ("seq", .number(JSONNumber(stream.lastSeq.recordValue))),
        ]))
    }
    var selected = JSONValue.null
    if let value = stream.selector?.last {
      selected = .string(String(decoding: value, as: UTF8.self))
    }
    return .object(
      JSONObject(sortedMembers: [
        ("domains", .object(JSONObject(sortedMembers: domains))),
        ("hasSelected", .bool(stream.hasSelected)), ("last", last), ("selected", selected),
      ]))
  }

  /// Takes the state of every stream from a checkpoint's, and its counts of events and
  /// records.
  ///
  /// - Throws: ``ReplayCheckpointError`` naming the path of what is wrong; the kernel is then
  ///   to be let go.
  ///
  /// - Parameters:
  ///   - state: The state, as ``checkpointState()`` made it.
  ///   - events: The events applied up to the checkpoint.
  ///   - records: The records yielded up to the checkpoint.
  ///   - isBeforeSince: Whether the checkpoint is before `--since`: its events are then
  ///     before it too, and the first event printed selects its value anew.
  mutating func restore(
    from state: JSONValue, events: Int, records: Int, isBeforeSince: Bool
  )
    throws(ReplayCheckpointError)
  {
    let root = RaspStateValue(state)
    do {
      if isKeyed {
        for entry in try root.member("keys").array() {
          let key = try entry.member("key")
          var writer = JSONWriter()
          writer.write(key.value)
          guard let number = keys?.number(ofCanonical: writer.bytes) else { continue }
          switchToKey(number)
          try restore(&streamPointer.pointee, from: try entry.member("stream"))
          if isBeforeSince { Self.selectAnew(&streamPointer.pointee) }
          notifyRestored(keyNumber: number, key: writer.bytes[...])
        }
      } else {
        try restore(&streamPointer.pointee, from: try root.member("stream"))
        if isBeforeSince { Self.selectAnew(&streamPointer.pointee) }
        notifyRestored(keyNumber: -1, key: nil)
      }
    } catch let error as RaspStateError {
      throw ReplayCheckpointError(path: error.path, reason: error.reason)
    } catch {
      throw ReplayCheckpointError(path: "", reason: "\(error)")
    }
    restoreCount(events: events, records: records)
  }

  /// Shows the stream just restored to the state observer (`rasp check --assert --resume`).
  private func notifyRestored(keyNumber: Int, key: ArraySlice<UInt8>?) {
    guard let observer = configuration.stateObserver else { return }
    let stream = streamPointer.pointee
    var last: (seq: Int, input: Int, line: Int)?
    if let input = stream.lastInput, let line = stream.lastLine {
      last = (stream.lastSeq.recordValue, input, line)
    }
    observer.restored(stream.pipeline.current, keyNumber: keyNumber, key: key, last: last)
  }

  /// Forgets the value selected, as a replay does before `--since`: it prints none before,
  /// and prints the first event's after, whatever it is.
  private static func selectAnew(_ stream: inout ReplayStream) {
    stream.hasSelected = false
    stream.selector?.restore(last: nil)
    stream.lastMember = nil
  }

  /// Reads one stream back.
  private func restore(_ stream: inout ReplayStream, from value: RaspStateValue) throws {
    var snapshot = stream.pipeline.current
    let domains = try value.member("domains")
    let saved = try domains.object()
    for index in 0..<snapshot.domainCount {
      let name = snapshot.domainName(at: index)
      guard let state = saved[name] else {
        throw domains.error("missing the state of the domain '\(name)'")
      }
      do {
        try snapshot.restoreState(ofDomainAt: index, from: state)
      } catch {
        throw error.under(RaspStateValue.join(domains.path, key: name))
      }
    }
    if let extra = saved.keys.first(where: { snapshot.domainIndex(named: $0) == nil }) {
      throw domains.error("the domain '\(extra)' is not one of this replay's")
    }
    stream.pipeline.reset(to: snapshot)
    // Where the domains are now, for the look-ahead, which reads the list they are in.
    stream.domains = stream.pipeline.current.domainsInMemory
    stream.text = SnapshotText()
    stream.textInMemory = (nil, 0, nil)
    let last = try value.member("last")
    if !last.isNull {
      stream.lastSeq = .known(try last.member("seq").count())
      let input = try last.member("input")
      let number = try input.count()
      guard number < inputNames.count else {
        throw input.error(
          "expected the position of one of the replay's \(inputNames.count) inputs, "
            + "found \(number)")
      }
      stream.lastInput = number
      stream.lastLine = try last.member("line").count()
      stream.lastEventBytes = Array(try last.member("event").string().utf8)
    }
    let selected = try value.member("selected")
    stream.lastMember = nil
    if !selected.isNull {
      stream.selector?.restore(last: Array(try selected.string().utf8))
    }
    stream.hasSelected = try value.member("hasSelected").bool()
  }
}
