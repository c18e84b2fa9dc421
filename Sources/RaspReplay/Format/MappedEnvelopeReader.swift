import RaspDomains
import RaspJSON

/// Reads the envelope of a line in a format a map file describes: finds the map's fields in
/// one pass over the line (``FieldLocator``), makes the type into rasp's `domain.event`
/// (``TypeTable``) and reads the time in the map's unit.
///
/// The envelope it gives is an ``Envelope`` like any other — the payload and the source are
/// read from the line in place — with the type's number in the table instead of its bytes.
/// Errors point at the line's own bytes: a type field that is not a string, a payload that is
/// not an object, a time in the wrong unit.
///
/// ```swift
/// var reader = MappedEnvelopeReader(table: TypeTable(format: fsa))
/// switch try reader.read(line) {
/// case .envelope(let envelope): route(envelope)
/// case .dropped: dropped += 1
/// }
/// ```
struct MappedEnvelopeReader {
  /// What a line holds.
  enum Read {
    /// An event.
    case envelope(Envelope)
    /// An event of a type the format drops, or of a line its `keep` does not keep.
    case dropped
  }

  let table: TypeTable
  /// The format the events are read with: the table's, or one of its `emit` events'.
  let format: LogFormat
  private let locator: FieldLocator
  /// Where each kind of field's alternatives are among the locator's paths.
  private let typeFields: Range<Int>
  private let payloadFields: Range<Int>
  private let timeFields: Range<Int>
  private let sourceFields: Range<Int>
  private let fallbackTimeFields: Range<Int>
  private let keptFields: Range<Int>
  /// The paths, by index, for messages.
  private let paths: [JSONPath]
  /// The name of the one field the type is, when the template is no more than that.
  private let singleTypeField: String?
  /// The ranges found in the line being read, reused from line to line.
  private var found: [Range<Int>?]
  /// The minute of the last RFC 3339 time read.
  private var memo = RaspTimestamp.Memo()
  /// Whether the map's `keep` kept the last line read.
  private(set) var keptLast = true

  init(table: TypeTable, format: LogFormat? = nil) {
    self.table = table
    let format = format ?? table.format
    self.format = format
    var paths = format.type.paths
    typeFields = 0..<paths.count
    paths += format.payload
    payloadFields = typeFields.upperBound..<paths.count
    paths += format.time
    timeFields = payloadFields.upperBound..<paths.count
    paths += format.source
    sourceFields = timeFields.upperBound..<paths.count
    paths += format.fallbackTime
    fallbackTimeFields = sourceFields.upperBound..<paths.count
    paths += format.keptFields.map(\.path)
    keptFields = fallbackTimeFields.upperBound..<paths.count
    self.paths = paths
    if format.type.parts.count == 1, case .field(let fields) = format.type.parts[0],
      fields.count == 1
    {
      singleTypeField = fields[0].description
    } else {
      singleTypeField = nil
    }
    // A payload without alternatives is read to its end by its decoder, or checked when
    // nobody decodes it: found here, not checked twice.
    locator = FieldLocator(
      paths: paths, lazy: format.payload.count == 1 ? Set(payloadFields) : [])
    found = locator.makeResults()
  }

