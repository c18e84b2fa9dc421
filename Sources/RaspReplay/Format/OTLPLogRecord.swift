import RaspDomains
import RaspJSON

/// Makes one OpenTelemetry log record, read in place from an OTLP/JSON line, into a plain JSON
/// event that the rest of rasp reads like any line.
///
/// The OpenTelemetry Collector's file exporter writes one `ExportLogsServiceRequest` per line,
/// and each line holds many records, each inheriting the `resource` and `scope` around it.
/// Whoever walks the line finds the byte ranges of a record and of its resource and scope; this
/// type writes the record as one compact object, its keys sorted as ``JSONObject`` sorts them
/// (byte order, at every level), with the OTLP wrappers taken off:
///
/// - `attributes`, a list of `{"key": k, "value": AnyValue}`, becomes an object `{k: value}`;
///   `resource` becomes its attributes, and `scope` becomes `{"attributes", "name", "version"}`;
/// - an AnyValue becomes the JSON value it holds: `stringValue` a string, `boolValue` a
///   boolean, `intValue` an integer (written as a decimal string or a number), `doubleValue` a
///   number, `bytesValue` its base64 string as it is, `arrayValue` an array, `kvlistValue` an
///   object, and the empty AnyValue `{}` `null`;
/// - `timeUnixNano` and `observedTimeUnixNano` stay strings of digits (their leading zeros
///   dropped), as OTLP/JSON writes 64-bit integers; `severityNumber`, `flags` and
///   `droppedAttributesCount` are numbers; `severityText`, `traceId` and `spanId` strings;
/// - `eventName` is the record's field, or else the string of its `event.name` attribute, the
///   older convention.
///
/// A field that means "unset" in OTLP is left out, so that a map's `timeUnixNano|…` falls back
/// to the next field and the output does not depend on the Collector's version (older ones
/// write the empty values, newer ones omit them): a time of `0`, an empty `traceId`, `spanId`
/// or `eventName`, an empty `body` (the marshaler writes `{}` for none), an empty attribute
/// list, a resource without attributes, a scope with nothing to say; and, as in every
/// protobuf JSON, a field whose value is `null`. Fields that OTLP does not define are ignored,
/// as the specification asks, except snake_case spellings of its fields (`time_unix_nano`),
/// which are errors that name the lowerCamelCase field: ignoring them would lose the time.
///
/// Decisions where OTLP/JSON leaves room:
/// - A key repeated in an attribute list or a `kvlistValue` is an error, at the second one:
///   OTLP requires keys to be unique, and an event should not lose a value silently.
/// - A `doubleValue` of `"NaN"`, `"Infinity"` or `"-Infinity"` (pdata writes them so) becomes
///   `null`, as ``JSONWriter`` writes those doubles: JSON cannot express them, and the rest of
///   the record is worth keeping. Any other string must hold a JSON number.
///
/// ```swift
/// // {"timeUnixNano":"1581452773000000789","severityNumber":9,
/// //  "body":{"stringValue":"hi"},"attributes":[{"key":"n","value":{"intValue":"1"}}]}
/// try OTLPLogRecord.write(
///   line: line, record: record, resource: nil, scope: nil, into: &output)
/// // {"attributes":{"n":1},"body":"hi","severityNumber":9,"timeUnixNano":"1581452773000000789"}
/// ```
enum OTLPLogRecord {
  /// Appends the plain JSON event of the log record at `record` in `line` to `output`.
  ///
  /// On error nothing is appended.
  ///
  /// ```swift
  /// var event: [UInt8] = []
  /// try OTLPLogRecord.write(
  ///   line: line, record: found.record, resource: found.resource, scope: found.scope,
  ///   into: &event)
  /// ```
  ///
  /// - Parameters:
  ///   - line: The whole line, an ExportLogsServiceRequest (already checked to be valid JSON).
  ///   - record: The byte range of one logRecord object in `line`.
  ///   - resource: The byte range of the enclosing `resource` object, if the line has one.
  ///   - scope: The byte range of the enclosing `scope` object, if the line has one.
  ///   - output: The bytes to append the event to.
  /// - Throws: `RaspEventError` whose `offset` is a byte offset in `line` (so that errors point
  ///   at the original file's column), naming the field by its path in the record
  ///   (`attributes[2].value.intValue`): for a record that is not an object, an AnyValue with
  ///   several value fields or with only fields OTLP does not define, an `intValue` that is not
  ///   a 64-bit integer or a decimal string of one, a time that is not an unsigned 64-bit
  ///   integer, a key/value entry without a `key` string, a repeated key, a `bytesValue` that
  ///   is not a string, a snake_case field name, or a field of the wrong kind.
  /// - Complexity: O(*n* · *d*) in the length *n* of the record, resource and scope and the
  ///   depth *d* of their nested key/value lists, plus sorting the keys of each list whose keys
  ///   are not in order already.
  static func write(
    line: UnsafeBufferPointer<UInt8>, record: Range<Int>, resource: Range<Int>?,
    scope: Range<Int>?, into output: inout [UInt8]
  ) throws(RaspEventError) {
    let start = output.count
    var converter = Converter(line: line)
    swap(&converter.writer.bytes, &output)
    defer { swap(&converter.writer.bytes, &output) }
    do {
      try converter.writeEvent(record: record, resource: resource, scope: scope)
    } catch {
      converter.writer.bytes.removeLast(converter.writer.bytes.count - start)
      throw error
    }
  }
}

