import RaspJSON

extension LogFormat {
  /// rasp's own line: `{"type": "geo.locationUpdated", "ts": …, "source": …, "payload": {…}}`,
  /// read by the envelope parser built for it.
  ///
  /// ```swift
  /// ReplayConfiguration(domains: domains).format.name   // "rasp"
  /// ```
  public static let rasp = LogFormat(
    name: "rasp", summary: Preset.rasp.summary, text: Preset.rasp.text, type: .default,
    separator: Array(".".utf8), split: .first, defaultDomain: nil, renames: [], drops: [],
    payload: [JSONPath(components: [.key("payload")])],
    time: [JSONPath(components: [.key("ts")])], timeUnit: .auto,
    source: [JSONPath(components: [.key("source")])], isRasp: true)

  /// The formats that ship with rasp, in the order `rasp formats` lists them: `rasp`, `fsa`
  /// (Redux and Flux Standard Actions), `devtools` (a Redux DevTools export), `cloudevents`,
  /// `segment`, `otel` (OpenTelemetry logs), `kcat` (Kafka messages), `gpsd` (a GPS daemon's
  /// reports) and `owntracks` (OwnTracks locations).
  ///
  /// Each is a map file, as ``text`` shows it: copy one to start a map of your own.
  ///
  /// ```swift
  /// LogFormat.presets.map(\.name)
  /// // ["rasp", "fsa", "devtools", "cloudevents", "segment", "otel", "kcat", "gpsd",
  /// //  "owntracks"]
  /// ```
  public static let presets: [LogFormat] = Preset.all.compactMap(\.format)

  /// The names of the presets, in the order of ``presets``, without reading their map files:
  /// what a command line's `--log-format` accepts, known before any option is read.
  ///
  /// ```swift
  /// LogFormat.presetNames.first   // "rasp"
  /// ```
  package static var presetNames: [String] { Preset.all.map(\.name) }

  /// The preset of a name, or `nil`; only its own map file is read.
  ///
  /// ```swift
  /// LogFormat.preset(named: "fsa")?.summary
  /// ```
  public static func preset(named name: String) -> LogFormat? {
    Preset(rawValue: name)?.format
  }
}

/// The texts of the formats that ship with rasp.
enum Preset: String {
  case rasp, fsa, devtools, cloudevents, segment, otel, kcat, gpsd, owntracks

  static let all: [Preset] = [
    .rasp, .fsa, .devtools, .cloudevents, .segment, .otel, .kcat, .gpsd, .owntracks,
  ]

  /// Its name, spelled as its case (a raw value: `"\(self)"` would read the type's metadata
  /// at run time, a third of a replay's start).
  var name: String { rawValue }

  /// The format its map file reads as. The presets' texts are checked by the tests; a text
  /// that did not read would be `nil`, left out of the list rather than stop a program that
  /// does not use it.
  var format: LogFormat? {
    guard self != .rasp else { return LogFormat.rasp }
    return try? LogFormat(mapFile: Array(text.utf8), name: name)
  }

  var summary: String {
    switch self {
    case .rasp:
      "rasp's own lines: a 'domain.event' type, a payload object, an RFC 3339 or epoch 'ts'."
    case .fsa:
      "Redux and Flux Standard Actions ('todos/todoAdded'), as a logger or DevTools records "
        + "them; '@@INIT' and '@@redux/*' left out."
    case .devtools:
      "A Redux DevTools export, one JSON document (the lifted state, the extension's "
        + "'payload' export, or an array of actions): its staged actions, read as 'fsa' reads "
        + "them, skipped ones left out."
    case .cloudevents:
      "CloudEvents 1.0 in structured JSON mode, alone or in a batch: the domain and event are "
        + "the type's last two segments ('com.example.cart.add' is cart.add); the payload is "
        + "'data'."
    case .segment:
      "Segment calls (track, identify, page, screen, group, alias), alone or in a batch: track "
        + "'Order Completed' is the event track.Order Completed; the payload is 'properties' or "
        + "'traits'."
    case .kcat:
      "Kafka messages as 'kcat -C -J' prints them: each payload holds an event in rasp's own "
        + "format; the message's 'ts' (milliseconds) is the time of an event without its own."
    case .otel:
      "OpenTelemetry logs in OTLP/JSON, as the Collector's file exporter writes them: each log "
        + "record with an event name ('browser.page_view') is an event, its body (or else its "
        + "attributes) the payload; records without one are dropped."
    case .gpsd:
      "gpsd's JSON reports, as gpspipe -w prints them: each TPV is a geo.location (its 'eph' "
        + "the accuracy) and a geo.heading (its 'track'), either left out when the report "
        + "lacks it; other classes and NMEA sentences left out."
    case .owntracks:
      "OwnTracks locations, as the Recorder stores them ('.rec' lines: a time, a tab, '*', a "
        + "tab, the JSON) or as plain JSON: each is a geo.location and a geo.heading (its "
        + "'cog', left out when -1); other types left out."
    }
  }

