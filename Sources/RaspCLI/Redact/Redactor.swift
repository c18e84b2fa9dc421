#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspJSON

/// Applies a ``RedactionPolicy`` to the JSON text of events, in place, without building values.
///
/// Each line is walked with ``JSONScanner``: the policy's paths are followed as the keys go by,
/// a value no path can reach is skipped (and validated), and a value a rule matches is changed
/// as a whole, by the first rule that matches it or an ancestor. The line's bytes are kept but
/// for the values changed: a replaced, hashed, rounded or shifted value is written in place of
/// the old one, and a dropped member (or element) goes with its comma. A line that no rule
/// changes is kept byte for byte. Nothing is allocated per line once the buffers have grown.
///
/// ```swift
/// var redactor = Redactor(policy: policy, key: Array("secret".utf8))
/// var output: [UInt8] = []
/// let outcome = line.withUnsafeBufferPointer { redactor.redact(line: $0, into: &output) }
/// ```
struct Redactor {
  /// A value a rule cannot change: a string at a `round` path.
  struct Mistake: Error, Equatable {
    /// Where the value starts, as a byte offset in its line.
    let offset: Int
    /// Where the value is, as a `--select` path.
    let path: String
    /// What is wrong with it.
    let reason: String
  }

  /// One value changed, with where it was: kept only when ``collectsChanges``, for `--verify`.
  struct Change {
    /// Where the value was, as a `--select` path.
    let path: String
    /// The value as it was.
    let original: JSONValue
    /// The value as it is now; `nil` when it was dropped.
    let redacted: JSONValue?
    /// What the rule did.
    let action: RedactionPolicy.Action
  }

  /// What became of a line.
  enum Outcome: Equatable {
    /// No rule changed it: it is to be copied as it is.
    case unchanged
    /// So many values changed; the line, without its line end, was appended to the output.
    case changed(Int)
    /// It is not JSON: it is to be copied as it is.
    case notJSON
    /// A value of it cannot be changed as its rule says.
    case mistake(Mistake)
  }

  /// One step of a rule's path, ready to be compared with the bytes of a key: plain values,
  /// read with no reference counting.
  private struct Step {
    static let key: UInt8 = 0
    static let index: UInt8 = 1
    static let anyChild: UInt8 = 2
    static let anyDescendants: UInt8 = 3
    /// Which kind of step.
    let kind: UInt8
    /// A key's bytes, in ``Redactor/stepKeys``.
    let keyStart: Int
    let keyCount: Int
    /// An index; for a key, the array index its digits denote; `Int.min` for none.
    let index: Int
  }

  /// A rule's path as steps, with where its `**` are.
  private struct Pattern {
    /// Its steps, in ``Redactor/steps``.
    let first: Int
    let count: Int
    /// The positions of `**`, as bits.
    let descendants: UInt64
    /// The bit that says the whole path was matched.
    let matched: UInt64
  }

  /// A step of the path being walked: a key (in the scanner's buffer) or an index.
  private enum Place {
    case key(JSONRawString)
    case index(Int)
  }

  /// Where a value goes: no rule can match below it, some may, or one matches it.
  private enum Reach {
    case none
    case some
    case rule(Int)
  }

  /// Bytes of the line replaced by bytes of ``replacements``.
  private struct Edit {
    let start: Int
    let end: Int
    let replacement: Range<Int>
  }

  /// The rules.
  let policy: RedactionPolicy
  /// Whether each change is kept in ``changes``.
  var collectsChanges = false
  /// The changes of the last line, when ``collectsChanges``.
  private(set) var changes: [Change] = []

  private let code: HMACSHA256
  /// The rules of NMEA sentences' fields, for a line that is not JSON.
  private let sentences: NMEARedactor
  private var codes = HMACSHA256Cache()
  private let patterns: [Pattern]
  private let steps: [Step]
  private let stepKeys: [UInt8]
  /// The compact JSON text of each rule's `replace` constant.
  private let constants: [[UInt8]]
  /// For each depth of the walk, each rule's reached positions, as bits.
  private var reached: [UInt64] = []
  private var path: [Place] = []
  private var edits: [Edit] = []
  private var replacements: [UInt8] = []
  private var writer = JSONWriter()
  private var keyBytes: [UInt8] = []
  private var mistake: Mistake?
  /// The line being walked, while it is: the keys of ``path`` are in it.
  private var line = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
  private var changeCount = 0
  /// While the JSON text a string holds is walked: where the outermost such string starts in
  /// the line, for messages.
  private var heldStart: Int?
  /// The texts walked around the one being walked, with how many steps of ``path`` were
  /// theirs: the keys of those steps are in their bytes.
  private var outerTexts: [(count: Int, line: UnsafeBufferPointer<UInt8>)] = []
  /// Buffers for the texts that strings hold, reused.
  private var heldTexts: [[UInt8]] = []

