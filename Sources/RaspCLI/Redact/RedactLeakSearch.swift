import RaspJSON

/// `rasp redact --verify`'s search for original values left in the output: every key and
/// string of a JSON text, and the JSON text that a string holds (a kcat message's `payload`,
/// a DevTools action written as a string, a `$jsan` Map), searched in turn.
///
/// A string leaks an original string of a redacted path when it is that string or, for an
/// original of four characters or more, holds it; a shorter original leaks only as the whole
/// value of a member named as the last key of its own path (``searchedLength``). A number (a
/// JSON number at a value's place, or a field of an NMEA sentence) leaks an original number
/// when it is equal to it and, but for one of six significant digits or more
/// (``distinctDigits``), is the value of a member of the same name as where the original was.
/// What a rule wrote is never a leak: a time shifted by an hour may be another event's
/// original time.
///
/// ```swift
/// let root = try JSONNode.read(line)
/// if let leak = RedactLeakSearch.firstLeak(in: root, of: result.originals) {
///   print(leak.path, leak.original.path)
/// }
/// ```
enum RedactLeakSearch {
  /// Where an original value was: its line (from 1) and its path there.
  typealias Place = (line: Int, path: String)

  /// What is searched for: the original values of the redacted paths, and what the rules
  /// wrote, which is no leak even where it equals an original (a time shifted by an hour is
  /// the original time of an event an hour later).
  struct Originals {
    /// Each original string, with where it was first.
    var strings: [String: Place] = [:]
    /// Each string a rule wrote: a code, a constant, a shifted time.
    var written: Set<String> = []
    /// Each original number, by its value, with where it was first and the name of the
    /// member that held it (none for an element of an array at the top).
    var numbers: [Double: (place: Place, name: String?)] = [:]
    /// Each number a rule wrote: a shifted time, a rounded position, a constant.
    var writtenNumbers: Set<Double> = []

    /// Whether there is nothing to search for.
    var isEmpty: Bool { strings.isEmpty && numbers.isEmpty }
  }

  /// How many significant digits make a number searched wherever it is: `52.520008`,
  /// `1795339800250` or an NMEA time `200619.30` are no other field's value by chance; `12`,
  /// `271.5` or `2026` may well be, and leak only as the value of a member of the same name
  /// as the original's (an `accuracy` of 12).
  static let distinctDigits = 6

  /// Where the original was, when `number`, the value of a member named `name` (or an array's
  /// element, in a member so named), is one.
  ///
  /// - Parameters:
  ///   - number: The number searched.
  ///   - originals: The original values of the redacted paths.
  ///   - name: The name of the member whose value it is, or holds it.
  /// - Returns: Where the original that `number` leaks was.
  static func leak(number: JSONNumber, of originals: Originals, name: String?) -> Place? {
    let value = number.doubleValue
    guard let original = originals.numbers[value], !originals.writtenNumbers.contains(value)
    else { return nil }
    if let name, name == original.name { return original.place }
    return significantDigits(value) >= distinctDigits ? original.place : nil
  }

  /// The significant digits of a number's shortest form: 5 for `52.52`, 2 for `1200`.
  static func significantDigits(_ value: Double) -> Int {
    var writer = JSONWriter()
    writer.writeNumber(JSONNumber(value))
    var digits = writer.bytes.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
      .filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    while digits.first == UInt8(ascii: "0") { digits.removeFirst() }
    while digits.last == UInt8(ascii: "0") { digits.removeLast() }
    return digits.count
  }

  /// The first field of an NMEA sentence (`$GPGGA,200619.30,…*2C`) that leaks an original
  /// number, with its name (`GGA.time`, or `GGA[1]` for a field a policy cannot name); `nil`
  /// for a line that is no sentence, or leaks none.
  static func sentenceLeak(in line: String, of originals: Originals)
    -> (path: String, original: Place)?
  {
    guard !originals.numbers.isEmpty, line.first == "$" else { return nil }
    let body = line.dropFirst().prefix { $0 != "*" }
    let fields = body.split(separator: ",", omittingEmptySubsequences: false)
    guard let address = fields.first, address.count == 5 else { return nil }
    let type = String(address.suffix(3))
    for (index, field) in fields.enumerated().dropFirst() {
      guard !field.isEmpty, field.allSatisfy({ $0 == "." || $0 == "-" || $0.isNumber }),
        let value = Double(field)
      else { continue }
      let name = NMEASentences.fields[type]?.first { $0.index == index }?.name
      if let place = leak(number: JSONNumber(value), of: originals, name: name) {
        return (name.map { "\(type).\($0)" } ?? "\(type)[\(index)]", place)
      }
    }
    return nil
  }