// MARK: - Conversion

/// The state of one conversion: the line's scanner, the output, the members of the objects
/// being written (to sort them), and the path of the value being read (for messages).
private struct Converter {
  /// A step of the path of a field in the record: `attributes`, `[2]`, `value`.
  enum PathComponent {
    case key(StaticString)
    case index(Int)
  }

  /// An object being written: where its `{` is and where its members start in ``members``.
  struct ObjectMark {
    let start: Int
    let firstMember: Int
  }

  /// The key of a member: a name of ours, or a key read from the line.
  enum MemberKey {
    case name(StaticString)
    case raw(JSONRawString)
  }

  /// A member begun in the output: `"key":` is written, the value follows.
  struct MemberStart {
    let key: MemberKey
    /// Where the member's comma (or, for the first, its key) starts.
    let rollback: Int
    /// Where its key starts.
    let start: Int
  }

  /// A member written, `"key":value`, without its comma.
  struct Member {
    let key: MemberKey
    let range: Range<Int>
  }

  /// The kinds of integer that OTLP fields hold.
  enum IntegerKind {
    case int64, uint64, int32, uint32

    var phrase: String {
      switch self {
      case .int64: return "a 64-bit integer"
      case .uint64: return "an unsigned 64-bit integer"
      case .int32: return "a 32-bit integer"
      case .uint32: return "an unsigned 32-bit integer"
      }
    }

    func contains(negative: Bool, magnitude: UInt64) -> Bool {
      switch self {
      case .int64: return magnitude <= (negative ? 1 << 63 : UInt64(Int64.max))
      case .uint64: return !negative || magnitude == 0
      case .int32: return magnitude <= (negative ? 1 << 31 : UInt64(Int32.max))
      case .uint32: return negative ? magnitude == 0 : magnitude <= UInt64(UInt32.max)
      }
    }
  }

  /// The fields of a log record whose snake_case spelling gets a hint.
  static let recordFields: [StaticString] = [
    "timeUnixNano", "observedTimeUnixNano", "severityNumber", "severityText",
    "droppedAttributesCount", "traceId", "spanId", "eventName",
  ]
  /// The fields of an AnyValue, one of which holds its value.
  enum ValueField: CaseIterable {
    case stringValue, boolValue, intValue, doubleValue, bytesValue, arrayValue, kvlistValue

    var name: StaticString {
      switch self {
      case .stringValue: return "stringValue"
      case .boolValue: return "boolValue"
      case .intValue: return "intValue"
      case .doubleValue: return "doubleValue"
      case .bytesValue: return "bytesValue"
      case .arrayValue: return "arrayValue"
      case .kvlistValue: return "kvlistValue"
      }
    }

    /// Every field, computed once (`allCases` makes a new array each time).
    static let all = allCases
    static let names = allCases.map(\.name)
  }

  let line: UnsafeBufferPointer<UInt8>
  var scanner: JSONScanner
  var writer = JSONWriter(capacity: 0)
  /// The members of the objects being written, innermost last.
  var members: [Member] = []
  /// Room to sort an object's members in.
  var scratch: [UInt8] = []
  /// Where the value being read is, in the record (or in `resource`, `scope`).
  var path: [PathComponent] = []
  /// The string of the record's `event.name` attribute, if it has one.
  var eventNameAttribute: JSONRawString?

  init(line: UnsafeBufferPointer<UInt8>) {
    self.line = line
    scanner = JSONScanner(line)
  }

  /// Writes the event: the record, its resource and its scope, read in the order they come in
  /// the line, so that the first problem reported is the first in the line.
  mutating func writeEvent(record: Range<Int>, resource: Range<Int>?, scope: Range<Int>?)
    throws(RaspEventError)
  {
    enum Part { case record, resource, scope }
    let event = openObject()
    var parts = [(record.lowerBound, Part.record)]
    if let resource { parts.append((resource.lowerBound, .resource)) }
    if let scope { parts.append((scope.lowerBound, .scope)) }
    parts.sort { $0.0 < $1.0 }
    for (start, part) in parts {
      scanner.position = start
      scanner.depth = 0
      path.removeAll(keepingCapacity: true)
      switch part {
      case .record: try writeRecord(into: event)
      case .resource: try writeResource(into: event)
      case .scope: try writeScope(into: event)
      }
    }
    closeObject(event)
  }

