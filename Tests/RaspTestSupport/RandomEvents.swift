import RaspDomains
import RaspJSON

/// A small, fast, seeded random number generator (SplitMix64), so that property tests are
/// repeatable: the same seed gives the same events on every run and machine.
public struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  /// A generator that starts from `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Random events of every built-in domain, every case of each, with the values a log can hold
/// pushed to their edges: strings with quotes, backslashes, control characters, non-ASCII and
/// emoji; numbers at the ends of their ranges, negative zero, the tiniest and the hugest
/// doubles; nested JSON; optional fields present and absent.
///
/// Every event it makes is one its domain's decoder accepts — that is what a round trip can
/// promise — so an empty screen, an out-of-range heading or an unnamed curie is never made here.
public struct RandomEvents {
  /// Where the randomness comes from.
  public var generator: SplitMix64

  /// Events that start from `seed`: the same seed, the same events.
  public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  // MARK: - Domains

  /// A `geo` event: a heading, or a location with or without an accuracy.
  public mutating func geo() -> GeoState.Event {
    if bool() { return .heading(double(in: 0...360)) }
    let location = GeoLocation(latitude: double(in: -90...90), longitude: double(in: -180...180))
    let accuracy = bool() ? double(in: 0...Double.greatestFiniteMagnitude) : nil
    return .location(location, accuracy: accuracy)
  }

  /// A `nav` event of any case, with any screen or tab name.
  public mutating func nav() -> NavState.Event {
    switch int(7) {
    case 0: return .push(string(nonEmpty: true))
    case 1: return .pop
    case 2: return .popToRoot
    case 3: return .replace(string(nonEmpty: true))
    case 4: return .selectTab(string(nonEmpty: true))
    case 5: return .present(string(nonEmpty: true))
    default: return .dismiss
    }
  }

  /// A `lifecycle` event of any case, with or without its time.
  public mutating func lifecycle() -> LifecycleState.Event {
    let at: JSONValue? = bool(1, in: 4) ? Optional.none : time()
    switch int(7) {
    case 0: return .launch(at: at)
    case 1: return .becomeActive(at: at)
    case 2: return .resignActive(at: at)
    case 3: return .enterBackground(at: at)
    case 4: return .enterForeground(at: at)
    case 5: return .terminate(at: at)
    default: return .memoryWarning
    }
  }

  /// A `motion` event: an activity, or a sample with any of its parts.
  public mutating func motion() -> MotionState.Event {
    guard bool() else {
      let activity = MotionActivity.allCases[int(MotionActivity.allCases.count)]
      let confidence = MotionConfidence.allCases[int(MotionConfidence.allCases.count)]
      return .activity(activity, confidence: confidence)
    }
    var sample = MotionSample()
    // Each of the seven non-empty combinations of parts, evenly.
    let parts = 1 + int(7)
    if parts & 1 != 0 { sample.acceleration = vector() }
    if parts & 2 != 0 { sample.rotationRate = vector() }
    if parts & 4 != 0 {
      sample.attitude = MotionAttitude(roll: double(), pitch: double(), yaw: double())
    }
    return .sample(sample)
  }

  /// A `data` event of any case, with nested JSON values.
  public mutating func data() -> DataState.Event {
    switch int(4) {
    case 0: return .set(key: string(nonEmpty: true), value: json(depth: 4))
    case 1: return .merge(key: string(nonEmpty: true), value: object(depth: 4))
    case 2: return .remove(key: string(nonEmpty: true))
    default: return .clear
    }
  }

  /// A `rest` event; a response's relations are sorted and unique, as the decoder gives them.
  public mutating func rest() -> RestState.Event {
    switch int(4) {
    case 0:
      let rels = sortedUnique((0..<int(6)).map { _ in rel(nonEmpty: false) })
      return .replaceRelations(rels.map { relation($0) })
    case 1:
      return .set(link(rel: rel(nonEmpty: true)))
    case 2:
      let href = bool() ? string(nonEmpty: false) : nil
      let name = bool() ? string(nonEmpty: false) : nil
      return .remove(rel: rel(nonEmpty: true), href: href, name: name)
    default:
      return .clear
    }
  }

  // MARK: - Parts

