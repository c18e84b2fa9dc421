import RaspDomains
import RaspJSON

extension LineClassifier {
  /// Classifies a line of a format read otherwise than one plain event a line — a batch, an
  /// event in a string, payload fields moved — handing `append` an item for each event.
  mutating func classifySpecially(
    _ bytes: UnsafeBufferPointer<UInt8>, number: Int, isTooLong: Bool,
    problems: inout [ReplayProblem], arena: inout ByteArena, append: (ReplayItem) -> Void
  ) {
    if innerPath != nil {
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
        if mapped?.table.lineFormat.decoding != nil, Self.startsObject(bytes) {
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
    for (index, member) in members.enumerated() {
      var origin = EventOrigin()
      origin.indices = member.indices
      origin.startsLine = index == 0
      append(
        classifyMember(
          member, of: bytes, number: number, origin: origin, problems: &problems, arena: &arena))
    }
  }

  /// The item of one event of a batch line.
  private mutating func classifyMember(
    _ member: EventSplitter.Member, of line: UnsafeBufferPointer<UInt8>, number: Int,
    origin: EventOrigin, problems: inout [ReplayProblem], arena: inout ByteArena
  ) -> ReplayItem {
    var origin = origin
    origin.start = Int32(truncatingIfNeeded: member.range.lowerBound)
    if let problem = member.problem {
      origin.place = .part
      problems.append(.invalid(problem))
      return item(line, number, .problem(problems.count - 1), origin)
    }
    let event: UnsafeBufferPointer<UInt8>
    switch mapped?.table.lineFormat.decoding {
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
      event = UnsafeBufferPointer(rebasing: line[member.range])
      origin.place = .part
    }
    do {
      return try readEvent(event, of: line, number: number, origin: origin, arena: &arena)
    } catch {
      problems.append(.invalid(error))
      return item(line, number, .problem(problems.count - 1), origin)
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
    origin: EventOrigin, arena: inout ByteArena, eventOffset: Int? = nil
  ) throws(RaspEventError) -> ReplayItem {
    var origin = origin
    guard case .envelope(var envelope)? = try mapped?.read(event) else {
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
      let name = mapped?.table.format.payload.first?.description ?? "payload"
      try moves.rewrite(event, payloadAt: start, named: name, into: &written)
      let length = written.count - start
      written.append(contentsOf: UnsafeBufferPointer(rebasing: event[end...]))
      let moved = arena.store(written)
      if origin.place == .line {
        origin.place = .replaced
        origin.start = Int32(truncatingIfNeeded: start)
        origin.length = Int32(truncatingIfNeeded: length)
        origin.rawLength = Int32(truncatingIfNeeded: end - start)
      } else {
        let payload = origin.lineOffset(of: start, in: line)
        origin.place = .written
        origin.start = Int32(truncatingIfNeeded: payload)
      }
      guard case .envelope(let read)? = try mapped?.read(moved) else {
        return item(line, number, .dropped, origin)
      }
      envelope = read
    }
    if tracksTime, let time = envelope.context.timestamp { lastTime = time }
    if let eventOffset { envelope = envelope.locatingEvent(at: eventOffset) }
    return item(line, number, .event(envelope), origin)
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