  /// The map file, as `rasp formats NAME` prints it.
  var text: String {
    let fields: [(String, String)]
    switch self {
    case .rasp:
      fields = [
        ("type", #""{type}""#), ("payload", #""payload""#), ("time", #""ts""#),
        ("timeUnit", #""auto""#), ("source", #""source""#),
      ]
    case .fsa:
      fields = [
        ("type", #""{type}""#), ("separator", #""/""#),
        ("drop", #"["@@INIT", "@@redux/*"]"#), ("payload", #""payload""#),
        ("time", #""meta.timestamp|meta.time""#), ("timeUnit", #""ms""#),
      ]
    case .devtools:
      fields = [
        ("document", #""devtools""#), ("type", #""{type}""#), ("separator", #""/""#),
        ("drop", #"["@@INIT", "@@redux/*"]"#), ("payload", #""payload""#),
        ("time", #""meta.timestamp|meta.time""#), ("timeUnit", #""ms""#),
      ]
    case .cloudevents:
      fields = [
        ("type", #""{type}""#), ("split", #""last""#), ("payload", #""data""#),
        ("time", #""time""#), ("timeUnit", #""rfc3339""#), ("source", #""source""#),
        ("events", #""[]""#),
      ]
    case .segment:
      fields = [
        ("type", #""{type}.{event|name|type}""#), ("payload", #""properties|traits""#),
        ("time", #""timestamp|originalTimestamp|receivedAt""#), ("timeUnit", #""rfc3339""#),
        ("source", #""context.library.name|channel""#), ("events", #""batch[]""#),
        ("inherit", #"["context", "integrations"]"#),
      ]
    case .kcat:
      fields = [
        ("inner", #""payload""#), ("innerFormat", #""rasp""#), ("time", #""ts""#),
        ("timeUnit", #""ms""#), ("source", #""topic""#),
      ]
    case .otel:
      fields = [
        ("events", #""resourceLogs[].scopeLogs[].logRecords[]""#), ("decode", #""otlp""#),
        ("type", #""{eventName}""#), ("untyped", #""drop""#),
        ("payload", #""body|attributes""#),
        ("time", #""timeUnixNano|observedTimeUnixNano""#), ("timeUnit", #""ns""#),
        ("source", #""resource[\"service.name\"]|scope.name""#),
      ]
    case .gpsd:
      fields = [
        ("ignoreLines", #"["$*", "!*"]"#), ("keep", #"{"class": "TPV"}"#),
        ("payload", #"".""#),
        (
          "emit",
          #"""
          [
              {"type": "geo.location", "fields": [
                {"from": "lat", "to": "latitude", "absentIs": "skip"},
                {"from": "lon", "to": "longitude", "absentIs": "skip"},
                {"from": "eph", "to": "accuracy"}
              ]},
              {"type": "geo.heading", "fields": [
                {"from": "track", "to": "heading", "absentIs": "skip"}
              ]}
            ]
          """#
        ),
        ("time", #""time""#), ("timeUnit", #""rfc3339""#), ("source", #""device""#),
      ]
    case .owntracks:
      fields = [
        ("skipTo", #""{""#), ("keep", #"{"_type": "location"}"#), ("payload", #"".""#),
        (
          "emit",
          #"""
          [
              {"type": "geo.location", "fields": [
                {"from": "lat", "to": "latitude"},
                {"from": "lon", "to": "longitude"},
                {"from": "acc", "to": "accuracy"}
              ]},
              {"type": "geo.heading", "fields": [
                {"from": "cog", "to": "heading", "absentIs": "skip", "skipIf": -1}
              ]}
            ]
          """#
        ),
        ("time", #""tst""#), ("timeUnit", #""s""#), ("source", #""tid""#),
      ]
    }
    // The summaries have no quote or backslash to escape.
    let head = [("format", "\"\(name)\""), ("summary", "\"\(summary)\"")]
    let lines = (head + fields).map { "  \"\($0.0)\": \($0.1)" }
    return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
  }
}
