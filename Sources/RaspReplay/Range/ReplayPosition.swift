import RaspDomains

/// A place in a replay, where `--since` starts printing, `--until` stops reading and `--at`
/// takes its snapshot: a time, a line of an input, or an event's number.
///
/// A time is compared with each line's time as the merge of several logs orders it: the
/// event's `ts`, or, for a line without one, the last `ts` before it in its input (before any,
/// it is before every time). Positions are places in the order the replay reads: the replay
/// reaches a time at the first line whose time is at or past it.
///
/// ```swift
/// let start = try ReplayPosition("2026-11-22T09:30:00Z", inputNames: ["events.jsonl"])
/// let line = try ReplayPosition("events.jsonl:12", inputNames: ["events.jsonl"])
/// let event = try ReplayPosition("#5", inputNames: ["events.jsonl"])   // seq 5
/// ```
public enum ReplayPosition: Sendable, Equatable {
  /// A time: RFC 3339, or a count of seconds, milliseconds, microseconds or nanoseconds since
  /// the epoch.
  case time(RaspTimestamp)
  /// A line of an input: the input's number among the replay's inputs, and the line's, from 1.
  case line(input: Int, line: Int)
  /// An applied event's number, from 1: `seq` of `--with-event`.
  case event(Int)

  /// What a position may be written as, for messages.
  public static let expected =
    "expected an RFC 3339 time (a zone left out is UTC), a date, an epoch with a unit (s, ms, "
    + "us, ns), file:line, line:N or #N"

  /// Reads a position: `2026-11-22T09:30:00Z` (without its zone, or a date alone such as
  /// `2026-11-22`, in UTC: ``utcForm(of:)``), `1795335000s` (or `ms`, `us`, `ns`),
  /// `events.jsonl:12`, `line:12` (of the only input) or `#5`.
  ///
  /// ```swift
  /// let position = try ReplayPosition("1795335000123ms", inputNames: ["a.jsonl"])
  /// ```
  ///
  /// - Parameters:
  ///   - text: The position as written.
  ///   - inputNames: The replay's inputs, as named on the command line (`<stdin>` for `-`).
  /// - Throws: ``ReplayPositionError``, saying what was expected.
  public init(_ text: String, inputNames: [String]) throws(ReplayPositionError) {
    if text.hasPrefix("#") {
      guard let number = Self.count(text.dropFirst()), number >= 1 else {
        throw ReplayPositionError("an event's number, from 1, after '#'")
      }
      self = .event(number)
      return
    }
    if let time = Self.epoch(text) {
      self = .time(time)
      return
    }
    if let time = try? RaspTimestamp(rfc3339: text) {
      self = .time(time)
      return
    }
    if let utc = Self.utcForm(of: text), let time = try? RaspTimestamp(rfc3339: utc) {
      self = .time(time)
      return
    }
    if let colon = text.lastIndex(of: ":"), let line = Self.count(text[text.index(after: colon)...])
    {
      let name = String(text[..<colon])
      guard line >= 1 else { throw ReplayPositionError("a line number, from 1, after ':'") }
      if name == "line" {
        guard inputNames.count == 1 else {
          throw ReplayPositionError(
            "file:line, not line:N, with several inputs: the file is not said")
        }
        self = .line(input: 0, line: line)
        return
      }
      guard let input = inputNames.firstIndex(of: name) else {
        let names = inputNames.map { "'\($0)'" }.joined(separator: ", ")
        throw ReplayPositionError("'\(name)' is not an input; the inputs are \(names)")
      }
      self = .line(input: input, line: line)
      return
    }
    throw ReplayPositionError(Self.expected)
  }

  /// The RFC 3339 time that a time without a zone (`2026-11-22T09:30:03`, or with a space for
  /// the `T`) or a date alone (`2026-11-22`, its midnight) is read as: the same in UTC, as a
  /// log's times mostly are, and the same on every machine; `nil` for any other text.
  ///
  /// ```swift
  /// ReplayPosition.utcForm(of: "2026-11-22")            // "2026-11-22T00:00:00Z"
  /// ReplayPosition.utcForm(of: "2026-11-22T09:30:03")   // "2026-11-22T09:30:03Z"
  /// ReplayPosition.utcForm(of: "2026-11-22T09:30:03Z")  // nil: it has its zone
  /// ```
  ///
  /// - Parameter text: A position as written.
  /// - Returns: The time it is read as, in UTC, or `nil`.
  public static func utcForm(of text: String) -> String? {
    let isDate = text.utf8.count == 10 && (try? RaspTimestamp(rfc3339: text + "T00:00:00Z")) != nil
    if isDate { return text + "T00:00:00Z" }
    // A time whose zone was left out: it reads with `Z` added, and did not without.
    guard text.utf8.count >= 19, (try? RaspTimestamp(rfc3339: text)) == nil,
      (try? RaspTimestamp(rfc3339: text + "Z")) != nil
    else { return nil }
    return text + "Z"
  }

  /// A whole number written in digits only.
  private static func count(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(text)
  }

  /// A time since the epoch with its unit: `1795335000s`, `1795335000123ms`, `…us`, `…ns`.
  private static func epoch(_ text: String) -> RaspTimestamp? {
    let units: [(String, LogFormat.TimeUnit)] = [("ms", .ms), ("us", .us), ("ns", .ns), ("s", .s)]
    for (suffix, unit) in units where text.hasSuffix(suffix) {
      let digits = Array(text.dropLast(suffix.count).utf8)
      guard !digits.isEmpty, digits.first != UInt8(ascii: "-") else { return nil }
      return try? EpochTime.read(digits, unit: unit)
    }
    return nil
  }
}

/// Why text is not a ``ReplayPosition``: what was expected instead.
///
/// ```swift
/// ReplayPositionError("an event's number, from 1, after '#'").description
/// ```
public struct ReplayPositionError: Error, Sendable, CustomStringConvertible {
  /// What was expected, or what is wrong.
  public let description: String

  /// An error saying what is wrong.
  ///
  /// ```swift
  /// let error = ReplayPositionError(ReplayPosition.expected)
  /// ```
  ///
  /// - Parameter description: What was expected, or what is wrong.
  public init(_ description: String) {
    self.description = description
  }
}
