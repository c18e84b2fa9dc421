import RaspDomains
import RaspJSON

/// Where a format's lines keep several events: a map file's `events`, a path with `[]` after
/// each array whose elements hold them — `[]` (the line is an array of events, as a CloudEvents
/// batch), `batch[]` (Segment's batch call), `resourceLogs[].scopeLogs[].logRecords[]` (an
/// OTLP request).
///
/// A line that is not an array where the path wants one, or has no array there, is one event:
/// single events and batches mix in one log.
///
/// ```swift
/// let path = try EventsPath("resourceLogs[].scopeLogs[].logRecords[]")
/// path.member((0, 1, 2))   // "resourceLogs[0].scopeLogs[1].logRecords[2]"
/// ```
struct EventsPath: Sendable {
  /// The most arrays a path may go through.
  static let maximumDepth = 3

  /// The key path to each array, from the line or from an element of the array before it;
  /// empty for the line itself.
  let levels: [[String]]
  /// The path as the map file wrote it.
  let text: String

  /// Reads a path.
  ///
  /// - Throws: A reason, for a path that does not end in `[]`, goes through more than three
  ///   arrays, or has a key path that does not parse.
  init(_ text: String) throws(TypeTemplate.TemplateError) {
    self.text = text
    let trimmed = text.trimmingWhitespace
    guard trimmed.hasSuffix("[]") else {
      throw .init("'\(trimmed)' does not end in '[]': write the array of events as 'batch[]'")
    }
    var levels: [[String]] = []
    for (index, part) in trimmed.dropLast(2).split(
      separator: "[]", omittingEmptySubsequences: false
    ).enumerated() {
      var keys = Substring(part)
      if index > 0 {
        guard !keys.isEmpty else { throw .init("'\(trimmed)' has '[][]': an array of arrays") }
        guard keys.first == "." else {
          throw .init("'\(trimmed)' needs a '.' after each '[]' but the last")
        }
        keys = keys.dropFirst()
      }
      if keys.isEmpty {
        guard index == 0 else { throw .init("'\(trimmed)' has '[][]': an array of arrays") }
        levels.append([])
        continue
      }
      let path = try FieldPaths.path(String(keys))
      levels.append(
        path.components.compactMap { component in
          if case .key(let key) = component { return key }
          return nil
        })
    }
    guard levels.count <= Self.maximumDepth else {
      throw .init("'\(trimmed)' goes through more than \(Self.maximumDepth) arrays")
    }
    self.levels = levels
  }

  /// The path of a member, for messages: `batch[2]`.
  func member(_ indices: (Int32, Int32, Int32)) -> String {
    let numbers = [indices.0, indices.1, indices.2]
    var text = ""
    for (level, keys) in levels.enumerated() {
      if !keys.isEmpty {
        if level > 0 { text += "." }
        text += JSONPath(components: keys.map { .key($0) }).description
      }
      text += "[\(numbers[level])]"
    }
    return text
  }
}

/// Finds the events of a batch line, as its format's ``EventsPath`` says, checking the parts
/// of the line it walks: one pass, nothing built.
///
/// ```swift
/// var members: [EventSplitter.Member] = []
/// switch try EventSplitter(path: path).split(line, into: &members) {
/// case .single: read(line)
/// case .members: for member in members { read(line[member.range]) }
/// }
/// ```
struct EventSplitter: Sendable {
  /// One event of a batch.
  struct Member {
    /// Where the event's object is in the line.
    var range: Range<Int>
    /// Its index in each array on the way.
    var indices: (Int32, Int32, Int32)
    /// The elements it is in, outermost first: an OTLP record's `resourceLogs` and
    /// `scopeLogs` elements.
    var ancestors: (Range<Int>?, Range<Int>?)
    /// What is wrong with it, when it is not an object: a bad member, beside good ones.
    var problem: RaspEventError?
  }

  /// What a line holds.
  enum Split {
    /// The line is one event.
    case single
    /// The line is a batch, whose events (none, maybe) were put in the members.
    case members
  }

  let path: EventsPath

  /// Finds the events of `line`.
  ///
  /// - Throws: ``RaspDomains/RaspEventError``, its offset in the line, for malformed JSON, an
  ///   array that is not one, or an event that is not an object; with the indices of the
  ///   member it is about.
  func split(_ line: UnsafeBufferPointer<UInt8>, into members: inout [Member])
    throws(Failure) -> Split
  {
    members.removeAll(keepingCapacity: true)
    var scanner = JSONScanner(line)
    scanner.skipWhitespace()
    // A line that is not an array is one event, which its reader checks: not checked twice.
    if path.levels[0].isEmpty, scanner.peek() != UInt8(ascii: "[") { return .single }
    guard let found = try arrayRange(path.levels[0], in: &scanner) else { return .single }
    do {
      try scanner.expectEnd()
    } catch {
      throw Failure(error: RaspEventError(error))
    }
    var indices: [Int32] = []
    try walk(found, level: 0, line: line, indices: &indices, ancestors: [], into: &members)
    return .members
  }

