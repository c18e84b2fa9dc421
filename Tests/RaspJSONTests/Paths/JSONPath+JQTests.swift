import Foundation
import RaspJSON
import RaspTestSupport
import Testing

/// Compares what `--select` paths select with what jq selects, byte for byte: generated paths
/// (keys, indices, slices, `[]`, `|length`, `|keys`, `|first`, `|last`) over generated values
/// (nested objects and arrays, strings with non-ASCII and control characters), each path
/// written as rasp reads it and translated to the jq program a jq user would write.
///
/// Each path runs in one jq process over its values, with `-c` and with `-rc` (rasp's `-r`
/// writes other values compactly, as everything it writes without `--pretty`). The program
/// has two parts. The jq user's program as it is (`.["a"] | .[1:] | .[] | length`), whose
/// output must be rasp's wherever jq does not stop with an error, except where a path reads
/// something that is not there and then takes its `length` (jq: 0 for the `null` it reads;
/// rasp: `null`, nothing being there). And the same steps through small jq functions that
/// apply rasp's two documented rules (a step that finds nothing or that jq stops at gives
/// nothing; nothing stays nothing, printed as `null`) around jq's own operations, whose
/// output must be rasp's everywhere.
///
/// Skipped when jq is not installed.
@Suite struct JSONPathJQTests {
  static let jq: String? = ["/usr/bin/jq", "/usr/local/bin/jq", "/opt/homebrew/bin/jq"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(.enabled(if: jq != nil, "jq is not installed"))
  func selectsWhatJQSelects() async throws {
    var generator = SplitMix64(seed: 7)
    var pairs = 0
    var agreeingWithPlainJQ = 0
    var plainJQErrors = 0
    var lengthOfNothing = 0
    for _ in 0..<160 {
      let steps = JQCase.steps(using: &generator)
      let text = JQCase.raspText(steps, using: &generator)
      // Values with what the path looks for, and values without.
      let values =
        (0..<40).map { _ in JQCase.fitting(steps[...], using: &generator) }
        + (0..<20).map { _ in JQCase.value(depth: 4, using: &generator) }
      let texts = values.map { value -> String in
        var writer = JSONWriter()
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
      }
      let input = texts.map { $0 + "\n" }.joined()
      let path = try JSONPath(text, allowsFilters: true)
      let compact = try await JQCase.run(steps, input: input, raw: false, jq: Self.jq!)
      let raw = try await JQCase.run(steps, input: input, raw: true, jq: Self.jq!)
      try #require(compact.count == values.count && raw.count == values.count, "\(text)")
      for (index, value) in values.enumerated() {
        pairs += 1
        let lines = path.values(in: value).map { value -> [UInt8] in
          var writer = JSONWriter()
          writer.write(value)
          return writer.bytes
        }
        let bytes = try Array(texts[index].utf8).withUnsafeBufferPointer { buffer in
          try path.selectedLines(in: buffer)
        }
        #expect(bytes == Array(lines.joined(separator: [0x0A])), "\(text) on \(texts[index])")
        let raspCompact = String(decoding: lines.flatMap { $0 + [0x0A] }, as: UTF8.self)
        var rawBytes: [UInt8] = []
        for line in lines {
          JSONRawPrinter.append(line[...], to: &rawBytes)
          rawBytes.append(0x0A)
        }
        let raspRaw = String(decoding: rawBytes, as: UTF8.self)
        let context = "path \(text), jq \(JQCase.plainProgram(steps)), value \(texts[index])"
        #expect(compact[index].rules == raspCompact, "-c: \(context)")
        #expect(raw[index].rules == raspRaw, "-r: \(context)")
        guard let plain = compact[index].plain else {
          plainJQErrors += 1
          continue
        }
        if plain == raspCompact {
          agreeingWithPlainJQ += 1
        } else {
          lengthOfNothing += 1
          #expect(steps.contains(.length), "differs from plain jq: \(context)")
        }
      }
    }
    print(
      "jq differential: \(pairs) pairs; rasp = jq with rasp's rules in all; = plain jq in "
        + "\(agreeingWithPlainJQ); plain jq stops with an error in \(plainJQErrors); length of "
        + "nothing (jq 0, rasp null) in \(lengthOfNothing)")
    #expect(agreeingWithPlainJQ > pairs / 3, "most generated pairs are ones where jq succeeds")
  }
}

/// The generated values and paths of ``JSONPathJQTests``, and their jq programs.
private enum JQCase {
  enum Step: Equatable {
    case key(String), index(Int), slice(Int?, Int?), each, length, keys, first, last
  }

  /// Few keys, so that generated paths find members often; some need quotes.
  static let keys = ["a", "b", "é", "x y", "😀", "a.b", "Z"]
  /// The keys that a path may write without quotes.
  static let bareKeys: Set = ["a", "b", "é", "😀", "Z"]