  /// The longest path a rule may have, in steps: one bit each, and one for the end.
  static let maximumSteps = 63

  /// Prepares the policy's rules and the key's code.
  ///
  /// - Parameters:
  ///   - policy: The rules; no path longer than ``maximumSteps``.
  ///   - key: The key of `hash`.
  init(policy: RedactionPolicy, key: [UInt8]) {
    self.policy = policy
    self.code = HMACSHA256(key: key)
    self.sentences = NMEARedactor(rules: policy.sentenceRules)
    var patterns: [Pattern] = []
    var steps: [Step] = []
    var stepKeys: [UInt8] = []
    var constants: [[UInt8]] = []
    for rule in policy.rules {
      let components = rule.pattern.components.prefix(Self.maximumSteps)
      var descendants: UInt64 = 0
      let first = steps.count
      for (position, component) in components.enumerated() {
        switch component {
        case .key(let key):
          let bytes = Array(key.utf8)
          steps.append(
            Step(
              kind: Step.key, keyStart: stepKeys.count, keyCount: bytes.count,
              index: Self.arrayIndex(bytes) ?? Int.min))
          stepKeys += bytes
        case .index(let index):
          steps.append(Step(kind: Step.index, keyStart: 0, keyCount: 0, index: index))
        case .anyChild:
          steps.append(Step(kind: Step.anyChild, keyStart: 0, keyCount: 0, index: Int.min))
        case .anyDescendants:
          descendants |= 1 << UInt64(position)
          steps.append(Step(kind: Step.anyDescendants, keyStart: 0, keyCount: 0, index: Int.min))
        }
      }
      patterns.append(
        Pattern(
          first: first, count: components.count, descendants: descendants,
          matched: 1 << UInt64(components.count)))
      var writer = JSONWriter()
      if case .replace(let value) = rule.action { writer.write(value) }
      constants.append(writer.bytes)
    }
    self.steps = steps
    self.stepKeys = stepKeys
    self.patterns = patterns
    self.constants = constants
  }