  /// Reads one line.
  ///
  /// - Throws: ``RaspDomains/RaspEventError`` for a line that is not a JSON object, or whose
  ///   fields are missing or of the wrong kind.
  mutating func read(_ line: UnsafeBufferPointer<UInt8>) throws(RaspEventError) -> Read {
    try checkIsObject(line)
    do {
      try locator.locate(in: line, into: &found)
    } catch {
      throw RaspEventError(error)
    }
    let scanner = JSONScanner(line)
    if !keptFields.isEmpty {
      keptLast = isKept(line)
      if !keptLast {
        try checkPayload(line, scanner)
        return .dropped
      }
    }
    // The type, from the template's fields: read in place when it is one field's string.
    if let name = singleTypeField, let range = found[typeFields.lowerBound],
      line[range.lowerBound] == UInt8(ascii: "\""),
      !line[(range.lowerBound + 1)..<(range.upperBound - 1)].contains(UInt8(ascii: "\\"))
    {
      let bytes = UnsafeBufferPointer(
        rebasing: line[(range.lowerBound + 1)..<(range.upperBound - 1)])
      return try envelope(
        line, scanner, interned: table.intern(bytes: bytes), typeField: range, named: name)
    }
    var firstTypeField: Range<Int>?
    var typeFieldName = "type"
    var failure: RaspEventError?
    let rendered = format.type.render { index, path in
      // A field that is `null` is absent, as Segment's libraries write a page without a name.
      guard let range = found[typeFields.lowerBound + index],
        line[range.lowerBound] != UInt8(ascii: "n")
      else { return nil }
      if firstTypeField == nil {
        firstTypeField = range
        typeFieldName = path.description
      }
      guard line[range.lowerBound] == UInt8(ascii: "\"") else {
        if failure == nil {
          failure = RaspEventError.wrongType(
            field: path.description, expected: "a string", at: range.lowerBound, in: scanner)
        }
        return ""
      }
      var reader = JSONScanner(line, position: range.lowerBound)
      guard let raw = try? reader.readRawString() else { return "" }
      return reader.string(raw)
    }
    if let failure { throw failure }
    let type: String
    switch rendered {
    case .success(let text): type = text
    case .failure(let missing):
      if format.dropsUntyped {
        try checkPayload(line, scanner)
        return .dropped
      }
      throw RaspEventError(offset: 0, reason: .missingField(missing.paths[0].description))
    }
    return try envelope(
      line, scanner, interned: table.intern(type), typeField: firstTypeField, named: typeFieldName)
  }

  /// The envelope of a line whose type is `interned`.
  private mutating func envelope(
    _ line: UnsafeBufferPointer<UInt8>, _ scanner: JSONScanner, interned: TypeTable.Interned,
    typeField firstTypeField: Range<Int>?, named typeFieldName: String
  ) throws(RaspEventError) -> Read {
    let id: Int32
    switch interned {
    case .dropped:
      try checkPayload(line, scanner)
      return .dropped
    case .invalid(let reason):
      throw RaspEventError(
        offset: firstTypeField?.lowerBound,
        reason: .invalidValue(field: typeFieldName, reason: reason))
    case .type(let number): id = number
    }
    let payload = payloadOffset(line)
    let (timestamp, timestampRange) = try time(line, scanner)
    let source = try sourceString(line, scanner)
    let typeRange = firstTypeField.map { ($0.lowerBound + 1)..<($0.upperBound - 1) } ?? 1..<1
    return .envelope(
      Envelope(
        line: line, mappedType: id, typeRange: typeRange, payloadOffset: payload,
        timestamp: timestamp, timestampRange: timestampRange, source: source))
  }

  /// Checks the payload of an event no domain will read: a dropped one.
  private func checkPayload(_ line: UnsafeBufferPointer<UInt8>, _ scanner: JSONScanner)
    throws(RaspEventError)
  {
    for index in payloadFields {
      guard let range = found[index] else { continue }
      var reader = JSONScanner(line, position: range.lowerBound)
      reader.depth = 1
      do {
        try reader.skipValue()
      } catch {
        throw RaspEventError(error)
      }
    }
  }

  /// Whether the line has, at each of the fields of the map's `keep`, one of its values.
  private func isKept(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    for (offset, index) in keptFields.enumerated() {
      guard let range = found[index],
        let value = try? JSONParser.parse(UnsafeBufferPointer(rebasing: line[range])),
        format.keptFields[offset].values.contains(value)
      else { return false }
    }
    return true
  }

  /// Throws the error for a line that is not a JSON object, as rasp's own lines have it.
  private func checkIsObject(_ line: UnsafeBufferPointer<UInt8>) throws(RaspEventError) {
    var scanner = JSONScanner(line)
    scanner.skipWhitespace()
    guard scanner.peek() != UInt8(ascii: "{") else { return }
    // The careful reader of rasp's lines explains it the same way.
    _ = try Envelope.parseCarefully(line)
  }

