import RaspDomains
import RaspJSON

extension LineClassifier {
  /// Classifies a line of a format read otherwise than one plain event a line — a batch, an
  /// event in a string, payload fields moved — handing `append` an item for each event.
  mutating func classifySpecially(
    _ bytes: UnsafeBufferPointer<UInt8>, number: Int, isTooLong: Bool,
    problems: inout [ReplayProblem], arena: inout ByteArena, append: (ReplayItem) -> Void
  ) {
    if !ignoredLines.isEmpty, !isTooLong, isIgnored(bytes) {
      append(item(bytes, number, .dropped))
      return
    }
    if skipTo != nil || !emitReaders.isEmpty {
      classifyEmitting(
        bytes, number: number, isTooLong: isTooLong, problems: &problems, arena: &arena,
        append: append)
      return
    }
    if innerPath == nil, splitter == nil, payloadMoves == nil {
      append(classify(bytes, number: number, isTooLong: isTooLong, problems: &problems))
    } else if innerPath != nil {
      append(
        classifyInner(
          bytes, number: number, isTooLong: isTooLong, problems: &problems, arena: &arena))
    } else if splitter != nil {
      classifyEvents(
        bytes, number: number, isTooLong: isTooLong, problems: &problems, arena: &arena,
        append: append)
    } else {
      append(
        classifyMoving(
          bytes, number: number, isTooLong: isTooLong, problems: &problems, arena: &arena))
    }
  }

  /// Classifies a line of a format whose lines may hold several events (a map file's
  /// `events`), handing `append` an item for each: its events in order, an empty batch, or the
  /// line itself when it is a single event or a bad line.
  ///
  /// Each event's item keeps the whole line, for messages, and says where in it the event is
  /// (``EventOrigin``); its envelope refers to the event's own bytes: a part of the line, or
  /// the plain JSON written from an OTLP record into the batch's `arena`.
  mutating func classifyEvents(
    _ bytes: UnsafeBufferPointer<UInt8>, number: Int, isTooLong: Bool,
    problems: inout [ReplayProblem], arena: inout ByteArena, append: (ReplayItem) -> Void
  ) {
    guard let splitter, !isTooLong, !JSONLine.isBlank(bytes) else {
      append(classify(bytes, number: number, isTooLong: isTooLong, problems: &problems))
      return
    }
    var members = self.members
    defer { self.members = members }
    do throws(EventSplitter.Failure) {
      guard case .members = try splitter.split(bytes, into: &members) else {
        // A format whose events are decoded (OTLP's log records) has no event that is a line
        // by itself: a line without them is not one of its lines.
        if reader?.table.lineFormat.decoding != nil, Self.startsObject(bytes) {
          let field = splitter.path.levels[0].joined(separator: ".")
          problems.append(.invalid(RaspEventError(offset: 0, reason: .missingField(field))))
          append(item(bytes, number, .problem(problems.count - 1)))
          return
        }
        append(classify(bytes, number: number, isTooLong: false, problems: &problems))
        return
      }
    } catch {
      var origin = EventOrigin()
      origin.indices = error.indices
      problems.append(.invalid(error.error))
      append(item(bytes, number, .problem(problems.count - 1), origin))
      return
    }
    guard !members.isEmpty else {
      append(item(bytes, number, .emptyBatch))
      return
    }
    let inherited = reader?.table.lineFormat.inherited ?? []
    let shared = inherited.isEmpty ? [] : Self.sharedFields(inherited, of: bytes)
    // Each event gets a copy of the line's shared fields: a line may not make more of them
    // than a few lines' worth, whatever its count of events.
    let sharedBytes = shared.reduce(0) { $0 + $1.range.count }
    if let first = shared.first, sharedBytes * members.count > Self.maximumSharedBytes {
      let error = RaspEventError(
        offset: first.range.lowerBound,
        reason: .invalidValue(
          field: first.field,
          reason: "merged into each of the line's \(members.count) events, the line's "
            + "\(shared.map { "'\($0.field)'" }.joined(separator: " and ")) "
            + "(\(sharedBytes) bytes) would make more than \(Self.maximumSharedBytes) bytes"))
      problems.append(.invalid(error))
      append(item(bytes, number, .problem(problems.count - 1)))
      return
    }
    for (index, member) in members.enumerated() {
      var origin = EventOrigin()
      origin.indices = member.indices
      origin.startsLine = index == 0
      append(
        classifyMember(
          member, of: bytes, number: number, origin: origin, shared: shared,
          problems: &problems, arena: &arena))
    }
  }

