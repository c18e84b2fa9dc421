import RaspDomains
import RaspJSON

/// Applies a policy's rules of NMEA fields (``RedactionPolicy/SentenceRule``) to a sentence of
/// a gpsd log, such as `$GPGGA,200619.30,5313.2228,N,00634.4228,E,1,05,2.6,00000,M,,,,*2C`,
/// and writes it anew with its checksum.
///
/// `round` rounds a coordinate to so many decimals of a degree, half away from zero, and
/// writes it back in the sentence's form (`ddmm.mmmm`, as many decimals of minutes as it had,
/// more when the rounded value needs them); a number (`alt`, `speed`, `track`) to so many
/// decimals. `replace` puts a number, a coordinate in signed degrees (its hemisphere from the
/// sign). `drop` empties the field, and a coordinate's hemisphere with it. `shift` adds seconds
/// to a time (`hhmmss.ss`), taken into the day, and moves the sentence's date (`ddmmyy`) by the
/// days it went past midnight. An empty field (no fix) stays empty. The checksum, `*hh`, is the
/// XOR of the bytes between `$` and `*`.
///
/// ```swift
/// var sentences = NMEARedactor(rules: policy.sentenceRules)
/// var output: [UInt8] = []
/// let outcome = line.withUnsafeBufferPointer { sentences.redact(line: $0, into: &output) }
/// ```
struct NMEARedactor {
  /// What became of a line.
  enum Outcome: Equatable {
    /// It is no sentence of a type a rule names.
    case notSentence
    /// No rule changed it.
    case unchanged
    /// So many fields changed; the sentence was appended to the output.
    case changed(Int)
    /// A field its rule cannot read, or a checksum that is wrong: where, in the line, and why.
    case mistake(offset: Int, path: String, reason: String)
  }

  /// The rules, in the policy's order.
  let rules: [RedactionPolicy.SentenceRule]