  // MARK: Record, resource, scope

  mutating func writeRecord(into event: ObjectMark) throws(RaspEventError) {
    scanner.skipWhitespace()
    let start = scanner.position
    guard scanner.peek() == UInt8(ascii: "{") else {
      throw RaspEventError(
        offset: start, reason: .notAnObject(found: scanner.describeValue(at: start)))
    }
    var progress = try beginObject()
    var hasEventName = false
    while let key = try nextMember(&progress) {
      if scanner.matches(key, "timeUnixNano") {
        try writeTime("timeUnixNano", into: event)
      } else if scanner.matches(key, "observedTimeUnixNano") {
        try writeTime("observedTimeUnixNano", into: event)
      } else if scanner.matches(key, "severityNumber") {
        try writeInteger("severityNumber", .int32, into: event)
      } else if scanner.matches(key, "severityText") {
        try writeString("severityText", omittingEmpty: false, into: event)
      } else if scanner.matches(key, "body") {
        let member = beginMember(.name("body"), in: event)
        let valueStart = writer.bytes.count
        path.append(.key("body"))
        try writeAnyValue()
        path.removeLast()
        if valueStart < writer.bytes.count, writer.bytes[valueStart] == UInt8(ascii: "n") {
          cancelMember(member)
        } else {
          endMember(member)
        }
      } else if scanner.matches(key, "attributes") {
        try writeAttributes("attributes", as: .name("attributes"), into: event, ofRecord: true)
      } else if scanner.matches(key, "droppedAttributesCount") {
        try writeInteger("droppedAttributesCount", .uint32, into: event)
      } else if scanner.matches(key, "flags") {
        try writeInteger("flags", .uint32, into: event)
      } else if scanner.matches(key, "traceId") {
        try writeString("traceId", omittingEmpty: true, into: event)
      } else if scanner.matches(key, "spanId") {
        try writeString("spanId", omittingEmpty: true, into: event)
      } else if scanner.matches(key, "eventName") {
        hasEventName = try writeString("eventName", omittingEmpty: true, into: event)
      } else {
        try rejectSnakeCase(key, among: Self.recordFields)
        try skipValue()
      }
    }
    if !hasEventName, let name = eventNameAttribute, name.end > name.start {
      let member = beginMember(.name("eventName"), in: event)
      writeString(name)
      endMember(member)
    }
  }

  mutating func writeResource(into event: ObjectMark) throws(RaspEventError) {
    path.append(.key("resource"))
    guard try beginOptionalObject() else { return }
    var progress = try beginObject()
    while let key = try nextMember(&progress) {
      if scanner.matches(key, "attributes") {
        try writeAttributes("attributes", as: .name("resource"), into: event, ofRecord: false)
      } else {
        try skipValue()
      }
    }
  }

  mutating func writeScope(into event: ObjectMark) throws(RaspEventError) {
    path.append(.key("scope"))
    guard try beginOptionalObject() else { return }
    let member = beginMember(.name("scope"), in: event)
    let scope = openObject()
    var progress = try beginObject()
    while let key = try nextMember(&progress) {
      if scanner.matches(key, "name") {
        try writeString("name", omittingEmpty: false, into: scope)
      } else if scanner.matches(key, "version") {
        try writeString("version", omittingEmpty: false, into: scope)
      } else if scanner.matches(key, "attributes") {
        try writeAttributes("attributes", as: .name("attributes"), into: scope, ofRecord: false)
      } else {
        try skipValue()
      }
    }
    closeObject(scope)
    if writer.bytes.count - scope.start == 2 { cancelMember(member) } else { endMember(member) }
  }

  /// Checks that an object (or `null`, which is skipped) is next, for `resource` and `scope`.
  mutating func beginOptionalObject() throws(RaspEventError) -> Bool {
    scanner.skipWhitespace()
    if try skipNull() { return false }
    guard scanner.peek() == UInt8(ascii: "{") else {
      throw wrongType(expected: "an object", at: scanner.position)
    }
    return true
  }

  // MARK: Fields

  /// Writes an attribute list as the member `key`, left out when it is empty.
  mutating func writeAttributes(
    _ field: StaticString, as key: MemberKey, into object: ObjectMark, ofRecord: Bool
  ) throws(RaspEventError) {
    let member = beginMember(key, in: object)
    let valueStart = writer.bytes.count
    path.append(.key(field))
    try writeList(asObject: true, ofRecord: ofRecord)
    path.removeLast()
    if writer.bytes.count - valueStart == 2 { cancelMember(member) } else { endMember(member) }
  }