  /// A relation of `rel`: one link, or a list of up to four.
  public mutating func relation(_ rel: String) -> RestRelation {
    if bool() { return RestRelation(link(rel: rel)) }
    return RestRelation(rel: rel, list: (0..<int(5)).map { _ in link(rel: rel) })
  }

  /// A link of `rel` with each optional attribute or not; a curie always has its name.
  public mutating func link(rel: String) -> RestLink {
    let name = bool() || rel == "curies" ? string(nonEmpty: false) : nil
    return RestLink(
      rel: rel, href: bool(1, in: 3) ? "" : string(nonEmpty: false), isTemplated: bool(),
      name: name, deprecation: bool(1, in: 3) ? string(nonEmpty: false) : nil)
  }

  /// A relation's name: a usual one, `curies`, or any string.
  public mutating func rel(nonEmpty: Bool) -> String {
    let usual = ["self", "next", "item", "curies", "acme:widgets", "find", "edit"]
    if bool() { return usual[int(usual.count)] }
    return string(nonEmpty: nonEmpty)
  }

  /// `strings` sorted in code point order, once each.
  public func sortedUnique(_ strings: [String]) -> [String] {
    var result: [String] = []
    for text in strings.sorted(by: JSONObject.keyPrecedes)
    where result.last.map({ JSONObject.keyPrecedes($0, text) }) ?? true {
      result.append(text)
    }
    return result
  }

  /// A motion vector of any three doubles.
  public mutating func vector() -> MotionVector {
    MotionVector(x: double(), y: double(), z: double())
  }

  /// A `ts` the decoder keeps: an RFC 3339 time, in UTC or with an offset, with or without a
  /// fraction, or a number of seconds, integral or not, before or after 1970.
  public mutating func time() -> JSONValue {
    switch int(3) {
    case 0:
      let seconds = Int64.random(in: -5_000_000_000...5_000_000_000, using: &generator)
      return .number(JSONNumber(seconds))
    case 1:
      let seconds = Double.random(in: -1e10...1e10, using: &generator)
      return .number(JSONNumber((seconds * 1000).rounded() / 1000))
    default:
      var text = digits(1970 + int(130), 4) + "-" + digits(1 + int(12), 2) + "-"
      text += digits(1 + int(28), 2) + "T" + digits(int(24), 2) + ":" + digits(int(60), 2)
      text += ":" + digits(int(60), 2)
      if bool() { text += "." + digits(int(1_000_000_000), 1 + int(9)) }
      if bool() { return .string(text + "Z") }
      let sign = bool() ? "+" : "-"
      return .string(text + sign + digits(int(24), 2) + ":" + digits(int(60), 2))
    }
  }

  /// `value` in decimal, zero-padded to `count` digits (or cut to its last `count`).
  public func digits(_ value: Int, _ count: Int) -> String {
    String(String(repeating: "0", count: count) + String(value)).suffix(count).description
  }

  // MARK: - JSON

  /// Any JSON value, arrays and objects nested up to `depth`.
  public mutating func json(depth: Int) -> JSONValue {
    switch int(depth > 0 ? 6 : 4) {
    case 0: return .null
    case 1: return .bool(bool())
    case 2: return .number(number())
    case 3: return .string(string(nonEmpty: false))
    case 4: return .array((0..<int(4)).map { _ in json(depth: depth - 1) })
    default: return .object(object(depth: depth - 1))
    }
  }

  /// An object of up to four members, keys of any text.
  public mutating func object(depth: Int) -> JSONObject {
    var object = JSONObject()
    for _ in 0..<int(5) { object[string(nonEmpty: false)] = json(depth: max(depth, 0)) }
    return object
  }

  /// A number as a log may hold one: an exact 64-bit integer, or any finite double.
  public mutating func number() -> JSONNumber {
    switch int(3) {
    case 0:
      let edges: [Int64] = [0, 1, -1, .max, .min, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1]
      return JSONNumber(edges[int(edges.count)])
    case 1: return JSONNumber(Int64(bitPattern: generator.next()))
    default: return JSONNumber(double())
    }
  }

  // MARK: - Numbers