  /// The item of one event of a batch line, with the line's `shared` fields merged in.
  private mutating func classifyMember(
    _ member: EventSplitter.Member, of line: UnsafeBufferPointer<UInt8>, number: Int,
    origin: EventOrigin, shared: [SharedField],
    problems: inout [ReplayProblem], arena: inout ByteArena
  ) -> ReplayItem {
    var origin = origin
    origin.start = Int32(truncatingIfNeeded: member.range.lowerBound)
    if let problem = member.problem {
      origin.place = .part
      problems.append(.invalid(problem))
      return item(line, number, .problem(problems.count - 1), origin)
    }
    let event: UnsafeBufferPointer<UInt8>
    switch reader?.table.lineFormat.decoding {
    case .otlp?:
      written.removeAll(keepingCapacity: true)
      do {
        try OTLPLogRecord.write(
          line: line, record: member.range,
          resource: member.ancestors.0.flatMap { Self.value(of: "resource", in: $0, of: line) },
          scope: member.ancestors.1.flatMap { Self.value(of: "scope", in: $0, of: line) },
          into: &written)
      } catch {
        // The converter's errors point at the line itself.
        problems.append(.invalid(error))
        return item(line, number, .problem(problems.count - 1), origin)
      }
      event = arena.store(written)
      origin.place = .written
    case nil:
      if !shared.isEmpty, let spliced = Self.splicing(shared, into: member.range, of: line) {
        event = arena.store(spliced.event)
        origin.place = .spliced
        origin.splice = Int32(truncatingIfNeeded: spliced.splice)
        origin.length = Int32(truncatingIfNeeded: spliced.length)
        origin.rawLength = Int32(truncatingIfNeeded: spliced.rawLength)
      } else {
        event = UnsafeBufferPointer(rebasing: line[member.range])
        origin.place = .part
      }
    }
    do {
      return try readEvent(event, of: line, number: number, origin: origin, arena: &arena)
    } catch {
      problems.append(.invalid(error))
      return item(line, number, .problem(problems.count - 1), origin)
    }
  }