  /// Writes a string field; returns whether it was written.
  @discardableResult
  mutating func writeString(
    _ field: StaticString, omittingEmpty: Bool, into object: ObjectMark
  ) throws(RaspEventError) -> Bool {
    scanner.skipWhitespace()
    if try skipNull() { return false }
    guard scanner.peek() == UInt8(ascii: "\"") else {
      throw wrongType(field, expected: "a string", at: scanner.position)
    }
    let text = try readRawString()
    if omittingEmpty, text.start == text.end { return false }
    let member = beginMember(.name(field), in: object)
    writeString(text)
    endMember(member)
    return true
  }

  /// Writes a time in nanoseconds as a string of digits, or nothing for a time of 0 (unset).
  mutating func writeTime(_ field: StaticString, into object: ObjectMark) throws(RaspEventError) {
    scanner.skipWhitespace()
    if try skipNull() { return }
    let (_, magnitude, digits) = try readInteger(field, .uint64)
    guard magnitude != 0 else { return }
    let member = beginMember(.name(field), in: object)
    writer.bytes.append(UInt8(ascii: "\""))
    writer.writeRaw(digits)
    writer.bytes.append(UInt8(ascii: "\""))
    endMember(member)
  }

  /// Writes an integer field as a number.
  mutating func writeInteger(_ field: StaticString, _ kind: IntegerKind, into object: ObjectMark)
    throws(RaspEventError)
  {
    scanner.skipWhitespace()
    if try skipNull() { return }
    let (negative, magnitude, _) = try readInteger(field, kind)
    let member = beginMember(.name(field), in: object)
    writeInteger(negative: negative, magnitude: magnitude)
    endMember(member)
  }

  /// Reads an integer written as a JSON number or as a decimal string, as protobuf's JSON
  /// writes 64-bit integers; returns its sign, magnitude and digits without leading zeros.
  mutating func readInteger(_ field: StaticString?, _ kind: IntegerKind) throws(RaspEventError)
    -> (negative: Bool, magnitude: UInt64, digits: UnsafeBufferPointer<UInt8>)
  {
    let start = scanner.position
    let text: UnsafeBufferPointer<UInt8>
    var shown: String?
    switch scanner.peek() ?? 0 {
    case UInt8(ascii: "\""):
      let raw = try readRawString()
      text = scanner.bytes(of: raw)
      if raw.hasEscapes { shown = scanner.string(raw) }
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      try skipValue()
      text = UnsafeBufferPointer(rebasing: line[start..<scanner.position])
    default:
      throw wrongType(field, expected: "an integer or a decimal string", at: start)
    }
    guard let (negative, digits) = Self.decimal(text),
      let magnitude = Self.magnitude(digits),
      kind.contains(negative: negative, magnitude: magnitude)
    else {
      let written = JSONError.abbreviated(shown ?? String(decoding: text, as: UTF8.self))
      var reason = "'\(written)' is not \(kind.phrase)"
      if kind == .int32, text.first.map({ $0 >= UInt8(ascii: "A") }) == true {
        reason += ": OTLP/JSON writes enums as numbers"
      }
      throw RaspEventError(offset: start, reason: .invalidValue(field: name(field), reason: reason))
    }
    return (negative, magnitude, digits)
  }

  /// The sign and the digits, leading zeros dropped, of `-?[0-9]+`, or `nil`.
  static func decimal(_ text: UnsafeBufferPointer<UInt8>)
    -> (negative: Bool, digits: UnsafeBufferPointer<UInt8>)?
  {
    var index = 0
    let negative = text.first == UInt8(ascii: "-")
    if negative { index = 1 }
    guard index < text.count else { return nil }
    for byte in text[index...] where byte &- UInt8(ascii: "0") >= 10 { return nil }
    while index < text.count - 1, text[index] == UInt8(ascii: "0") { index += 1 }
    return (negative, UnsafeBufferPointer(rebasing: text[index...]))
  }

  /// The value of a string of digits, or `nil` beyond 64 bits.
  static func magnitude(_ digits: UnsafeBufferPointer<UInt8>) -> UInt64? {
    var value: UInt64 = 0
    for byte in digits {
      let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times10.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
      guard !overflow, !carry else { return nil }
      value = sum
    }
    return value
  }

  mutating func writeInteger(negative: Bool, magnitude: UInt64) {
    // In range by now: a magnitude of 2⁶³ wraps to Int64.min, as it should.
    let value = Int64(truncatingIfNeeded: negative ? 0 &- magnitude : magnitude)
    writer.writeInteger(value)
  }