  /// Any finite double: an edge, a random bit pattern (subnormals and huge exponents
  /// included), a short decimal, or an integer.
  public mutating func double() -> Double {
    switch int(5) {
    case 0:
      let edges: [Double] = [
        0, -0.0, 1, -1, 0.1, -0.1, 1e-4, 9.999e-5, 1e15, 1e15 - 1, 1e21, 123_456.789,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 9_007_199_254_740_992,
        9_007_199_254_740_994, 9.223372036854776e18, -9.223372036854776e18, 1.5e300, 1e-300,
        0.1 + 0.2, Double.leastNormalMagnitude.nextDown, -Double.leastNonzeroMagnitude.nextUp,
      ]
      return edges[int(edges.count)]
    case 1:
      while true {
        let value = Double(bitPattern: generator.next())
        if value.isFinite { return value }
      }
    case 2:
      return Double(Int64.random(in: -10_000_000...10_000_000, using: &generator)) / 1000
    case 3:
      return Double(Int64(bitPattern: generator.next()) >> int(64))
    default:
      return Double.random(in: -1000...1000, using: &generator)
    }
  }

  /// A double within `range`: its ends, just inside them, negative zero when the range has
  /// zero, tiny magnitudes, or anything between.
  public mutating func double(in range: ClosedRange<Double>) -> Double {
    switch int(6) {
    case 0: return range.lowerBound
    case 1: return range.upperBound
    case 2: return range.lowerBound.nextUp
    case 3: return range.upperBound.nextDown
    case 4:
      let small: [Double] = [-0.0, 0, .leastNonzeroMagnitude, .leastNormalMagnitude, 1e-300]
      let candidate = small[int(small.count)]
      return range.contains(candidate) ? candidate : range.lowerBound
    default:
      let value = Double.random(in: range, using: &generator)
      // Half the time, a short decimal, as sensors write them.
      let short = (value * 1e6).rounded() / 1e6
      return bool() && range.contains(short) ? short : value
    }
  }

  // MARK: - Strings

  /// Text of up to eight pieces: words, JSON's special characters, every control character,
  /// DEL, non-ASCII letters, combining marks, emoji and their sequences, the ends of the
  /// Unicode planes, and random scalars of every UTF-8 length.
  public mutating func string(nonEmpty: Bool) -> String {
    let count = int(9)
    if count == 0, !nonEmpty { return "" }
    var text = ""
    for _ in 0..<max(count, 1) { text += piece() }
    return text
  }

  /// One piece of a string: a special character, a printable ASCII byte, any scalar or a word.
  public mutating func piece() -> String {
    let specials = [
      "\"", "\\", "/", "\\\"", "\"\\\"", "\n", "\r\n", "\t", "\u{8}", "\u{C}", "\u{0}",
      "\u{1F}", "\u{7F}", "\u{80}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFD}",
      "\u{FFFF}", "\u{D7FF}", "\u{E000}", "\u{10000}", "\u{10FFFF}", "é", "e\u{301}", "ß",
      "日本語", "Ελληνικά", "עברית", "😀", "👨‍👩‍👧", "🇩🇪", "👍🏽", "{rel}", "?page=2",
      "\\u0041", "%22", " ", "null",
    ]
    switch int(4) {
    case 0: return specials[int(specials.count)]
    case 1: return String(UnicodeScalar(UInt8(int(0x20))))
    case 2: return String(Character(scalar()))
    default:
      let words = ["orders", "home", "settings", "a", "Z", "tab", "/orders/1", "x y"]
      return words[int(words.count)]
    }
  }

  /// A random Unicode scalar, its UTF-8 length one to four bytes with equal odds.
  public mutating func scalar() -> Unicode.Scalar {
    let ranges: [ClosedRange<UInt32>] = [
      0...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x1_0000...0x10_FFFF,
    ]
    let range = ranges[int(ranges.count)]
    let value = UInt32.random(in: range, using: &generator)
    return Unicode.Scalar(value) ?? "?"
  }

  // MARK: - Choices

  /// A number in `0..<count`.
  public mutating func int(_ count: Int) -> Int {
    Int.random(in: 0..<count, using: &generator)
  }

  /// `true` with odds `chance` in `outOf`, by default even.
  public mutating func bool(_ chance: Int = 1, in outOf: Int = 2) -> Bool {
    int(outOf) < chance
  }
}