  /// Redacts one line, without its line end.
  ///
  /// - Parameters:
  ///   - line: The line's bytes.
  ///   - output: Where the changed sentence is appended; untouched unless the outcome is
  ///     ``Outcome/changed(_:)``.
  /// - Returns: What became of the line.
  func redact(line: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> Outcome {
    var changes: [Redactor.Change]?
    return redact(line: line, into: &output, changes: &changes)
  }

  /// Redacts one line, as ``redact(line:into:)`` does, and appends each field changed to
  /// `changes`, when it is not `nil`, as a number (for `--verify`'s search).
  func redact(
    line: UnsafeBufferPointer<UInt8>, into output: inout [UInt8],
    changes: inout [Redactor.Change]?
  ) -> Outcome {
    guard !rules.isEmpty, line.first == UInt8(ascii: "$"), line.count >= 4,
      line[line.count - 3] == UInt8(ascii: "*"),
      let given = Self.hexValue(line[line.count - 2], line[line.count - 1])
    else { return .notSentence }
    let star = line.count - 3
    let body = Array(line[1..<star])
    var fields = body.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    guard let address = fields.first, address.count == 5 else { return .notSentence }
    let type = String(address.suffix(3))
    let applying = rules.filter { $0.field.sentence == type }
    guard !applying.isEmpty else { return .notSentence }
    let sum = Self.checksum(body)
    guard sum == given else {
      return .mistake(
        offset: star, path: type,
        reason: "the checksum is '\(Self.hex(given))', but the sentence's bytes give "
          + "'\(Self.hex(sum))'")
    }
    var changed = 0
    var done: Set<Int> = []
    for rule in applying where rule.field.index < fields.count {
      let field = rule.field
      guard done.insert(field.index).inserted else { continue }
      let old = fields[field.index]
      guard !old.isEmpty else { continue }
      var new: String
      var days = 0
      switch Self.apply(rule.action, to: old, kind: field.kind) {
      case .success(let text): (new, days) = text
      case .failure(let reason):
        var offset = 1
        for index in 0..<field.index { offset += fields[index].utf8.count + 1 }
        return .mistake(offset: offset, path: "\(type).\(field.name)", reason: reason.text)
      }
      // A time shifted past midnight moves its sentence's date (RMC's) by as many days.
      if days != 0, let date = NMEASentences.dateIndex(of: type), date < fields.count,
        !fields[date].isEmpty, !done.contains(date)
      {
        guard let moved = Self.movingDate(fields[date], by: days) else {
          var offset = 1
          for index in 0..<date { offset += fields[index].utf8.count + 1 }
          return .mistake(
            offset: offset, path: "\(type).date",
            reason: "cannot move the date '\(fields[date])' with its time: it is not ddmmyy")
        }
        if moved != fields[date] {
          changes?.append(
            Self.change("\(type).date", from: fields[date], to: moved, by: rule.action))
          fields[date] = moved
          changed += 1
        }
      }
      let hemisphere = field.index + 1
      if field.kind == .latitude || field.kind == .longitude, hemisphere < fields.count {
        if case .drop = rule.action {
          fields[hemisphere] = ""
        } else if case .replace(let value) = rule.action, case .number(let number) = value {
          let negative = number.doubleValue < 0
          fields[hemisphere] =
            field.kind == .latitude ? (negative ? "S" : "N") : (negative ? "W" : "E")
        }
      }
      if new != old {
        changes?.append(Self.change("\(type).\(field.name)", from: old, to: new, by: rule.action))
        fields[field.index] = new
        changed += 1
      }
    }
    guard changed > 0 else { return .unchanged }
    let text = Array(fields.joined(separator: ",").utf8)
    output.append(UInt8(ascii: "$"))
    output.append(contentsOf: text)
    output.append(UInt8(ascii: "*"))
    output.append(contentsOf: Array(Self.hex(Self.checksum(text)).utf8))
    return .changed(changed)
  }

  /// A field's change, its texts as numbers.
  private static func change(
    _ path: String, from old: String, to new: String, by action: RedactionPolicy.Action
  ) -> Redactor.Change {
    func number(_ text: String) -> JSONValue? { Double(text).map { .number(JSONNumber($0)) } }
    return Redactor.Change(
      path: path, original: number(old) ?? .string(old), redacted: number(new), action: action)
  }

  /// Why a field cannot be changed.
  struct Reason: Error {
    let text: String
  }

  /// The field's new text, and by how many days a shifted time moved past midnight.
  static func apply(_ action: RedactionPolicy.Action, to text: String, kind: NMEASentences.Kind)
    -> Result<(String, Int), Reason>
  {
    if case .shift(let offset) = action, kind == .time {
      guard let shifted = shiftingTime(text, by: offset) else {
        return .failure(
          Reason(text: "cannot shift '\(text)': it is not a time written hhmmss.ss"))
      }
      return .success(shifted)
    }
    return applyToValue(action, to: text, kind: kind).map { ($0, 0) }
  }

  private static func applyToValue(
    _ action: RedactionPolicy.Action, to text: String, kind: NMEASentences.Kind
  ) -> Result<String, Reason> {
    switch action {
    case .drop:
      return .success("")
    case .round(let decimals):
      if kind == .number {
        guard let rounded = roundNumber(text, decimals: decimals) else {
          return .failure(Reason(text: "cannot round '\(text)': it is not a number"))
        }
        return .success(rounded)
      }
      guard let rounded = roundCoordinate(text, decimals: decimals) else {
        return .failure(
          Reason(
            text: "cannot round '\(text)': it is not a coordinate written "
              + (kind == .latitude ? "ddmm.mmmm" : "dddmm.mmmm")))
      }
      return .success(rounded)
    case .replace(let value):
      guard case .number(let number) = value else { return .success(text) }
      if kind == .number {
        var writer = JSONWriter()
        writer.writeNumber(number)
        return .success(String(decoding: writer.bytes, as: UTF8.self))
      }
      let decimals =
        text.split(separator: ".", omittingEmptySubsequences: false)
        .dropFirst().first?.count ?? 4
      return .success(
        coordinate(
          abs(number.doubleValue), degreeDigits: kind == .latitude ? 2 : 3,
          minuteDecimals: decimals))
    case .hash, .shift:
      return .success(text)
    }
  }

  /// A coordinate `ddmm.mmmm` rounded to `decimals` decimals of a degree, half away from
  /// zero, in the same form: exact, in integers.
  static func roundCoordinate(_ text: String, decimals: Int) -> String? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = parts.first, whole.count >= 3, whole.count <= 5,
      whole.allSatisfy(\.isASCIIDigitCharacter)
    else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard fraction.count <= 9, fraction.allSatisfy(\.isASCIIDigitCharacter),
      let degrees = Int128(whole.dropLast(2)), let minutes = Int128(whole.suffix(2)),
      minutes < 60
    else { return nil }
    let k = fraction.count
    let scaledMinutes =
      (degrees * 60 + minutes) * power(k) + (fraction.isEmpty ? 0 : Int128(fraction) ?? 0)
    // Degrees times 10^decimals, rounded half up: the value is positive.
    let numerator = scaledMinutes * power(decimals)
    let denominator = 60 * power(k)
    let rounded = (2 * numerator + denominator) / (2 * denominator)
    let newDegrees = rounded / power(decimals)
    let rest = rounded % power(decimals)
    let minuteUnits = rest * 60
    let newMinutes = minuteUnits / power(decimals)
    var digits = decimals == 0 ? "" : padded(minuteUnits % power(decimals), to: decimals)
    while digits.count > k, digits.last == "0" { digits.removeLast() }
    while digits.count < k { digits += "0" }
    return padded(newDegrees, to: whole.count - 2) + padded(newMinutes, to: 2)
      + (digits.isEmpty ? "" : "." + digits)
  }