  // MARK: AnyValue
  //
  // AnyValues nest in arrays and key/value lists, and so does their conversion: the scanner's
  // depth limit bounds the recursion, and the functions on its path (writeAnyValue,
  // writeValues, writeList, writeKeyValue) keep their frames small by leaving scalars and
  // errors to functions off the path.

  /// What an AnyValue being read has shown so far.
  struct AnyValueFields {
    /// The key of the value field written, if any.
    var written: JSONRawString?
    /// The first key that is no value field.
    var unknown: JSONRawString?
    /// The string of a `stringValue`.
    var text: JSONRawString?
  }

  /// Writes the AnyValue at the scanner as the JSON value it holds; returns the string of a
  /// `stringValue`.
  @discardableResult
  mutating func writeAnyValue() throws(RaspEventError) -> JSONRawString? {
    guard var progress = try beginAnyValue() else { return nil }
    var fields = AnyValueFields()
    while let key = try nextMember(&progress) {
      guard let field = try valueField(key, &fields) else { continue }
      path.append(.key(field.name))
      switch field {
      case .arrayValue: try writeValues(asObject: false)
      case .kvlistValue: try writeValues(asObject: true)
      default: fields.text = try writeScalar(field)
      }
      path.removeLast()
    }
    try finishAnyValue(fields)
    return fields.text
  }

  /// Opens the AnyValue at the scanner, or writes `null` for `null` and returns `nil`.
  mutating func beginAnyValue() throws(RaspEventError) -> JSONContainerProgress? {
    scanner.skipWhitespace()
    let start = scanner.position
    if try skipNull() {
      writer.writeNull()
      return nil
    }
    guard scanner.peek() == UInt8(ascii: "{") else {
      throw wrongType(expected: "an AnyValue object", at: start)
    }
    return try beginObject()
  }

  /// The value field that `key` names, with the scanner at its value; or `nil`, the value
  /// skipped, when `key` names no value field or its value is `null`.
  mutating func valueField(_ key: JSONRawString, _ fields: inout AnyValueFields)
    throws(RaspEventError) -> ValueField?
  {
    guard let field = ValueField.all.first(where: { scanner.matches(key, $0.name) }) else {
      try rejectSnakeCase(key, among: ValueField.names)
      if fields.unknown == nil { fields.unknown = key }
      try skipValue()
      return nil
    }
    scanner.skipWhitespace()
    if try skipNull() { return nil }
    if let written = fields.written {
      throw RaspEventError(
        offset: key.start - 1,
        reason: .invalidValue(
          field: name(nil),
          reason: "an AnyValue holds one value, found '\(scanner.string(written))' and "
            + "'\(scanner.string(key))'"))
    }
    fields.written = key
    return field
  }

  /// Writes `null` for an AnyValue without a value field, or throws when it had other fields.
  mutating func finishAnyValue(_ fields: AnyValueFields) throws(RaspEventError) {
    guard fields.written == nil else { return }
    if let unknown = fields.unknown {
      throw RaspEventError(
        offset: unknown.start - 1,
        reason: .invalidValue(
          field: name(nil),
          reason: "an AnyValue holds one of stringValue, boolValue, intValue, doubleValue, "
            + "bytesValue, arrayValue or kvlistValue, found only "
            + "'\(JSONError.abbreviated(scanner.string(unknown)))'"))
    }
    writer.writeNull()
  }