  /// Whether a line is one the format says is not an event (a map's `ignoreLines`): a line
  /// that does not start JSON, whose text one of the patterns matches.
  private func isIgnored(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in bytes where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
      guard byte != UInt8(ascii: "{"), byte != UInt8(ascii: "[") else { return false }
      break
    }
    let text = String(decoding: bytes, as: UTF8.self)
    return ignoredLines.contains { $0.matches(text) }
  }

  /// Classifies a line of a format whose lines have text before their event (a map's
  /// `skipTo`), or make several events (a map's `emit`), handing `append` an item for each
  /// event: in the order of `emit`, each a member of the line, whose first counts the line.
  /// A line that the map's `keep` does not keep is one item, dropped; a line whose event is
  /// bad is reported once, at the first event that finds it, and makes no more.
  private mutating func classifyEmitting(
    _ bytes: UnsafeBufferPointer<UInt8>, number: Int, isTooLong: Bool,
    problems: inout [ReplayProblem], arena: inout ByteArena, append: (ReplayItem) -> Void
  ) {
    guard !isTooLong, !JSONLine.isBlank(bytes) else {
      append(classify(bytes, number: number, isTooLong: isTooLong, problems: &problems))
      return
    }
    var event = bytes
    var origin = EventOrigin()
    if let skipTo {
      guard let start = bytes.firstIndex(of: skipTo) else {
        let reason = "text without a '\(UnicodeScalar(skipTo))'"
        problems.append(.invalid(RaspEventError(offset: 0, reason: .notAnObject(found: reason))))
        append(item(bytes, number, .problem(problems.count - 1)))
        return
      }
      if start > 0 {
        event = UnsafeBufferPointer(rebasing: bytes[start...])
        origin.place = .part
        origin.start = Int32(truncatingIfNeeded: start)
      }
    }
    guard !emitReaders.isEmpty else {
      do {
        append(try readEvent(event, of: bytes, number: number, origin: origin, arena: &arena))
      } catch {
        problems.append(.invalid(error))
        append(item(bytes, number, .problem(problems.count - 1), origin))
      }
      return
    }
    for index in emitReaders.indices {
      var member = origin
      member.indices.0 = Int32(truncatingIfNeeded: index)
      member.startsLine = index == 0
      do {
        let read = try readEvent(
          event, of: bytes, number: number, origin: member, arena: &arena, emit: index)
        if index == 0, !emitReaders[0].keptLast {
          append(item(bytes, number, .dropped, origin))
          return
        }
        append(read)
      } catch {
        problems.append(.invalid(error))
        append(item(bytes, number, .problem(problems.count - 1), member))
        return
      }
    }
  }

  /// Classifies a line that is one event of a format that moves payload fields (a map's
  /// `fields`).
  mutating func classifyMoving(
    _ bytes: UnsafeBufferPointer<UInt8>, number: Int, isTooLong: Bool,
    problems: inout [ReplayProblem], arena: inout ByteArena
  ) -> ReplayItem {
    guard !isTooLong, !JSONLine.isBlank(bytes) else {
      return classify(bytes, number: number, isTooLong: isTooLong, problems: &problems)
    }
    do {
      return try readEvent(bytes, of: bytes, number: number, origin: EventOrigin(), arena: &arena)
    } catch {
      problems.append(.invalid(error))
      return item(bytes, number, .problem(problems.count - 1))
    }
  }

  /// The item of an event read with the map: its envelope, its payload's fields moved when
  /// the map says so (written anew into `arena`), or a dropped type.
  mutating func readEvent(
    _ event: UnsafeBufferPointer<UInt8>, of line: UnsafeBufferPointer<UInt8>, number: Int,
    origin: EventOrigin, arena: inout ByteArena, eventOffset: Int? = nil, emit: Int? = nil
  ) throws(RaspEventError) -> ReplayItem {
    var origin = origin
    guard case .envelope(var envelope)? = try read(event, emit: emit) else {
      return item(line, number, .dropped, origin)
    }
    let payloadMoves = emit.map { emitMoves[$0] } ?? self.payloadMoves
    if let moves = payloadMoves, !moves.emitsWithoutPayload,
      envelope.payloadOffset.map({ event[$0] != UInt8(ascii: "{") }) ?? true
    {
      // A field that must be there is not, with no payload object to hold it.
      return item(line, number, .dropped, origin)
    }
    if let moves = payloadMoves, let start = envelope.payloadOffset,
      event[start] == UInt8(ascii: "{")
    {
      var scanner = JSONScanner(event, position: start)
      do {
        try scanner.skipValue()
      } catch {
        throw RaspEventError(error)
      }
      let end = scanner.position
      written.removeAll(keepingCapacity: true)
      written.append(contentsOf: UnsafeBufferPointer(rebasing: event[..<start]))
      let format = emit.map { emitReaders[$0].format } ?? reader?.table.format
      let name = format?.payload.first?.description ?? "payload"
      guard try moves.rewrite(event, payloadAt: start, named: name, into: &written) else {
        return item(line, number, .dropped, origin)
      }
      let length = written.count - start
      written.append(contentsOf: UnsafeBufferPointer(rebasing: event[end...]))
      let moved = arena.store(written)
      if origin.place == .line {
        origin.place = .replaced
        origin.start = Int32(truncatingIfNeeded: start)
        origin.length = Int32(truncatingIfNeeded: length)
        origin.rawLength = Int32(truncatingIfNeeded: end - start)
      } else {
        // Where the payload written starts in the event, when the one it was written from
        // is the line's own bytes, whose fields errors can name (``EventOrigin/movedPayload``).
        if origin.place == .part { origin.splice = Int32(truncatingIfNeeded: start + 1) }
        let payload = origin.lineOffset(of: start, in: line)
        origin.place = .written
        origin.start = Int32(truncatingIfNeeded: payload)
      }
      guard case .envelope(let read)? = try self.read(moved, emit: emit) else {
        return item(line, number, .dropped, origin)
      }
      envelope = read
    }
    if tracksTime, let time = envelope.context.timestamp { lastTime = time }
    if let eventOffset { envelope = envelope.locatingEvent(at: eventOffset) }
    return item(line, number, .event(envelope), origin)
  }

  /// The envelope of an event, read with the map's reader, or that of one of its `emit`
  /// events.
  private mutating func read(_ event: UnsafeBufferPointer<UInt8>, emit: Int?)
    throws(RaspEventError) -> MappedEnvelopeReader.Read?
  {
    guard let emit else { return try reader?.read(event) }
    return try emitReaders[emit].read(event)
  }

  /// The most bytes a line's shared fields (a map's `inherit`) may make, copied into each of
  /// its events: four lines of the longest allowed.
  static let maximumSharedBytes = 4 * JSONLimits.maximumLineLength

  /// A field of a batch line that each of its members gets (a map's `inherit`).
  struct SharedField {
    /// Its key.
    let field: String
    /// Where its value is in the line.
    let range: Range<Int>
    /// Its value, when it is an object, which a member's own object is merged over.
    let object: JSONObject?
  }

  /// The fields of a batch line that each of its members gets (a map's `inherit`), where the
  /// line has them: found, and read, once for all its members.
  static func sharedFields(
    _ fields: [String], of line: UnsafeBufferPointer<UInt8>
  ) -> [SharedField] {
    fields.compactMap { field in
      guard let range = value(of: field, in: 0..<line.count, of: line) else { return nil }
      let value = try? JSONParser.parse(UnsafeBufferPointer(rebasing: line[range]))
      guard case .object(let object)? = value else {
        return SharedField(field: field, range: range, object: nil)
      }
      return SharedField(field: field, range: range, object: object)
    }
  }

  /// The member at `member` of a batch line with the line's `shared` fields merged in (a
  /// map's `inherit`): each that the member lacks is added first in it, and one that both
  /// have as objects is merged, the member's own members over the line's, at every depth; any
  /// other value of the member's stays. `nil` when that changes nothing.
  ///
  /// The member's bytes are kept but for one span (``EventOrigin/Place/spliced``): where it
  /// starts in the event (`splice`), how long it is there (`length`) and in the member
  /// (`rawLength`).
  static func splicing(
    _ shared: [SharedField], into member: Range<Int>,
    of line: UnsafeBufferPointer<UInt8>
  ) -> (event: [UInt8], splice: Int, length: Int, rawLength: Int)? {
    // What changes: ranges of the member, each written anew.
    var edits: [(range: Range<Int>, text: [UInt8])] = []
    var added: [UInt8] = []
    for entry in shared {
      guard let own = value(of: entry.field, in: member, of: line) else {
        var writer = JSONWriter()
        writer.writeString(entry.field)
        writer.writeRaw(":")
        writer.writeRaw(UnsafeBufferPointer(rebasing: line[entry.range]))
        writer.writeRaw(",")
        added += writer.bytes
        continue
      }
      guard let base = entry.object,
        case .object(let over)? = try? JSONParser.parse(UnsafeBufferPointer(rebasing: line[own]))
      else { continue }
      var writer = JSONWriter()
      writer.write(.object(merged(base, over)))
      edits.append((own, writer.bytes))
    }
    if !added.isEmpty {
      // After the member's `{`; without the last comma when the member has no member.
      var scanner = JSONScanner(line, position: member.lowerBound + 1)
      scanner.skipWhitespace()
      if scanner.peek() == UInt8(ascii: "}") { added.removeLast() }
      edits.append((member.lowerBound + 1..<member.lowerBound + 1, added))
    }
    edits.sort { $0.range.lowerBound < $1.range.lowerBound }
    guard let first = edits.first?.range.lowerBound else { return nil }
    var event = Array(line[member.lowerBound..<first])
    var position = first
    for edit in edits {
      event += line[position..<edit.range.lowerBound]
      event += edit.text
      position = edit.range.upperBound
    }
    let splice = first - member.lowerBound
    let length = event.count - splice
    event += line[position..<member.upperBound]
    return (event, splice, length, position - first)
  }

  /// `over`'s members over `base`'s: objects in both merged, at every depth.
  private static func merged(_ base: JSONObject, _ over: JSONObject) -> JSONObject {
    var result = base
    for (key, value) in over.members {
      if case .object(let inner)? = base[key], case .object(let overInner) = value {
        result[key] = .object(merged(inner, overInner))
      } else {
        result[key] = value
      }
    }
    return result
  }

  /// Whether a line's first byte that is not whitespace opens an object.
  static func startsObject(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var scanner = JSONScanner(bytes)
    scanner.skipWhitespace()
    return scanner.peek() == UInt8(ascii: "{")
  }

  /// Where the value of `key` is in the object at `range` of the line, which was checked.
  static func value(of key: String, in range: Range<Int>, of line: UnsafeBufferPointer<UInt8>)
    -> Range<Int>?
  {
    var scanner = JSONScanner(line, position: range.lowerBound)
    guard var progress = try? scanner.beginObject() else { return nil }
    while let name = try? scanner.nextMember(&progress) {
      scanner.skipWhitespace()
      let start = scanner.position
      guard (try? scanner.skipValue()) != nil else { return nil }
      if scanner.string(name) == key { return start..<scanner.position }
    }
    return nil
  }
}