  static func string(using generator: inout SplitMix64) -> String {
    let alphabet: [Unicode.Scalar] = [
      "a", "b", "z", " ", "\"", "\\", "/", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{D}",
      "\u{1F}", "\u{7F}", "\u{80}", "é", "\u{301}", "\u{2028}", "\u{FEFF}", "😀", "日",
      "\u{10FFFF}",
    ]
    var text = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0..<7, using: &generator) {
      text.append(alphabet.randomElement(using: &generator) ?? "a")
    }
    return String(text)
  }

  /// Numbers that jq 1.6 writes as rasp does: not integers beyond 2⁵³ (jq rounds them to 17
  /// digits) and not `-0` (jq keeps its sign).
  static func number(using generator: inout SplitMix64) -> JSONNumber {
    switch Int.random(in: 0..<4, using: &generator) {
    case 0: return JSONNumber(Int.random(in: -1000...1000, using: &generator))
    case 1: return JSONNumber(Double(Int.random(in: -100...100, using: &generator)) / 8 + 0.5)
    case 2:
      let picks = [0.1, 1e-5, -1.5e300, 1e22, 100.125]
      return JSONNumber(picks.randomElement(using: &generator) ?? 1)
    default: return JSONNumber(Int.random(in: 0...9, using: &generator))
    }
  }

