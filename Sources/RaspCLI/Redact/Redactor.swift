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

  /// A step of the path being walked: a key (in the scanner's buffer) or an index.
  private enum Place {
    case key(JSONRawString)
    case index(Int)
  }

  private typealias Reach = RedactionPathAutomaton.Reach

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
  /// The rules' paths.
  private var automaton: RedactionPathAutomaton
  /// The compact JSON text of each rule's `replace` constant.
  private let constants: [[UInt8]]
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
  /// Buffers for where their escapes are, reused.
  private var heldEscapes: [[Int]] = []

  /// The longest path a rule may have, in steps: one bit each, and one for the end.
  static let maximumSteps = RedactionPathAutomaton.maximumSteps

  /// Prepares the policy's rules and the key's code.
  ///
  /// - Parameters:
  ///   - policy: The rules; no path longer than ``maximumSteps``.
  ///   - key: The key of `hash`.
  init(policy: RedactionPolicy, key: [UInt8]) {
    self.policy = policy
    self.code = HMACSHA256(key: key)
    self.sentences = NMEARedactor(rules: policy.sentenceRules)
    self.automaton = RedactionPathAutomaton(patterns: policy.rules.map(\.pattern))
    self.constants = policy.rules.map { rule in
      var writer = JSONWriter()
      if case .replace(let value) = rule.action { writer.write(value) }
      return writer.bytes
    }
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
    automaton.trim()
    let start = RedactionPathAutomaton.start
    var scanner = JSONScanner(line)
    do {
      if automaton.reach(start) != .none {
        try walk(&scanner, state: start)
      } else {
        try scanner.skipValue()
      }
      try scanner.expectEnd()
    } catch {
      return redactSentence(line: line, into: &output)
    }
    if let mistake { return .mistake(mistake) }
    guard changeCount > 0 else { return .unchanged }
    appendEdited(line, edits: 0..<edits.count, into: &output)
    return .changed(changeCount)
  }

  /// Redacts a line that is not JSON as an NMEA sentence, keeping its changes when
  /// ``collectsChanges``; apart from ``redact(line:into:)``, which a line of JSON goes through
  /// without it.
  @inline(never)
  private mutating func redactSentence(
    line: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]
  ) -> Outcome {
    var fields: [Change]? = collectsChanges ? [] : nil
    switch sentences.redact(line: line, into: &output, changes: &fields) {
    case .notSentence: return .notJSON
    case .unchanged: return .unchanged
    case .changed(let count):
      changes.append(contentsOf: fields ?? [])
      return .changed(count)
    case .mistake(let offset, let path, let reason):
      return .mistake(Mistake(offset: offset, path: path, reason: reason))
    }
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
  private mutating func walk(_ scanner: inout JSONScanner, state: Int) throws(JSONError) {
    switch try scanner.peekKind() {
    case .object:
      var members = try scanner.beginObject()
      var keys = JSONKeyTracker()
      var kept = Removal()
      while let key = try scanner.nextMember(&members) {
        try keys.record(key, in: scanner)
        let start = key.start - 1
        let next = advance(state, key: key, in: scanner)
        path.append(.key(key))
        try visit(&scanner, state: next, start: start, removal: &kept)
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
        let next = automaton.next(state, index: index)
        path.append(.index(index))
        try visit(&scanner, state: next, start: start, removal: &kept)
        path.removeLast()
        index += 1
      }
      finish(kept)
    case .string:
      try walkHeld(&scanner, state: state)
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
  private mutating func walkHeld(_ scanner: inout JSONScanner, state: Int) throws(JSONError) {
    scanner.skipWhitespace()
    let start = scanner.position
    var text = heldTexts.popLast() ?? []
    var escapes = heldEscapes.popLast() ?? []
    defer {
      heldTexts.append(text)
      heldEscapes.append(escapes)
    }
    let raw: JSONRawString
    let textCount: Int
    var escapeCount: Int?
    if let (end, count, escaped) = HeldText.decode(
      scanner.input, opening: start, into: &text, escapes: &escapes)
    {
      scanner.position = end
      raw = JSONRawString(start: start + 1, end: end - 1, hasEscapes: escaped > 0)
      textCount = count
      escapeCount = escaped
    } else {
      raw = try scanner.readRawString()
      let contents = scanner.bytes(of: raw)
      guard let first = contents.first(where: { !JSONScanner.isWhitespace($0) }),
        first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
      else { return }
      text.removeAll(keepingCapacity: true)
      JSONScanner.unescape(contents, appendingTo: &text)
      textCount = text.count
    }
    let contents = scanner.bytes(of: raw)
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
      let text = UnsafeBufferPointer(rebasing: text[..<textCount])
      line = text
      var inner = JSONScanner(text)
      do {
        try walk(&inner, state: state)
        try inner.expectEnd()
      } catch {
        return
      }
      isJSON = true
      guard changeCount > outerChangeCount, mistake == nil else { return }
      // The text's edits become the line's: their places in the escaped string, their
      // replacements escaped; the rest of the string stays as it was written.
      var cursor = HeldText.Cursor(
        contents: contents, escapes: escapeCount.map { _ in escapes }, count: escapeCount ?? 0)
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
    _ scanner: inout JSONScanner, state: Int, start: Int, removal: inout Removal
  ) throws(JSONError) {
    let reach = automaton.reach(state)
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
      case .some: try walk(&scanner, state: state)
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

  /// The state after a key, its bytes decoded.
  private mutating func advance(_ state: Int, key: JSONRawString, in scanner: JSONScanner)
    -> Int
  {
    if key.hasEscapes {
      keyBytes.removeAll(keepingCapacity: true)
      keyBytes.append(contentsOf: scanner.string(key).utf8)
      return keyBytes.withUnsafeBufferPointer { automaton.next(state, key: $0) }
    }
    return automaton.next(state, key: scanner.bytes(of: key))
  }

  /// Whether two runs of bytes are the same.
  static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    guard let x = a.baseAddress, let y = b.baseAddress else { return true }
    return memcmp(x, y, a.count) == 0
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
      if kind == .string {
        guard try shiftTime(&scanner, by: offset) else { return }
        break
      }
      let takes = "numbers, strings of digits and RFC 3339 strings (times)"
      guard let number = try number(kind, &scanner, action: "shift", takes: takes) else {
        return
      }
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

  /// Shifts the RFC 3339 time of the string at the scanner, writing it to ``replacements``;
  /// whether it changed (a string that is no time is reported).
  private mutating func shiftTime(_ scanner: inout JSONScanner, by offset: JSONNumber)
    throws(JSONError) -> Bool
  {
    let start = scanner.position
    let raw = try scanner.readRawString()
    let text = scanner.string(raw)
    switch RFC3339Shift.shifted(text, by: offset) {
    case .failure(let reason):
      report(reason.text, at: start)
      return false
    case .success(let shifted):
      if shifted == text { return false }
      writer.removeAll()
      writer.writeString(shifted)
      replacements.append(contentsOf: writer.bytes)
      return true
    }
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