  /// Writes the value of a scalar AnyValue field, at the scanner; returns a `stringValue`.
  mutating func writeScalar(_ field: ValueField) throws(RaspEventError) -> JSONRawString? {
    let start = scanner.position
    let byte = scanner.peek()
    switch field {
    case .boolValue:
      guard byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") else {
        throw wrongType(expected: "a boolean", at: start)
      }
      writer.writeBool(try readBool())
    case .intValue:
      let (negative, magnitude, _) = try readInteger(nil, .int64)
      writeInteger(negative: negative, magnitude: magnitude)
    case .doubleValue:
      try writeDouble()
    default:
      // A string; a bytesValue is base64, kept as it is.
      guard byte == UInt8(ascii: "\"") else {
        let expected = field == .stringValue ? "a string" : "a base64 string"
        throw wrongType(expected: expected, at: start)
      }
      let text = try readRawString()
      writeString(text)
      return field == .stringValue ? text : nil
    }
    return nil
  }

  /// Writes a `doubleValue`: a number, or a string of one, or `null` for NaN and infinities.
  mutating func writeDouble() throws(RaspEventError) {
    let start = scanner.position
    switch scanner.peek() ?? 0 {
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      writer.writeNumber(try readNumber())
    case UInt8(ascii: "\""):
      let raw = try readRawString()
      if scanner.matches(raw, "NaN") || scanner.matches(raw, "Infinity")
        || scanner.matches(raw, "-Infinity")
      {
        writer.writeNull()
        return
      }
      var probe = JSONScanner(line, position: raw.start)
      let first = raw.start < raw.end ? line[raw.start] : 0
      guard !raw.hasEscapes, first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10,
        let number = try? probe.readNumber(), probe.position == raw.end
      else {
        let written = JSONError.abbreviated(scanner.string(raw))
        throw RaspEventError(
          offset: start,
          reason: .invalidValue(field: name(nil), reason: "'\(written)' is not a number"))
      }
      writer.writeNumber(number)
    default:
      throw wrongType(expected: "a number", at: start)
    }
  }

  /// Writes an `arrayValue` or a `kvlistValue`, `{"values": [...]}`, at the scanner.
  mutating func writeValues(asObject: Bool) throws(RaspEventError) {
    guard var progress = try beginValues(asObject: asObject) else { return }
    var written = false
    while let key = try nextMember(&progress) {
      guard !written, scanner.matches(key, "values") else {
        try skipValue()
        continue
      }
      path.append(.key("values"))
      try writeList(asObject: asObject, ofRecord: false)
      path.removeLast()
      written = true
    }
    if !written { writer.writeRaw(asObject ? "{}" : "[]") }
  }

  /// Opens the object of an `arrayValue` or a `kvlistValue`, or writes an empty array or
  /// object for `null` and returns `nil`.
  mutating func beginValues(asObject: Bool) throws(RaspEventError) -> JSONContainerProgress? {
    let start = scanner.position
    if try skipNull() {
      writer.writeRaw(asObject ? "{}" : "[]")
      return nil
    }
    guard scanner.peek() == UInt8(ascii: "{") else {
      throw wrongType(expected: "an object with 'values'", at: start)
    }
    return try beginObject()
  }

  // MARK: Lists

  /// Writes a list of AnyValues as an array, or a list of `{"key": …, "value": AnyValue}` as
  /// an object; remembers the string of the `event.name` attribute when the list is the
  /// record's attributes.
  mutating func writeList(asObject: Bool, ofRecord: Bool) throws(RaspEventError) {
    guard let (opened, object) = try beginList(asObject: asObject) else { return }
    var elements = opened
    var keys = JSONKeyTracker()
    var index = 0
    while try nextElement(&elements) {
      path.append(.index(index))
      if asObject {
        try writeKeyValue(into: object, keys: &keys, ofRecord: ofRecord)
      } else {
        if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
        try writeAnyValue()
      }
      path.removeLast()
      index += 1
    }
    if asObject { closeObject(object) } else { writer.bytes.append(UInt8(ascii: "]")) }
  }

  /// Opens a list and writes the opening bracket of what it becomes, or writes the empty
  /// array or object for `null` and returns `nil`.
  mutating func beginList(asObject: Bool) throws(RaspEventError)
    -> (JSONContainerProgress, ObjectMark)?
  {
    scanner.skipWhitespace()
    let start = scanner.position
    if try skipNull() {
      writer.writeRaw(asObject ? "{}" : "[]")
      return nil
    }
    guard scanner.peek() == UInt8(ascii: "[") else {
      let expected = asObject ? "an array of key/value objects" : "an array"
      throw wrongType(expected: expected, at: start)
    }
    let elements = try beginArray()
    if asObject { return (elements, openObject()) }
    writer.bytes.append(UInt8(ascii: "["))
    return (elements, ObjectMark(start: writer.bytes.count - 1, firstMember: members.count))
  }

  /// What a key/value object being read has shown so far.
  struct KeyValueEntry {
    /// The offset of its `{`.
    let start: Int
    var key: JSONRawString?
    /// The member, once begun.
    var member: MemberStart?
    /// Where the value is, when it came before the key.
    var valueStart: Int?
    /// The string of a `stringValue`.
    var text: JSONRawString?
  }

  /// Writes one `{"key": …, "value": AnyValue}` as a member of `object`.
  mutating func writeKeyValue(into object: ObjectMark, keys: inout JSONKeyTracker, ofRecord: Bool)
    throws(RaspEventError)
  {
    scanner.skipWhitespace()
    guard scanner.peek() == UInt8(ascii: "{") else {
      throw wrongType(expected: "a key/value object", at: scanner.position)
    }
    var progress = try beginObject()
    var entry = KeyValueEntry(start: progress.start)
    while let field = try nextMember(&progress) {
      if scanner.matches(field, "key") {
        try readKey(of: &entry, in: object, keys: &keys)
      } else if scanner.matches(field, "value"), entry.member == nil, entry.valueStart == nil {
        guard let key = entry.key else {
          // The key comes later: come back for the value once it is known.
          entry.valueStart = try skipValue()
          continue
        }
        entry.member = beginMember(.raw(key), in: object)
        path.append(.key("value"))
        entry.text = try writeAnyValue()
        path.removeLast()
      } else {
        try skipValue()
      }
    }
    try finishKeyValue(&entry, in: object, ofRecord: ofRecord)
  }

  /// Reads the `key` of a key/value object, checking that the list has no other like it.
  mutating func readKey(
    of entry: inout KeyValueEntry, in object: ObjectMark, keys: inout JSONKeyTracker
  ) throws(RaspEventError) {
    scanner.skipWhitespace()
    if try skipNull() { return }
    guard scanner.peek() == UInt8(ascii: "\"") else {
      throw wrongType("key", expected: "a string", at: scanner.position)
    }
    let key = try readRawString()
    guard entry.key == nil else { return }
    try checkUnique(key, in: object, keys: &keys)
    entry.key = key
  }

  /// Ends the member of a key/value object, writing a value that came before the key, or
  /// `null` for none.
  mutating func finishKeyValue(
    _ entry: inout KeyValueEntry, in object: ObjectMark, ofRecord: Bool
  ) throws(RaspEventError) {
    guard let key = entry.key else {
      throw RaspEventError(offset: entry.start, reason: .missingField(name("key")))
    }
    let member = entry.member ?? beginMember(.raw(key), in: object)
    if entry.member == nil {
      if let valueStart = entry.valueStart {
        let (resume, depth) = (scanner.position, scanner.depth)
        // The value is one level deeper than the key/value object, closed by now.
        (scanner.position, scanner.depth) = (valueStart, depth + 1)
        path.append(.key("value"))
        entry.text = try writeAnyValue()
        path.removeLast()
        (scanner.position, scanner.depth) = (resume, depth)
      } else {
        writer.writeNull()
      }
    }
    endMember(member)
    if ofRecord, eventNameAttribute == nil, let text = entry.text,
      scanner.matches(key, "event.name")
    {
      eventNameAttribute = text
    }
  }

  /// Throws when `key` repeats a key of the list being written into `object`.
  func checkUnique(
    _ key: JSONRawString, in object: ObjectMark, keys: inout JSONKeyTracker
  ) throws(RaspEventError) {
    do {
      try keys.record(key, in: scanner)
    } catch {
      let earlier = members[object.firstMember...].firstIndex {
        if case .raw(let other) = $0.key { return scanner.sameKey(other, key) }
        return false
      }
      var first = Array(path.dropLast())
      first.append(.index((earlier ?? object.firstMember) - object.firstMember))
      throw RaspEventError(
        offset: key.start - 1,
        reason: .invalidValue(
          field: name("key"),
          reason: "'\(JSONError.abbreviated(scanner.string(key)))' is also the key of "
            + "\(Self.render(first)): keys must be unique"))
    }
  }

  // MARK: Objects with sorted keys

  mutating func openObject() -> ObjectMark {
    writer.bytes.append(UInt8(ascii: "{"))
    return ObjectMark(start: writer.bytes.count - 1, firstMember: members.count)
  }

  /// Writes `,"key":` (no comma before the first member) and returns the member's start.
  mutating func beginMember(_ key: MemberKey, in object: ObjectMark) -> MemberStart {
    let rollback = writer.bytes.count
    if members.count > object.firstMember { writer.bytes.append(UInt8(ascii: ",")) }
    let start = writer.bytes.count
    switch key {
    case .name(let name):
      writer.bytes.append(UInt8(ascii: "\""))
      writer.writeRaw(name)
      writer.bytes.append(UInt8(ascii: "\""))
    case .raw(let raw):
      writeString(raw)
    }
    writer.bytes.append(UInt8(ascii: ":"))
    return MemberStart(key: key, rollback: rollback, start: start)
  }

  mutating func endMember(_ member: MemberStart) {
    members.append(Member(key: member.key, range: member.start..<writer.bytes.count))
  }

  /// Removes a member begun, comma and all.
  mutating func cancelMember(_ member: MemberStart) {
    writer.bytes.removeLast(writer.bytes.count - member.rollback)
  }

  /// Closes an object, sorting its members by key when they were written out of order.
  mutating func closeObject(_ object: ObjectMark) {
    writer.bytes.append(UInt8(ascii: "}"))
    let scanner = scanner
    var sorted = true
    for index in (object.firstMember + 1)..<max(members.count, object.firstMember + 1)
    where !Self.precedes(members[index - 1].key, members[index].key, in: scanner) {
      sorted = false
      break
    }
    if !sorted {
      members[object.firstMember...].sort { Self.precedes($0.key, $1.key, in: scanner) }
      scratch.removeAll(keepingCapacity: true)
      scratch.append(UInt8(ascii: "{"))
      for member in members[object.firstMember...] {
        if scratch.count > 1 { scratch.append(UInt8(ascii: ",")) }
        scratch.append(contentsOf: writer.bytes[member.range])
      }
      scratch.append(UInt8(ascii: "}"))
      writer.bytes.replaceSubrange(object.start..<writer.bytes.count, with: scratch)
    }
    members.removeLast(members.count - object.firstMember)
  }

  /// Whether key `a` comes before key `b`, comparing their text byte by byte, as
  /// ``JSONObject/keyPrecedes(_:_:)`` does.
  static func precedes(_ a: MemberKey, _ b: MemberKey, in scanner: JSONScanner) -> Bool {
    withText(of: a, in: scanner) { left in
      withText(of: b, in: scanner) { right in
        for (x, y) in zip(left, right) where x != y { return x < y }
        return left.count < right.count
      }
    }
  }

  static func withText<Result>(
    of key: MemberKey, in scanner: JSONScanner, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    switch key {
    case .name(let name):
      return body(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    case .raw(let raw) where !raw.hasEscapes:
      return body(scanner.bytes(of: raw))
    case .raw(let raw):
      var text = scanner.string(raw)
      return text.withUTF8(body)
    }
  }

  // MARK: Reading and errors

  // The scanner's operations, with its syntax errors made event errors (a line already
  // checked has none, but for nesting deeper than the scanner allows).

  mutating func beginObject() throws(RaspEventError) -> JSONContainerProgress {
    do { return try scanner.beginObject() } catch { throw RaspEventError(error) }
  }

  mutating func nextMember(_ progress: inout JSONContainerProgress) throws(RaspEventError)
    -> JSONRawString?
  {
    do { return try scanner.nextMember(&progress) } catch { throw RaspEventError(error) }
  }

  mutating func beginArray() throws(RaspEventError) -> JSONContainerProgress {
    do { return try scanner.beginArray() } catch { throw RaspEventError(error) }
  }

  mutating func nextElement(_ progress: inout JSONContainerProgress) throws(RaspEventError)
    -> Bool
  {
    do { return try scanner.nextElement(&progress) } catch { throw RaspEventError(error) }
  }

  mutating func readRawString() throws(RaspEventError) -> JSONRawString {
    do { return try scanner.readRawString() } catch { throw RaspEventError(error) }
  }

  mutating func readBool() throws(RaspEventError) -> Bool {
    do { return try scanner.readBool() } catch { throw RaspEventError(error) }
  }

  mutating func readNumber() throws(RaspEventError) -> JSONNumber {
    do { return try scanner.readNumber() } catch { throw RaspEventError(error) }
  }

  /// Skips a `null` if it is next (a field set to `null` is unset in protobuf's JSON).
  mutating func skipNull() throws(RaspEventError) -> Bool {
    do { return try scanner.readNull() } catch { throw RaspEventError(error) }
  }

  @discardableResult
  mutating func skipValue() throws(RaspEventError) -> Int {
    do { return try scanner.skipValue() } catch { throw RaspEventError(error) }
  }

  mutating func writeString(_ raw: JSONRawString) {
    if raw.hasEscapes {
      writer.writeString(scanner.string(raw))
    } else {
      writer.writeString(utf8: scanner.bytes(of: raw))
    }
  }

  /// Throws the error for `key` when it is the snake_case spelling of one of `names`.
  func rejectSnakeCase(_ key: JSONRawString, among names: [StaticString])
    throws(RaspEventError)
  {
    guard scanner.bytes(of: key).contains(UInt8(ascii: "_")) || key.hasEscapes else { return }
    let text = scanner.string(key)
    var camel = ""
    var upper = false
    for character in text {
      if character == "_" {
        upper = true
      } else {
        camel += upper ? character.uppercased() : String(character)
        upper = false
      }
    }
    guard camel != text, let match = names.first(where: { $0.description == camel }) else {
      return
    }
    var field = Self.render(path)
    field += field.isEmpty ? text : "." + text
    throw RaspEventError(
      offset: key.start - 1,
      reason: .invalidValue(
        field: field, reason: "OTLP/JSON names fields in lowerCamelCase: write '\(match)'"))
  }

  /// The path of the value being read, followed by `field`.
  func name(_ field: StaticString?) -> String {
    var text = Self.render(path)
    if let field { text += text.isEmpty ? field.description : "." + field.description }
    return text
  }

  static func render(_ components: [PathComponent]) -> String {
    var text = ""
    for component in components {
      switch component {
      case .key(let key): text += text.isEmpty ? key.description : "." + key.description
      case .index(let index): text += "[\(index)]"
      }
    }
    return text
  }

  func wrongType(_ field: StaticString? = nil, expected: String, at offset: Int)
    -> RaspEventError
  {
    RaspEventError.wrongType(field: name(field), expected: expected, at: offset, in: scanner)
  }
}