  static func value(depth: Int, using generator: inout SplitMix64) -> JSONValue {
    switch Int.random(in: 0..<(depth > 0 ? 9 : 5), using: &generator) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &generator))
    case 2: return .number(number(using: &generator))
    case 3, 4: return .string(string(using: &generator))
    case 5, 6:
      let count = Int.random(in: 0..<6, using: &generator)
      return .array((0..<count).map { _ in value(depth: depth - 1, using: &generator) })
    default:
      var object = JSONObject()
      for _ in 0..<Int.random(in: 0..<5, using: &generator) {
        let key = keys.randomElement(using: &generator) ?? "a"
        object[key] = value(depth: depth - 1, using: &generator)
      }
      return .object(object)
    }
  }

  /// A value in which the steps find something, mostly: objects with the keys, arrays long
  /// enough, with other members and elements around them.
  static func fitting(_ steps: ArraySlice<Step>, using generator: inout SplitMix64)
    -> JSONValue
  {
    guard let step = steps.first else { return value(depth: 2, using: &generator) }
    let rest = steps.dropFirst()
    func elements(_ count: Int) -> [JSONValue] {
      (0..<count).map { _ in fitting(rest, using: &generator) }
    }
    switch step {
    case .key(let key):
      var object = JSONObject()
      for _ in 0..<Int.random(in: 0..<3, using: &generator) {
        object[keys.randomElement(using: &generator) ?? "a"] = value(depth: 2, using: &generator)
      }
      object[key] = fitting(rest, using: &generator)
      return .object(object)
    case .index(let index):
      let count = (index < 0 ? -index : index + 1) + Int.random(in: -1...2, using: &generator)
      return .array(elements(max(0, count)))
    case .first, .last: return .array(elements(Int.random(in: 0..<4, using: &generator)))
    case .slice:
      guard Int.random(in: 0..<3, using: &generator) == 0 else {
        return .array(elements(Int.random(in: 0..<7, using: &generator)))
      }
      return .string(string(using: &generator))
    case .each:
      guard Int.random(in: 0..<3, using: &generator) == 0 else {
        return .array(elements(Int.random(in: 0..<4, using: &generator)))
      }
      var object = JSONObject()
      for key in keys where Bool.random(using: &generator) {
        object[key] = fitting(rest, using: &generator)
      }
      return .object(object)
    case .keys:
      return Bool.random(using: &generator)
        ? .array(elements(Int.random(in: 0..<4, using: &generator)))
        : value(depth: 3, using: &generator)
    case .length:
      return value(depth: 3, using: &generator)
    }
  }

  static func steps(using generator: inout SplitMix64) -> [Step] {
    func bound() -> Int? {
      Int.random(in: 0..<4, using: &generator) == 0
        ? nil : Int.random(in: -7...7, using: &generator)
    }
    var steps: [Step] = []
    for _ in 0..<Int.random(in: 1...5, using: &generator) {
      switch Int.random(in: 0..<12, using: &generator) {
      case 0, 1, 2: steps.append(.key(keys.randomElement(using: &generator) ?? "a"))
      case 3: steps.append(.index(Int.random(in: -6...6, using: &generator)))
      case 4, 5:
        var start = bound()
        let end = bound()
        if start == nil, end == nil { start = 1 }
        steps.append(.slice(start, end))
      case 6, 7: steps.append(.each)
      case 8: steps.append(.length)
      case 9: steps.append(.keys)
      case 10: steps.append(.first)
      default: steps.append(.last)
      }
    }
    return steps
  }

  /// The path as rasp reads it, in one of its spellings: `a`, `.a`, `["x y"]`, `[ 1 : ]`,
  /// `.[]`, ` | length`.
  static func raspText(_ steps: [Step], using generator: inout SplitMix64) -> String {
    var text = Bool.random(using: &generator) ? "." : ""
    for step in steps {
      let spaced = Int.random(in: 0..<4, using: &generator) == 0
      switch step {
      case .key(let key):
        if bareKeys.contains(key), Bool.random(using: &generator) {
          text += text.isEmpty || text == "." ? key : "." + key
        } else {
          text += "[" + quoted(key) + "]"
        }
      case .index(let index): text += spaced ? "[ \(index) ]" : "[\(index)]"
      case .slice(let start, let end):
        let inside =
          (start.map(String.init) ?? "") + (spaced ? " : " : ":") + (end.map(String.init) ?? "")
        text += "[" + inside + "]"
      case .each: text += Bool.random(using: &generator) && text != "." ? ".[]" : "[]"
      case .length: text += spaced ? " | length" : "|length"
      case .keys: text += "|keys"
      case .first: text += spaced ? " | first" : "|first"
      case .last: text += "|last"
      }
    }
    return text
  }

  static func quoted(_ key: String) -> String {
    var writer = JSONWriter()
    writer.writeString(key)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// The program a jq user writes for the steps: `.["a"] | .[1:] | .[] | length`.
  static func plainProgram(_ steps: [Step]) -> String {
    steps.map { step -> String in
      switch step {
      case .key(let key): return ".[" + quoted(key) + "]"
      case .index(let index): return ".[\(index)]"
      case .slice(let start, let end):
        return ".[" + (start.map(String.init) ?? "") + ":" + (end.map(String.init) ?? "") + "]"
      case .each: return ".[]"
      case .length: return "length"
      case .keys: return "keys"
      case .first: return "first"
      case .last: return "last"
      }
    }.joined(separator: " | ")
  }

  /// The same steps through functions that apply rasp's rules around jq's own operations.
  static func rulesProgram(_ steps: [Step]) -> String {
    steps.map { step -> String in
      switch step {
      case .key(let key): return "K(" + quoted(key) + ")"
      case .index(let index): return "I(\(index))"
      case .slice(let start, let end):
        return "S(" + (start.map(String.init) ?? "null") + "; " + (end.map(String.init) ?? "null")
          + ")"
      case .each: return "E"
      case .length: return "L"
      case .keys: return "KS"
      case .first: return "F"
      case .last: return "LA"
      }
    }.joined(separator: " | ")
  }

  /// Nothing is there: a value the generated ones never are.
  static let prelude = """
    def N: {"\\u0000rasp": "nothing"};
    def K($k): if . == N then . elif type == "object" and has($k) then .[$k] else N end;
    def I($i): if . == N then . elif type == "array" and $i < length and $i + length >= 0
      then .[$i] else N end;
    def S($a; $b): if . == N then . elif type == "array" or type == "string" then .[$a:$b]
      else N end;
    def E: if . == N then . elif type == "array" or type == "object" then .[] else N end;
    def L: if . == N or type == "boolean" then N else length end;
    def KS: if . == N then . elif type == "array" or type == "object" then keys else N end;
    def F: if . == N then . elif type == "array" and length > 0 then first else N end;
    def LA: if . == N then . elif type == "array" and length > 0 then last else N end;
    """

  static let separator = "\u{1}@@@\u{1}"
  static let error = "\u{1}error\u{1}"

  /// jq's output for each input value: the plain program's (`nil` when jq stopped with an
  /// error) and the one with rasp's rules.
  static func run(_ steps: [Step], input: String, raw: Bool, jq: String) async throws
    -> [(plain: String?, rules: String)]
  {
    let program =
      prelude + "(try (" + plainProgram(steps) + ") catch " + quoted(error) + "), "
      + quoted(separator) + ", ((" + rulesProgram(steps) + ") | if . == N then null else . end), "
      + quoted(separator)
    let data = try await TestProcess.run(
      jq, [raw ? "-rc" : "-c", program], input: Array(input.utf8)
    ).standardOutput
    var parts = String(decoding: data, as: UTF8.self)
      .components(separatedBy: (raw ? separator : quoted(separator)) + "\n")
    if parts.last == "" { parts.removeLast() }
    var results: [(plain: String?, rules: String)] = []
    var index = 0
    while index + 1 < parts.count {
      let plain = parts[index]
      let failed = plain.hasSuffix((raw ? error : quoted(error)) + "\n")
      results.append((failed ? nil : plain, parts[index + 1]))
      index += 2
    }
    return results
  }
}