  /// A time `hhmmss.ss` plus `offset` seconds, exactly, with as many decimals of seconds as
  /// it had (more when `offset` has more), taken into the day; and the days it moved by.
  static func shiftingTime(_ text: String, by offset: JSONNumber) -> (String, Int)? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = parts.first, whole.count == 6,
      whole.allSatisfy(\.isASCIIDigitCharacter)
    else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard fraction.count <= 9, fraction.allSatisfy(\.isASCIIDigitCharacter),
      let hours = Int128(whole.prefix(2)), let minutes = Int128(whole.dropFirst(2).prefix(2)),
      let seconds = Int128(whole.suffix(2)), hours < 24, minutes < 60, seconds <= 60,
      let by = decimal(offset)
    else { return nil }
    let decimals = max(fraction.count, by.decimals)
    let padding = String(repeating: "0", count: decimals - fraction.count)
    let time =
      ((hours * 60 + minutes) * 60 + seconds) * power(decimals)
      + (Int128(fraction + padding) ?? 0)
    let total = time + by.units * power(decimals - by.decimals)
    let day = 86_400 * power(decimals)
    var days = total / day
    var rest = total % day
    if rest < 0 {
      rest += day
      days -= 1
    }
    let inSeconds = rest / power(decimals)
    let digits = decimals == 0 ? "" : "." + padded(rest % power(decimals), to: decimals)
    let written =
      padded(inSeconds / 3600, to: 2) + padded(inSeconds / 60 % 60, to: 2)
      + padded(inSeconds % 60, to: 2) + digits
    guard let moved = Int(exactly: days) else { return nil }
    return (written, moved)
  }

  /// A number as whole units of its last decimal: `-1.25` is (-125, 2), `1e-09` (1, 9);
  /// `nil` beyond 18 digits.
  static func decimal(_ number: JSONNumber) -> (units: Int128, decimals: Int)? {
    if let whole = number.exactInteger { return (Int128(whole), 0) }
    var writer = JSONWriter()
    writer.writeNumber(number)
    var text = Substring(String(decoding: writer.bytes, as: UTF8.self))
    let negative = text.first == "-"
    if negative { text = text.dropFirst() }
    var exponent = 0
    if let mark = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      guard let value = Int(text[text.index(after: mark)...]) else { return nil }
      exponent = value
      text = text[..<mark]
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = parts.first else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    let digits = whole + fraction
    var decimals = fraction.count - exponent
    guard digits.count <= 18, digits.allSatisfy(\.isASCIIDigitCharacter),
      var units = Int128(digits), decimals <= 18, decimals >= -18
    else { return nil }
    if decimals < 0 {
      units *= power(-decimals)
      decimals = 0
    }
    return (negative ? -units : units, decimals)
  }

  /// A date `ddmmyy` (years 1980 to 2079) moved by `days`, in the same form, through
  /// ``RaspDomains/RaspTimestamp``'s calendar.
  static func movingDate(_ text: String, by days: Int) -> String? {
    guard text.count == 6, text.allSatisfy(\.isASCIIDigitCharacter),
      let day = Int64(text.prefix(2)), let month = Int64(text.dropFirst(2).prefix(2)),
      let short = Int64(text.suffix(2)), (1...12).contains(month)
    else { return nil }
    let year = short < 80 ? 2000 + short : 1900 + short
    guard day >= 1, day <= RaspTimestamp.daysInMonth(year: year, month: month) else { return nil }
    let moved = RaspTimestamp.civil(
      fromDays: RaspTimestamp.days(year: year, month: month, day: day) + Int64(days))
    return padded(Int128(moved.day), to: 2) + padded(Int128(moved.month), to: 2)
      + padded(Int128((moved.year % 100 + 100) % 100), to: 2)
  }

  /// A number rounded to `decimals` decimals, half away from zero; as it is when it has no
  /// more.
  static func roundNumber(_ text: String, decimals: Int) -> String? {
    var body = Substring(text)
    var sign = ""
    if body.first == "-" || body.first == "+" {
      sign = body.first == "-" ? "-" : ""
      body = body.dropFirst()
    }
    let parts = body.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.count <= 18,
      whole.allSatisfy(\.isASCIIDigitCharacter)
    else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard fraction.count <= 18, fraction.allSatisfy(\.isASCIIDigitCharacter) else { return nil }
    guard fraction.count > decimals else { return text }
    let k = fraction.count
    let scaled = (Int128(whole) ?? 0) * power(k) + (fraction.isEmpty ? 0 : Int128(fraction) ?? 0)
    let unit = power(k - decimals)
    let rounded = (2 * scaled + unit) / (2 * unit)
    let integer = rounded / power(decimals)
    let digits = decimals == 0 ? "" : "." + padded(rounded % power(decimals), to: decimals)
    return (rounded == 0 ? "" : sign) + "\(integer)" + digits
  }

  /// A coordinate in degrees, written `ddmm.mmmm` with so many decimals of minutes.
  static func coordinate(_ degrees: Double, degreeDigits: Int, minuteDecimals: Int) -> String {
    let units = Int128((degrees * 60 * Double(power(minuteDecimals))).rounded())
    let perDegree = 60 * power(minuteDecimals)
    let minuteUnits = units % perDegree
    let digits =
      minuteDecimals == 0
      ? "" : "." + padded(minuteUnits % power(minuteDecimals), to: minuteDecimals)
    return padded(units / perDegree, to: degreeDigits)
      + padded(minuteUnits / power(minuteDecimals), to: 2) + digits
  }

  /// The XOR of a sentence's bytes between `$` and `*`.
  static func checksum(_ body: some Sequence<UInt8>) -> UInt8 {
    body.reduce(0, ^)
  }

  static func power(_ exponent: Int) -> Int128 {
    var value: Int128 = 1
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  static func padded(_ value: Int128, to width: Int) -> String {
    let text = "\(value)"
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
  }

  private static func hexValue(_ high: UInt8, _ low: UInt8) -> UInt8? {
    func value(_ byte: UInt8) -> UInt8? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
      case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
      case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
      default: return nil
      }
    }
    guard let high = value(high), let low = value(low) else { return nil }
    return high << 4 | low
  }
}

extension Character {
  /// Whether the character is one of `0` to `9`.
  fileprivate var isASCIIDigitCharacter: Bool { self >= "0" && self <= "9" }
}