  /// Redacts one line, without its line end.
  ///
  /// - Parameters:
  ///   - line: The line's bytes.
  ///   - output: Where the changed line is appended; untouched unless the outcome is
  ///     ``Outcome/changed(_:)``.
  /// - Returns: What became of the line.
  mutating func redact(line: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> Outcome {
    edits.removeAll(keepingCapacity: true)
    replacements.removeAll(keepingCapacity: true)
    path.removeAll(keepingCapacity: true)
    outerTexts.removeAll(keepingCapacity: true)
    changes.removeAll(keepingCapacity: true)
    mistake = nil
    changeCount = 0
    self.line = line
    defer { self.line = UnsafeBufferPointer(start: nil, count: 0) }
    let count = patterns.count
    if reached.count < count { reached = [UInt64](repeating: 0, count: count * 8) }
    var live = false
    for (index, pattern) in patterns.enumerated() {
      reached[index] = Self.close(1, pattern)
      live = live || reached[index] != 0
    }
    var scanner = JSONScanner(line)
    do {
      if live {
        try walk(&scanner, level: 0)
      } else {
        try scanner.skipValue()
      }
      try scanner.expectEnd()
    } catch {
      switch sentences.redact(line: line, into: &output) {
      case .notSentence: return .notJSON
      case .unchanged: return .unchanged
      case .changed(let count): return .changed(count)
      case .mistake(let offset, let path, let reason):
        return .mistake(Mistake(offset: offset, path: path, reason: reason))
      }
    }
    if let mistake { return .mistake(mistake) }
    guard changeCount > 0 else { return .unchanged }
    appendEdited(line, edits: 0..<edits.count, into: &output)
    return .changed(changeCount)
  }

  /// Appends `text` with some of ``edits`` made, from ``replacements``.
  @inline(__always)
  private func appendEdited(
    _ text: UnsafeBufferPointer<UInt8>, edits range: Range<Int>, into output: inout [UInt8]
  ) {
    var copied = 0
    for edit in edits[range] {
      if copied < edit.start {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: text[copied..<edit.start]))
      }
      output.append(contentsOf: replacements[edit.replacement])
      copied = edit.end
    }
    if copied < text.count {
      output.append(contentsOf: UnsafeBufferPointer(rebasing: text[copied..<text.count]))
    }
  }

  // MARK: The walk

  /// Walks the value at the scanner, which no rule matches but some may below.
  private mutating func walk(_ scanner: inout JSONScanner, level: Int) throws(JSONError) {
    switch try scanner.peekKind() {
    case .object:
      var members = try scanner.beginObject()
      var keys = JSONKeyTracker()
      var kept = Removal()
      while let key = try scanner.nextMember(&members) {
        try keys.record(key, in: scanner)
        let start = key.start - 1
        let reach = advance(level, key: key, in: scanner)
        path.append(.key(key))
        try visit(&scanner, level: level + 1, reach: reach, start: start, removal: &kept)
        path.removeLast()
      }
      finish(kept)
    case .array:
      var elements = try scanner.beginArray()
      var kept = Removal()
      var index = 0
      while try scanner.nextElement(&elements) {
        scanner.skipWhitespace()
        let start = scanner.position
        let reach = advance(level, index: index)
        path.append(.index(index))
        try visit(&scanner, level: level + 1, reach: reach, start: start, removal: &kept)
        path.removeLast()
        index += 1
      }
      finish(kept)
    case .string:
      try walkHeld(&scanner, level: level)
    case .number, .bool, .null:
      try scanner.skipValue()
    }
  }

  /// Walks the JSON text that the string at the scanner holds (a kcat message's `payload`),
  /// since a rule's path goes on below the string: the paths go on into the text, and the
  /// string keeps its bytes but for the values changed, each written in its place escaped. A
  /// string that holds no JSON object or array is left as it is. The text's edits follow the
  /// line's in ``edits`` and become edits of the line; its buffers are reused.
  @inline(never)
  private mutating func walkHeld(_ scanner: inout JSONScanner, level: Int) throws(JSONError) {
    let start = scanner.position
    let raw = try scanner.readRawString()
    let contents = scanner.bytes(of: raw)
    guard let first = contents.first(where: { !JSONScanner.isWhitespace($0) }),
      first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return }
    var text = heldTexts.popLast() ?? []
    text.removeAll(keepingCapacity: true)
    JSONScanner.unescape(contents, appendingTo: &text)
    // The outer text's walk, to go back to.
    let outerLine = line
    let outerHeldStart = heldStart
    let outerChangeCount = changeCount
    let outerChanges = changes.count
    let outerMistake = mistake
    let firstEdit = edits.count
    let firstReplacement = replacements.count
    outerTexts.append((path.count, line))
    heldStart = heldStart ?? start
    var isJSON = false
    var isChanged = false
    text.withUnsafeBufferPointer { text in
      line = text
      var inner = JSONScanner(text)
      do {
        try walk(&inner, level: level)
        try inner.expectEnd()
      } catch {
        return
      }
      isJSON = true
      guard changeCount > outerChangeCount, mistake == nil else { return }
      // The text's edits become the line's: their places in the escaped string, their
      // replacements escaped; the rest of the string stays as it was written.
      var cursor = EscapeCursor(contents: contents)
      for index in firstEdit..<edits.count {
        let edit = edits[index]
        let from = cursor.rawOffset(of: edit.start)
        let to = cursor.rawOffset(of: edit.end)
        let escapedStart = replacements.count
        if !edit.replacement.isEmpty {
          writer.removeAll()
          replacements.withUnsafeBufferPointer {
            writer.writeString(utf8: UnsafeBufferPointer(rebasing: $0[edit.replacement]))
          }
          replacements.append(contentsOf: writer.bytes.dropFirst().dropLast())
        }
        edits[index] = Edit(
          start: raw.start + from, end: raw.start + to,
          replacement: escapedStart..<replacements.count)
      }
      isChanged = true
    }
    heldTexts.append(text)
    line = outerLine
    heldStart = outerHeldStart
    outerTexts.removeLast()
    guard !isChanged else { return }
    edits.removeSubrange(firstEdit...)
    replacements.removeSubrange(firstReplacement...)
    if !isJSON {
      // Not JSON after all: nothing of it counts.
      changeCount = outerChangeCount
      changes.removeSubrange(outerChanges...)
      mistake = outerMistake
    }
  }

  /// Finds, in a string's escaped contents, where the bytes of its decoded text are: a byte
  /// of the text is written as itself or as an escape (`\"`, `\u00e9`, a surrogate pair).
  private struct EscapeCursor {
    let contents: UnsafeBufferPointer<UInt8>
    private var raw = 0
    private var decoded = 0

    init(contents: UnsafeBufferPointer<UInt8>) { self.contents = contents }

    /// The offset in the contents of the escape (or byte) that writes the text's byte at
    /// `target`; `target`s asked for must not decrease.
    mutating func rawOffset(of target: Int) -> Int {
      while decoded < target, raw < contents.count {
        guard contents[raw] == UInt8(ascii: "\\"), raw + 1 < contents.count else {
          raw += 1
          decoded += 1
          continue
        }
        guard contents[raw + 1] == UInt8(ascii: "u"), raw + 5 < contents.count else {
          raw += 2
          decoded += 1
          continue
        }
        let unit = hex(at: raw + 2)
        if (0xD800...0xDBFF).contains(unit), raw + 11 < contents.count,
          contents[raw + 6] == UInt8(ascii: "\\"), contents[raw + 7] == UInt8(ascii: "u"),
          (0xDC00...0xDFFF).contains(hex(at: raw + 8))
        {
          raw += 12
          decoded += 4
          continue
        }
        raw += 6
        decoded += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3
      }
      return raw
    }

    private func hex(at offset: Int) -> UInt32 {
      var value: UInt32 = 0
      for byte in contents[offset..<offset + 4] {
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: digit = 0
        }
        value = value << 4 | UInt32(digit)
      }
      return value
    }
  }

  /// How far a container's members (or elements) were kept, for removing the dropped ones with
  /// their commas.
  private struct Removal {
    /// Where the last member kept ends.
    var keptEnd: Int?
    /// Where the dropped members before the first one kept start.
    var pendingStart: Int?
    /// Where the last member ends.
    var lastEnd = 0
  }

  /// Goes over one member (or element), whose key (or first byte) is at `start`.
  private mutating func visit(
    _ scanner: inout JSONScanner, level: Int, reach: Reach, start: Int, removal: inout Removal
  ) throws(JSONError) {
    var dropped = false
    if case .rule(let rule) = reach, case .drop = policy.rules[rule].action {
      let valueStart = try scanner.skipValue()
      dropped = true
      changeCount += 1
      if collectsChanges { collect(from: valueStart, in: scanner, redacted: nil, rule: rule) }
    }
    if dropped {
      if let keptEnd = removal.keptEnd {
        addEdit(keptEnd..<scanner.position, with: 0..<0)
      } else if removal.pendingStart == nil {
        removal.pendingStart = start
      }
    } else {
      if let pending = removal.pendingStart {
        addEdit(pending..<start, with: 0..<0)
        removal.pendingStart = nil
      }
      switch reach {
      case .none: try scanner.skipValue()
      case .some: try walk(&scanner, level: level)
      case .rule(let rule): try apply(rule, &scanner)
      }
      removal.keptEnd = scanner.position
    }
    removal.lastEnd = scanner.position
  }

  /// Removes the dropped members that no kept one followed.
  private mutating func finish(_ removal: Removal) {
    if let pending = removal.pendingStart { addEdit(pending..<removal.lastEnd, with: 0..<0) }
  }

  private mutating func addEdit(_ range: Range<Int>, with replacement: Range<Int>) {
    edits.append(Edit(start: range.lowerBound, end: range.upperBound, replacement: replacement))
  }

  // MARK: Matching

  /// Each rule's positions after a key, at `level + 1`; and where the member goes.
  private mutating func advance(_ level: Int, key: JSONRawString, in scanner: JSONScanner)
    -> Reach
  {
    let raw = scanner.bytes(of: key)
    if key.hasEscapes {
      keyBytes.removeAll(keepingCapacity: true)
      keyBytes.append(contentsOf: scanner.string(key).utf8)
      return keyBytes.withUnsafeBufferPointer { advance(level, key: $0) }
    }
    return advance(level, key: raw)
  }

  private mutating func advance(_ level: Int, key: UnsafeBufferPointer<UInt8>) -> Reach {
    advance(level, key: key, index: Int.min)
  }

  private mutating func advance(_ level: Int, index: Int) -> Reach {
    advance(level, key: UnsafeBufferPointer(start: nil, count: 0), index: index)
  }

  /// Each rule's positions after a step, a key (when `index` is `Int.min`) or an index.
  private mutating func advance(_ level: Int, key: UnsafeBufferPointer<UInt8>, index: Int)
    -> Reach
  {
    let count = patterns.count
    let from = level * count
    let to = from + count
    if reached.count < to + count { reached += [UInt64](repeating: 0, count: reached.count) }
    var keyIndex: Int?? = index == Int.min ? nil : .some(nil)
    var reach = Reach.none
    patterns.withUnsafeBufferPointer { patterns in
      steps.withUnsafeBufferPointer { steps in
        stepKeys.withUnsafeBufferPointer { stepKeys in
          reached.withUnsafeMutableBufferPointer { reached in
            let reached = reached.baseAddress.unsafelyUnwrapped
            for rule in 0..<count {
              let pattern = patterns[rule]
              var positions = reached[from + rule]
              var next: UInt64 = 0
              while positions != 0 {
                let position = positions.trailingZeroBitCount
                positions &= positions &- 1
                guard position < pattern.count else { continue }
                let step = steps[pattern.first &+ position]
                let matches: Bool
                switch step.kind {
                case Step.anyDescendants:
                  next |= 1 &<< UInt64(position)
                  continue
                case Step.anyChild:
                  matches = true
                case Step.key where index != Int.min:
                  matches = step.index == index
                case Step.key:
                  matches =
                    step.keyCount == key.count
                    && (key.isEmpty
                      || memcmp(
                        key.baseAddress.unsafelyUnwrapped,
                        stepKeys.baseAddress.unsafelyUnwrapped + step.keyStart, key.count) == 0)
                case _ where index != Int.min:
                  matches = step.index == index
                default:
                  if keyIndex == nil { keyIndex = .some(Self.arrayIndex(key)) }
                  matches = keyIndex == .some(step.index)
                }
                if matches { next |= 1 &<< UInt64(position &+ 1) }
              }
              if pattern.descendants != 0 { next = Self.close(next, pattern) }
              reached[to + rule] = next
              if next & pattern.matched != 0 {
                if case .rule = reach {} else { reach = .rule(rule) }
              } else if next != 0, case .none = reach {
                reach = .some
              }
            }
          }
        }
      }
    }
    return reach
  }

  /// The positions a `**` can also be left at without a step.
  private static func close(_ positions: UInt64, _ pattern: Pattern) -> UInt64 {
    var positions = positions
    var stars = pattern.descendants
    while stars != 0 {
      let star = stars.trailingZeroBitCount
      stars &= stars - 1
      if positions & (1 << UInt64(star)) != 0 { positions |= 1 << UInt64(star + 1) }
    }
    return positions
  }

  /// Whether two runs of bytes are the same.
  static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    guard let x = a.baseAddress, let y = b.baseAddress else { return true }
    return memcmp(x, y, a.count) == 0
  }

  /// The array index a key denotes, as `JSONPath` reads it: `0`, or digits without a leading
  /// zero.
  private static func arrayIndex(_ key: some Collection<UInt8>) -> Int? {
    guard let first = key.first, key.count <= 18 else { return nil }
    guard first != UInt8(ascii: "0") || key.count == 1 else { return nil }
    var value = 0
    for byte in key {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }

  // MARK: Actions

  /// Applies a rule other than `drop` to the value at the scanner.
  private mutating func apply(_ rule: Int, _ scanner: inout JSONScanner) throws(JSONError) {
    let kind = try scanner.peekKind()
    let start = scanner.position
    let replacementStart = replacements.count
    switch policy.rules[rule].action {
    case .drop:
      try scanner.skipValue()
      return
    case .hash:
      try hash(kind, &scanner)
    case .replace(let constant):
      try scanner.skipValue()
      let old = UnsafeBufferPointer(rebasing: scanner.input[start..<scanner.position])
      if constants[rule].withUnsafeBufferPointer({ Self.same(old, $0) }) { return }
      if kind == constant.kind {
        var probe = JSONScanner(scanner.input, position: start)
        if (try? probe.readValue()) == constant { return }
      }
      replacements.append(contentsOf: constants[rule])
    case .round(let decimals):
      guard let number = try number(kind, &scanner, action: "round", takes: "numbers") else {
        return
      }
      let rounded = Self.round(number, decimals: decimals)
      if rounded == number { return }
      writeNumber(rounded)
    case .shift(let offset):
      guard let number = try number(kind, &scanner, action: "shift", takes: "numbers (times)")
      else { return }
      guard let shifted = Self.shift(number, by: offset) else {
        report("cannot shift \(number): the result is too large for a JSON number", at: start)
        return
      }
      if shifted == number { return }
      writeNumber(shifted)
    }
    addEdit(start..<scanner.position, with: replacementStart..<replacements.count)
    changeCount += 1
    if collectsChanges {
      let text = Array(replacements[replacementStart...])
      collect(from: start, in: scanner, redacted: try? JSONParser.parse(text), rule: rule)
    }
  }

  /// Writes the code of the value's compact JSON text, in quotes, to ``replacements``.
  private mutating func hash(_ kind: JSONKind, _ scanner: inout JSONScanner) throws(JSONError) {
    replacements.append(UInt8(ascii: "\""))
    if kind == .string {
      let raw = try scanner.readRawString()
      let text = UnsafeBufferPointer(rebasing: scanner.input[raw.start - 1..<raw.end + 1])
      // Without escapes, and without DEL, the text is as the writer writes it.
      if !raw.hasEscapes, !text.contains(0x7F) {
        codes.appendHexDigest(of: text, by: code, to: &replacements)
        replacements.append(UInt8(ascii: "\""))
        return
      }
      writer.removeAll()
      writer.writeString(scanner.string(raw))
    } else if kind == .number {
      let number = try scanner.readNumber()
      writer.removeAll()
      writer.writeNumber(number)
    } else {
      let value = try scanner.readValue()
      writer.removeAll()
      writer.write(value)
    }
    writer.bytes.withUnsafeBufferPointer {
      codes.appendHexDigest(of: $0, by: code, to: &replacements)
    }
    replacements.append(UInt8(ascii: "\""))
  }

  /// The number at the scanner; `nil` for `null` and, reported, for any other value.
  private mutating func number(
    _ kind: JSONKind, _ scanner: inout JSONScanner, action: String, takes: String
  ) throws(JSONError) -> JSONNumber? {
    if kind == .number { return try scanner.readNumber() }
    let start = try scanner.skipValue()
    if kind != .null {
      report("cannot \(action) \(kind.phrase): '\(action)' takes \(takes)", at: start)
    }
    return nil
  }

  private mutating func writeNumber(_ number: JSONNumber) {
    writer.removeAll()
    writer.writeNumber(number)
    replacements.append(contentsOf: writer.bytes)
  }

  private mutating func report(_ reason: String, at offset: Int) {
    guard mistake == nil else { return }
    guard let heldStart else {
      mistake = Mistake(offset: offset, path: pathDescription(), reason: reason)
      return
    }
    let place = JSONTextPosition(offset: offset, in: line)
    mistake = Mistake(
      offset: heldStart, path: pathDescription(),
      reason: reason + " (at \(place) of the JSON text the string holds)")
  }

  /// Keeps the change of the value from `start` to the scanner's position.
  private mutating func collect(
    from start: Int, in scanner: JSONScanner, redacted: JSONValue?, rule: Int
  ) {
    var probe = JSONScanner(scanner.input, position: start)
    guard let original = try? probe.readValue() else { return }
    changes.append(
      Change(
        path: pathDescription(), original: original, redacted: redacted,
        action: policy.rules[rule].action))
  }

  /// The path being walked, as `--select` takes it; only for messages.
  private func pathDescription() -> String {
    var components: [JSONPath.Component] = []
    var text = 0
    for (position, place) in path.enumerated() {
      while text < outerTexts.count, position >= outerTexts[text].count { text += 1 }
      switch place {
      case .key(let key):
        let bytes = text < outerTexts.count ? outerTexts[text].line : line
        components.append(.key(JSONScanner(bytes).string(key)))
      case .index(let index):
        components.append(.index(index))
      }
    }
    return JSONPath(components: components).description
  }

  // MARK: Numbers

  /// `number` rounded to `decimals` decimals, half away from zero; a whole number as it is.
  static func round(_ number: JSONNumber, decimals: Int) -> JSONNumber {
    if number.isInteger { return number }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let value = number.doubleValue
    let scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
    // Beyond 2^53 a double has no decimals left to round.
    guard scaled.isFinite, abs(value * scale) < 9_007_199_254_740_992 else { return number }
    let rounded = scaled / scale
    return JSONNumber(rounded)
  }

  /// `number` plus `offset`: exact for whole numbers, a double's sum otherwise; `nil` when the
  /// sum is not finite.
  static func shift(_ number: JSONNumber, by offset: JSONNumber) -> JSONNumber? {
    if let a = number.exactInteger, let b = offset.exactInteger {
      let (sum, overflow) = a.addingReportingOverflow(b)
      return overflow ? nil : JSONNumber(sum)
    }
    let sum = number.doubleValue + offset.doubleValue
    return sum.isFinite ? JSONNumber(sum) : nil
  }
}
