import RaspJSON

/// Turns each record's value into what changed since the previous record's — an RFC 6902
/// JSON Patch — for ``ReplayConfiguration/Emit/diff``: the output stage's diff.
///
/// The first record is compared with the initial state (or the value selected in it), so a
/// patch always applies to the state before its event. A snapshot is compared domain by
/// domain: only the domains whose canonical bytes changed are parsed, and each domain's value
/// is parsed once, kept for the next comparison. A selected value is compared whole.
///
/// ```swift
/// var differ = RecordDiffer(initialDomains: [geoBytes, navBytes], names: ["geo", "nav"])
/// let patch = differ.advance(domains: [newGeoBytes, navBytes])
/// // [{"op":"replace","path":"/geo/heading","value":273}]
/// ```
struct RecordDiffer {
  /// A domain's previous bytes and, once needed, its value.
  private struct Part {
    var bytes: [UInt8]
    var value: JSONValue?

    mutating func parsed() -> JSONValue {
      if let value { return value }
      let parsed = RecordDiffer.parse(bytes[...])
      value = parsed
      return parsed
    }
  }

  /// The domains' names, the first component of each operation's path.
  private let names: [String]
  /// The previous snapshot's domains, or the previous selected value as one part.
  private var parts: [Part]

  /// Starts from the initial snapshot's domains.
  init(initialDomains: [ArraySlice<UInt8>], names: [String]) {
    self.names = names
    self.parts = initialDomains.map { Part(bytes: Array($0), value: nil) }
  }

  /// Starts from the value selected in the initial snapshot.
  init(initialValue: [UInt8]) {
    self.names = []
    self.parts = [Part(bytes: initialValue, value: nil)]
  }

  /// The operations that turn the previous snapshot into one with these domains, which
  /// becomes the previous one.
  ///
  /// - Parameter domains: The next snapshot's domains, as canonical JSON.
  /// - Returns: The operations, in document order; empty when nothing changed.
  mutating func advance(domains: [ArraySlice<UInt8>]) -> [JSONValue] {
    var operations: [JSONValue] = []
    for index in parts.indices {
      let next = domains[index]
      guard !next.elementsEqual(parts[index].bytes) else { continue }
      var new = Part(bytes: Array(next), value: nil)
      let differences = JSONDiff.differences(from: parts[index].parsed(), to: new.parsed())
      for difference in differences {
        let path = JSONPath(components: [.key(names[index])] + difference.path.components)
        operations.append(
          JSONDifference(path: path, expected: difference.expected, actual: difference.actual)
            .patchOperation)
      }
      parts[index] = new
    }
    return operations
  }

  /// The operations that turn the previous selected value into `next`, which becomes the
  /// previous one.
  mutating func advance(value next: [UInt8]) -> [JSONValue] {
    guard next != parts[0].bytes else { return [] }
    var new = Part(bytes: next, value: nil)
    let operations = JSONDiff.differences(from: parts[0].parsed(), to: new.parsed())
      .map(\.patchOperation)
    parts[0] = new
    return operations
  }

  /// Parses canonical JSON written by a domain or a selection; `null` if it is not JSON, which
  /// a domain that writes valid JSON never causes.
  static func parse(_ bytes: ArraySlice<UInt8>) -> JSONValue {
    let parsed = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONError) in try JSONParser.parse(buffer) }
    }
    return (try? parsed.get()) ?? .null
  }
}