  /// An original value found in the output.
  struct Leak {
    /// Where it is: the offset of its key or string in the text searched (of the outermost
    /// string that holds it, when one does).
    let offset: Int
    /// Its path in the text searched, the JSON held in strings continuing it.
    let path: [JSONPath.Component]
    /// Where the original value was.
    let original: Place
  }

  /// The first key or string of `root` (or of the JSON its strings hold) that leaks one of
  /// `originals`; `nil` when none does.
  ///
  /// - Parameters:
  ///   - root: The text searched.
  ///   - originals: The original values of the redacted paths, with where each was.
  /// - Returns: The first leak, in the text's order.
  static func firstLeak(in root: JSONNode, of originals: Originals) -> Leak? {
    guard !originals.isEmpty else { return nil }
    var path: [JSONPath.Component] = []
    return firstLeak(in: root, at: &path, outer: nil, originals)
  }

  /// How long an original string must be to be searched everywhere: as a key, in a line
  /// that is not JSON, and inside longer strings. A shorter one (`"a"`, `"ok"`, `"US"`) is
  /// as likely another field's code as a leak, and is a leak only as the whole value of a
  /// member of the same name as where it was redacted.
  static let searchedLength = 4

  /// Where the original was, when `text` (a line that is not JSON, a key, a string) is one or
  /// holds one of ``searchedLength`` characters or more.
  ///
  /// - Parameters:
  ///   - text: The text searched.
  ///   - originals: The original values of the redacted paths, with where each was.
  ///   - path: Where `text` is the value of a member, its path: a short original leaks there
  ///     when the member's name is that of its own path's last key.
  /// - Returns: Where the original that `text` leaks was.
  static func leak(
    in text: String, of originals: Originals, at path: [JSONPath.Component]? = nil
  ) -> Place? {
    if originals.written.contains(text) { return nil }
    if let exact = originals.strings[text] {
      if text.count >= searchedLength { return exact }
      if let last = path?.last, case .key = last,
        (try? JSONPath(exact.path, allowsPatterns: true))?.components.last == last
      {
        return exact
      }
    }
    for (original, place) in originals.strings
    where original.count >= searchedLength && text.contains(original) {
      return place
    }
    return nil
  }

  /// The name of the member a value at `path` is, or is in: its last key.
  static func memberName(_ path: [JSONPath.Component]) -> String? {
    for component in path.reversed() {
      if case .key(let key) = component { return key }
    }
    return nil
  }

  /// Searches a node, and the JSON its strings hold; `outer` is the offset of the string of
  /// the text that holds the node, if one does.
  private static func firstLeak(
    in node: JSONNode, at path: inout [JSONPath.Component], outer: Int?,
    _ originals: Originals
  ) -> Leak? {
    let offset = outer ?? node.offset
    switch node.content {
    case .string(let text):
      // A string of JSON (`payload`, a `$jsan` Map or Set): what it holds, where it is.
      var inner = Substring(text)
      if path.last == .key("$jsan"), let first = inner.first, first == "m" || first == "l" {
        inner = inner.dropFirst()
      }
      if let first = inner.first(where: { !" \t\r\n".contains($0) }),
        first == "{" || first == "[",
        let held = try? JSONNode.read(
          Array(inner.utf8), maximumDepth: JSONLimits.maximumWrittenDepth)
      {
        if let found = firstLeak(in: held, at: &path, outer: offset, originals) { return found }
        // Its strings and keys were searched, each as itself: the text is searched only as
        // a whole, so that a value a rule wrote in it (a shifted time that is another
        // event's original) is no leak of the original that it equals.
        if !originals.written.contains(text), let place = originals.strings[text] {
          return Leak(offset: offset, path: path, original: place)
        }
        break
      }
      if let place = leak(in: text, of: originals, at: path) {
        return Leak(offset: offset, path: path, original: place)
      }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        path.append(.index(index))
        defer { path.removeLast() }
        if let found = firstLeak(in: element, at: &path, outer: outer, originals) {
          return found
        }
      }
    case .object(let members):
      for member in members {
        path.append(.key(member.key))
        defer { path.removeLast() }
        if let place = leak(in: member.key, of: originals) {
          return Leak(offset: outer ?? member.keyOffset, path: path, original: place)
        }
        if let found = firstLeak(in: member.value, at: &path, outer: outer, originals) {
          return found
        }
      }
    case .number(let number):
      if let place = leak(number: number, of: originals, name: memberName(path)) {
        return Leak(offset: offset, path: path, original: place)
      }
    case .null, .bool:
      break
    }
    return nil
  }
}