  /// A problem, and the member it is in.
  struct Failure: Error {
    var error: RaspEventError
    var indices: (Int32, Int32, Int32) = (-1, -1, -1)
  }

  /// The array the keys lead to from the value at the scanner — the line, or an element —
  /// leaving the scanner after that value; `nil` when there is none (the value is then one
  /// event, for the line).
  private func arrayRange(
    _ keys: [String], in scanner: inout JSONScanner
  ) throws(Failure) -> Range<Int>? {
    do {
      if keys.isEmpty {
        guard try scanner.peekKind() == .array else {
          try scanner.skipValue()
          return nil
        }
        let start = scanner.position
        try scanner.skipValue()
        return start..<scanner.position
      }
      guard try scanner.peekKind() == .object else {
        try scanner.skipValue()
        return nil
      }
      var found: Range<Int>?
      try find(keys[...], in: &scanner, found: &found)
      guard let found else { return nil }
      let reader = JSONScanner(scanner.input, position: found.lowerBound)
      switch reader.input[found.lowerBound] {
      case UInt8(ascii: "["): return found
      case UInt8(ascii: "n"): return nil
      default:
        throw Failure(
          error: RaspEventError.wrongType(
            field: keys.joined(separator: "."), expected: "an array of events",
            at: found.lowerBound, in: reader))
      }
    } catch let failure as Failure {
      throw failure
    } catch let error as JSONError {
      throw Failure(error: RaspEventError(error))
    } catch {
      throw Failure(error: RaspEventError(offset: nil, reason: .rejected("\(error)")))
    }
  }

  /// Skips the object at the scanner, checking it, and notes where the value at `keys` is.
  private func find(
    _ keys: ArraySlice<String>, in scanner: inout JSONScanner, found: inout Range<Int>?
  ) throws(JSONError) {
    var progress = try scanner.beginObject()
    var seen = JSONKeyTracker()
    while let key = try scanner.nextMember(&progress) {
      try seen.record(key, in: scanner)
      scanner.skipWhitespace()
      let start = scanner.position
      guard let first = keys.first, scanner.string(key) == first else {
        try scanner.skipValue()
        continue
      }
      if keys.count > 1, try scanner.peekKind() == .object {
        try find(keys.dropFirst(), in: &scanner, found: &found)
      } else {
        try scanner.skipValue()
        if keys.count == 1 { found = start..<scanner.position }
      }
    }
  }

  /// Walks the array at `range`, whose elements are events at the last level, and elements
  /// holding the next array before it.
  private func walk(
    _ range: Range<Int>, level: Int, line: UnsafeBufferPointer<UInt8>, indices: inout [Int32],
    ancestors: [Range<Int>], into members: inout [Member]
  ) throws(Failure) {
    var scanner = JSONScanner(line, position: range.lowerBound)
    let isLast = level == path.levels.count - 1
    var index: Int32 = 0
    do {
      var progress = try scanner.beginArray()
      while try scanner.nextElement(&progress) {
        indices.append(index)
        defer {
          indices.removeLast()
          index += 1
        }
        scanner.skipWhitespace()
        let start = scanner.position
        let kind = try scanner.peekKind()
        guard kind == .object else {
          // A bad member, reported as such; the others are read.
          try scanner.skipValue()
          members.append(
            Member(
              range: start..<scanner.position, indices: Self.tuple(indices), ancestors: (nil, nil),
              problem: RaspEventError(offset: 0, reason: .notAnObject(found: kind.phrase))))
          continue
        }
        if isLast {
          try scanner.skipValue()
          let ancestry = ancestors + [start..<scanner.position]
          members.append(
            Member(
              range: start..<scanner.position, indices: Self.tuple(indices),
              ancestors: (
                ancestry.count > 1 ? ancestry[0] : nil,
                ancestry.count > 2 ? ancestry[1] : nil
              )))
          continue
        }
        var element = scanner
        let next = try arrayRange(path.levels[level + 1], in: &element)
        let end = element.position
        if let next {
          try walk(
            next, level: level + 1, line: line, indices: &indices,
            ancestors: ancestors + [start..<end], into: &members)
        }
        scanner = element
      }
    } catch let failure as Failure {
      throw failure
    } catch let error as JSONError {
      throw Failure(error: RaspEventError(error), indices: Self.tuple(indices))
    } catch {
      throw Failure(error: RaspEventError(offset: nil, reason: .rejected("\(error)")))
    }
  }

  private static func tuple(_ indices: [Int32]) -> (Int32, Int32, Int32) {
    (
      indices.count > 0 ? indices[0] : -1, indices.count > 1 ? indices[1] : -1,
      indices.count > 2 ? indices[2] : -1
    )
  }
}
