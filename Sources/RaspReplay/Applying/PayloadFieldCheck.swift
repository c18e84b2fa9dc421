import RaspDomains
import RaspJSON

/// The check of an event's payload keys against the fields its type defines: the stage that
/// finds `acuracy` in a `geo.location`.
///
/// Under `--strict` every routed event is checked before it is applied, and a field its type
/// does not define is a bad line. Outside it, only an event whose decoder skipped a field is
/// checked, after it is applied, for a warning (``ReplayStatistics/unknownFields``); and only
/// where an unknown field is likely a mistake: not in a spec's events, whose fields are those
/// its operations read, not a schema (a Redux action's payload, Segment's properties have
/// others), and only in a payload the log wrote as one, not in a whole record that a map takes
/// for the payload (`"payload": "."`, whose other fields are the envelope's) or whose fields it
/// renames. A type that defines no fields (it reads its payload whole) or accepts others (a
/// REST response) is never checked. The field of the key (`--key-by payload.deviceId`) is a
/// field of every payload.
///
/// Asked of every event under `--strict`: a quick look at the keys
/// (``PayloadFieldNames/holdsAll(in:at:)``) finds them all fields, or the careful scan says
/// which is not.
///
/// ```swift
/// let check = PayloadFieldCheck(configuration, typeNames: router.typeNames)
/// if let error = check.unknownField(of: routed) { /* a bad line, or a warning */ }
/// ```
struct PayloadFieldCheck {
  /// The fields of each routed type, by domain and event index as the router numbers them.
  private let table: PayloadFieldTable

  /// The check of the types `typeNames` (`domain.event`, by domain and event index) of
  /// `configuration`'s domains, with the fields their schemas define.
  init(_ configuration: ReplayConfiguration, typeNames: [[String]]) {
    let format = configuration.format
    let isPayloadAsWritten =
      format.fieldMoves == nil && !format.payload.contains { $0.components.isEmpty }
    let checked =
      configuration.isStrict
      ? configuration.domains
      : isPayloadAsWritten ? configuration.domains.filter { !($0 is RaspSpecDomain) } : []
    self.init(typeNames: typeNames, domains: checked, keyPath: configuration.keyPath)
  }

  /// The check of the types `typeNames` against the schemas of `domains`; a type of no domain
  /// among them is not checked.
  init(typeNames: [[String]], domains: [any RaspDomain], keyPath: JSONPath?) {
    var keyField: String?
    if let components = keyPath?.components, components.count > 1,
      case .key("payload") = components[0], case .key(let key) = components[1]
    {
      keyField = key
    }
    table = PayloadFieldTable(
      typeNames.map { names in
        names.map { typeName -> PayloadFieldNames? in
          for domain in domains {
            for event in domain.events where "\(domain.name).\(event.name)" == typeName {
              let fields = event.fields.map(\.name)
              guard !fields.isEmpty, !event.acceptsOtherFields else { return nil }
              return PayloadFieldNames(fields + (keyField.map { [$0] } ?? []))
            }
          }
          return nil
        }
      })
  }

  /// The error for the first payload field that the routed event's type does not define, at
  /// its key, with the nearest field that it does; `nil` when every field is defined, or the
  /// type is not checked. What else is wrong with the payload is the decoder's to report.
  @inline(__always)
  func unknownField(of routed: SnapshotState.Event) -> RaspEventError? {
    unknownField(
      in: routed.envelope.line, payloadAt: routed.envelope.payloadOffset,
      domain: routed.domainIndex, event: routed.eventIndex)
  }

  /// The error for the first payload field of the object at `offset` in `line` that the type
  /// numbered `event` of domain `domain` does not define; `nil` when there is none.
  @inline(__always)
  func unknownField(
    in line: UnsafeBufferPointer<UInt8>, payloadAt offset: Int?, domain: Int, event: Int
  ) -> RaspEventError? {
    guard let fields = table.fields(domain: domain, event: event), let offset,
      !fields.holdsAll(in: line, at: offset)
    else { return nil }
    return Self.firstUnknownField(in: line, at: offset, fields: fields)
  }

  /// The careful scan, once the quick look found a key that may not be a field.
  @inline(never)
  private static func firstUnknownField(
    in line: UnsafeBufferPointer<UInt8>, at offset: Int, fields: PayloadFieldNames
  ) -> RaspEventError? {
    var scanner = JSONScanner(line, position: offset)
    scanner.depth = 1
    do {
      var progress = try scanner.beginObject()
      while let key = try scanner.nextMember(&progress) {
        if key.hasEscapes
          || !fields.contains(UnsafeBufferPointer(rebasing: line[key.start..<key.end]))
        {
          let name = scanner.string(key)
          if !fields.names.contains(name) {
            let near = RaspSpelling.nearest(to: name, among: fields.names).map {
              "payload.\($0)"
            }
            return RaspEventError(
              offset: key.start - 1, reason: .unknownField("payload.\(name)", nearest: near))
          }
        }
        _ = try scanner.skipValue()
      }
    } catch {
      return nil
    }
    return nil
  }
}