  /// The first field among `fields` that the line has, and is not `null`.
  private func first(_ fields: Range<Int>, _ line: UnsafeBufferPointer<UInt8>)
    -> (index: Int, range: Range<Int>)?
  {
    for index in fields {
      guard let range = found[index] else { continue }
      if line[range.lowerBound] == UInt8(ascii: "n") { continue }
      return (index, range)
    }
    return nil
  }

  private func payloadOffset(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
    // Any value but null: a domain that reads fields refuses one that is not an object.
    first(payloadFields, line)?.range.lowerBound
  }

  private mutating func time(_ line: UnsafeBufferPointer<UInt8>, _ scanner: JSONScanner)
    throws(RaspEventError) -> (RaspTimestamp?, Range<Int>?)
  {
    var unit = format.timeUnit
    var found = first(timeFields, line)
    if found == nil, let fallback = first(fallbackTimeFields, line) {
      found = fallback
      unit = format.fallbackTimeUnit
    }
    guard let (index, range) = found else { return (nil, nil) }
    // The field's name, for messages only: not made for every line.
    var field: String { paths[index].description }
    let isString = line[range.lowerBound] == UInt8(ascii: "\"")
    let text = isString ? (range.lowerBound + 1)..<(range.upperBound - 1) : range
    let bytes = UnsafeBufferPointer(rebasing: line[text])
    func invalid(_ reason: String) -> RaspEventError {
      RaspEventError(offset: range.lowerBound, reason: .invalidValue(field: field, reason: reason))
    }
    func number(_ reason: EpochTime.Failure) -> RaspEventError {
      let text = JSONError.abbreviated(String(decoding: bytes, as: UTF8.self))
      // Text in a string: neither digits nor a time.
      if isString, unit != .auto, !bytes.contains(where: { $0 &- UInt8(ascii: "0") < 10 }) {
        return invalid("'\(text)' is neither a number of \(unit.name) nor an RFC 3339 time")
      }
      return invalid("\(text) \(reason)")
    }
    // A string that is not only a number is an RFC 3339 time, whatever the unit: it says its
    // own, and JavaScript apps write `Date.now()` and ISO strings side by side.
    let isRFC3339 =
      isString
      && (unit == .auto || unit == .rfc3339
        || bytes.contains { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: ":") })
    if isRFC3339 {
      if let quick = RaspTimestamp.quickRFC3339(bytes, memo: &memo) { return (quick, range) }
      do {
        return (try RaspTimestamp(rfc3339: String(decoding: bytes, as: UTF8.self)), range)
      } catch {
        throw invalid("not an RFC 3339 time: \(error)")
      }
    }
    switch unit {
    case .auto, .rfc3339:
      guard unit == .auto, line[range.lowerBound] != UInt8(ascii: "{"),
        line[range.lowerBound] != UInt8(ascii: "[")
      else {
        throw RaspEventError.wrongType(
          field: field, expected: "an RFC 3339 string", at: range.lowerBound, in: scanner)
      }
      do throws(EpochTime.Failure) {
        // The time of an event in a string (not the message's) is the inner map's.
        let isInner = table.lineFormat.inner != nil && timeFields.contains(index)
        try EpochTime.checkUnitlessSeconds(bytes, isInner: isInner)
        return (try EpochTime.read(bytes, unit: .s), range)
      } catch {
        throw number(error)
      }
    case .s, .ms, .us, .ns:
      do throws(EpochTime.Failure) {
        return (try EpochTime.read(bytes, unit: unit), range)
      } catch {
        throw number(error)
      }
    }
  }

  private func sourceString(_ line: UnsafeBufferPointer<UInt8>, _ scanner: JSONScanner)
    throws(RaspEventError) -> JSONRawString?
  {
    guard let (index, range) = first(sourceFields, line) else { return nil }
    guard line[range.lowerBound] == UInt8(ascii: "\"") else {
      throw RaspEventError.wrongType(
        field: paths[index].description, expected: "a string", at: range.lowerBound, in: scanner)
    }
    var reader = JSONScanner(line, position: range.lowerBound)
    return try? reader.readRawString()
  }
}
