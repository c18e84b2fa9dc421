/// The NMEA 0183 sentences and fields that a `rasp redact` policy can name in a gpsd log
/// (`--log-format gpsd`): `GGA.lat`, `RMC.lon`, `GLL.lat`, …, whatever the talker (`$GPGGA`,
/// `$GNGGA`).
///
/// A coordinate is written `ddmm.mmmm` (degrees and minutes; `dddmm.mmmm` for a longitude),
/// with its hemisphere (`N`/`S`, `E`/`W`) in the field after it; a time `hhmmss.ss` (UTC), a
/// date `ddmmyy`; the other fields are plain numbers.
///
/// ```swift
/// let field = NMEASentences.field("lat", of: "GGA")   // field 2, its hemisphere field 3
/// ```
enum NMEASentences {
  /// What a field holds.
  enum Kind: Equatable {
    /// A latitude (`ddmm.mmmm`), its hemisphere in the next field.
    case latitude
    /// A longitude (`dddmm.mmmm`), its hemisphere in the next field.
    case longitude
    /// A number: an altitude, a speed, a course.
    case number
    /// A time of day, `hhmmss` with decimals of seconds or none.
    case time
    /// A date, `ddmmyy`: moved with the sentence's time.
    case date

    /// The actions a rule of a field of this kind can take: the ones whose result is still a
    /// field of its kind. A code of `hash` is no number, and only a time can be shifted (by
    /// seconds); a date moves with its sentence's time.
    var actionNames: [String] {
      switch self {
      case .latitude, .longitude, .number: ["round", "replace", "drop"]
      case .time: ["shift", "drop"]
      case .date: ["drop"]
      }
    }
  }

  /// One field of a sentence.
  struct Field: Equatable {
    /// The sentence type: `GGA`, `RMC`, `GLL`.
    let sentence: String
    /// The field's name in a policy: `lat`, `lon`, `alt`, …
    let name: String
    /// Its position after the address (`$GPGGA` is 0, the time of GGA 1).
    let index: Int
    let kind: Kind
  }

  /// Every field a rule can name, by sentence, in the order the docs give them.
  static let fields: [String: [Field]] = [
    "GGA": [
      Field(sentence: "GGA", name: "time", index: 1, kind: .time),
      Field(sentence: "GGA", name: "lat", index: 2, kind: .latitude),
      Field(sentence: "GGA", name: "lon", index: 4, kind: .longitude),
      Field(sentence: "GGA", name: "alt", index: 9, kind: .number),
    ],
    "RMC": [
      Field(sentence: "RMC", name: "time", index: 1, kind: .time),
      Field(sentence: "RMC", name: "lat", index: 3, kind: .latitude),
      Field(sentence: "RMC", name: "lon", index: 5, kind: .longitude),
      Field(sentence: "RMC", name: "speed", index: 7, kind: .number),
      Field(sentence: "RMC", name: "track", index: 8, kind: .number),
      Field(sentence: "RMC", name: "date", index: 9, kind: .date),
    ],
    "GLL": [
      Field(sentence: "GLL", name: "lat", index: 1, kind: .latitude),
      Field(sentence: "GLL", name: "lon", index: 3, kind: .longitude),
      Field(sentence: "GLL", name: "time", index: 5, kind: .time),
    ],
  ]

  /// The sentence types, sorted.
  static let sentenceNames = fields.keys.sorted()

  /// Whether a rule's path names a sentence rather than a JSON path: its first step is a
  /// word of capital letters (`GGA`), as no key of gpsd's JSON reports is.
  static func namesSentence(_ path: String) -> Bool {
    let first = path.prefix { $0 != "." && $0 != "[" }
    return (2...6).contains(first.count) && first.allSatisfy { $0 >= "A" && $0 <= "Z" }
  }

  /// The position of the date in a sentence of `type`, which a shift of its time moves.
  static func dateIndex(of type: String) -> Int? {
    fields[type]?.first { $0.kind == .date }?.index
  }

  /// The field `name` of `sentence`, if there is one.
  static func field(_ name: String, of sentence: String) -> Field? {
    fields[sentence]?.first { $0.name == name }
  }
}
