import RaspJSON
import RaspReplay

/// How far `rasp shrink` may search: `--budget` replays and `--time` seconds.
///
/// ```swift
/// let bound = try ShrinkBound(parsed, fail: fail)   // --budget 500 --time 30
/// bound.replays   // 500
/// ```
struct ShrinkBound {
  /// The most replays, or `nil` for no bound.
  var replays: Int?
  /// The longest search, or `nil` for no bound.
  var duration: Duration?

  /// No bound.
  init() {}

  /// Reads `--budget` and `--time`.
  ///
  /// - Throws: A usage error for a value that is not a positive number.
  init(_ parsed: RaspParsedArguments, fail: (String) -> RaspCommandError) throws(RaspCommandError) {
    if let text = parsed.value(.budget) {
      guard let count = Int(text), count >= 1 else {
        throw fail(
          "Invalid value '\(text)' for '--budget <n>': expected a whole number of replays "
            + "from 1")
      }
      replays = count
    }
    if let text = parsed.value(.time) {
      guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds < 1e9 else {
        throw fail(
          "Invalid value '\(text)' for '--time <seconds>': expected a number of seconds "
            + "above 0, such as 30 or 0.5")
      }
      duration = .milliseconds(Int64(seconds * 1000))
    }
  }
}

/// The search of `rasp shrink`: the keys pass, then the events pass, each a
/// ``DeltaDebugging`` over the log's lines, counting replays and stopping at its bound.
///
/// ```swift
/// var search = ShrinkSearch(log: log, failure: failure, options: options, environment: quiet,
///                           bound: ShrinkBound(), interruption: nil)
/// search.run(keyPath: nil)
/// search.kept      // [17, 204, 911]: the lines of the shrunk log
/// search.summary   // "events 1000→3 · 41 replays"
/// ```
struct ShrinkSearch {
  /// Why a search stopped before it was done.
  enum Stop: Error {
    /// `--budget` replays were made.
    case budget(Int)
    /// `--time` ran out.
    case time(Duration)
    /// A signal asked to stop (Ctrl-C).
    case interrupted(Int32)

    /// Why the result is not minimal, for the note.
    var reason: String {
      switch self {
      case .budget(let count):
        "the budget of \(count == 1 ? "1 replay" : "\(count) replays") ran out"
      case .time(let duration): "the time of \(ShrinkSearch.seconds(duration)) ran out"
      case .interrupted: "the search was interrupted"
      }
    }
  }

  let log: ShrinkLog
  let failure: ShrinkFailure
  let options: ReplayOptions
  let environment: RaspEnvironment
  let bound: ShrinkBound
  let interruption: ReplayInterruption?
  /// What the progress line shows.
  let progress: ShrinkProgress
  /// The positions of the lines kept: all of them at first, the shrunk log's at the end.
  private(set) var kept: [Int]
  /// How many keys there were and are left, when the log was keyed.
  private(set) var keys: (before: Int, after: Int)?
  /// The lines the payloads pass rewrote, by position: compact JSON and the line's end.
  private(set) var replacements: [Int: [UInt8]] = [:]
  /// The events the payloads pass changed, by position, as the DevTools export writes them.
  private(set) var shrunkActions: [Int: JSONValue] = [:]
  /// A DevTools export, when the log is one: what `--cmd` is given, and how the payloads
  /// pass reads its actions.
  var devTools: ShrinkDevTools?
  /// How many fields the payloads pass dropped, when it ran.
  private(set) var droppedFields: Int?
  /// How many candidates were replayed (the whole log's first replay included).
  private(set) var replays = 1
  /// Why the search stopped early, if it did.
  private(set) var stop: Stop?
  private let clock = ContinuousClock()
  private let start: ContinuousClock.Instant

  /// The saved states of the current log (the smallest failing log so far) that the tries
  /// start from, or `nil` to replay each try from the first line.
  private(set) var states: ShrinkStates?

  /// A search over all of `log`'s lines, which fail; its tries resume from `states`, the
  /// states of the whole log's replay, or replay from the first line without them.
  init(
    log: ShrinkLog, failure: ShrinkFailure, options: ReplayOptions, environment: RaspEnvironment,
    bound: ShrinkBound, interruption: ReplayInterruption?, states: ShrinkStates? = nil
  ) {
    self.states = states
    self.log = log
    self.failure = failure
    self.options = options
    self.environment = environment
    self.bound = bound
    self.interruption = interruption
    self.kept = Array(log.lines.indices)
    self.start = clock.now
    self.progress = ShrinkProgress(events: log.lines.count, keys: nil)
  }

  /// Runs the passes: keys (with `keyPath`), then events, then payloads (with `payloads`).
  mutating func run(keyPath: JSONPath?, payloads: Bool = false) {
    do throws(Stop) {
      if let keyPath {
        var groups = log.groups(by: keyPath)
        keys = (groups.count, groups.count)
        progress.noteKeys(groups.count)
        defer {
          keys?.after = groups.count
          kept = groups.flatMap { $0 }.sorted()
        }
        try DeltaDebugging.minimize(&groups) { (candidate: [[Int]]) throws(Stop) -> Bool in
          try stillFails(candidate.flatMap { $0 }.sorted(), keys: candidate.count)
        }
      }
      var lines = kept
      defer { kept = lines }
      try DeltaDebugging.minimize(&lines) { (candidate: [Int]) throws(Stop) -> Bool in
        try stillFails(candidate)
      }
      kept = lines
      if payloads { try shrinkPayloads() }
    } catch {
      stop = error
    }
  }

  /// The payloads pass: each kept line that is JSON made smaller (``PayloadShrinker``), the
  /// others' changes kept as it goes.
  private mutating func shrinkPayloads() throws(Stop) {
    let shrinker = PayloadShrinker()
    droppedFields = 0
    defer { droppedFields = shrinker.droppedFields }
    for index in kept {
      let line = log.lines[index]
      var end = line.endIndex
      while end > line.startIndex, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
      let lineEnd = Array(line[end...])
      guard var value = try? JSONParser.parse(Array(line[..<end])) else { continue }
      let pinned = devTools?.pinnedLines ?? 0
      if let devTools { value = devTools.action(ofLine: index + pinned, value) }
      let devTools = self.devTools
      func encoded(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(devTools?.line(ofLine: index + pinned, value) ?? value)
        return writer.bytes + lineEnd
      }
      let lines = kept
      let smaller = try shrinker.shrink(value) { (candidate: JSONValue) throws(Stop) -> Bool in
        try stillFails(lines, replacing: (index, encoded(candidate)))
      }
      if smaller != value {
        replacements[index] = encoded(smaller)
        shrunkActions[index + pinned] = smaller
      }
    }
  }

  /// The bytes of the candidate of the lines at `indices`, with the payloads pass's lines.
  func bytes(of indices: [Int], replacing replaced: (Int, [UInt8])? = nil) -> [UInt8] {
    guard !replacements.isEmpty || replaced != nil else { return log.bytes(of: indices) }
    var bytes = log.prefix
    for index in indices {
      if let replaced, replaced.0 == index {
        bytes += replaced.1
      } else if let replacement = replacements[index] {
        bytes += replacement
      } else {
        bytes += log.lines[index]
      }
    }
    return bytes
  }

  /// The DevTools actions the payloads pass changed, with the one of `replaced`.
  private func actions(replacing replaced: (Int, [UInt8])?) -> [Int: JSONValue] {
    var actions = shrunkActions
    if let replaced, let devTools, let value = try? JSONParser.parse(Array(replaced.1)) {
      let line = replaced.0 + devTools.pinnedLines
      actions[line] = devTools.action(ofLine: line, value)
    }
    return actions
  }

  /// The shrunk log: its lines, or, for a DevTools export, the export of its actions.
  func shrunkBytes() throws(RaspCommandError) -> [UInt8] {
    guard let devTools else { return bytes(of: kept) }
    return try devTools.export(
      keeping: kept.map { $0 + devTools.pinnedLines }, actions: shrunkActions)
  }

  /// Replays the candidate of the lines at `indices`, unless the bound or a signal stops the
  /// search first.
  private mutating func stillFails(
    _ indices: [Int], replacing replaced: (Int, [UInt8])? = nil, keys: Int? = nil
  ) throws(Stop) -> Bool {
    try checkBound()
    replays += 1
    progress.noteReplay()
    let candidate = bytes(of: indices, replacing: replaced)
    var replay = ShrinkReplay(bytes: candidate)
    if let devTools, case .command = failure {
      // The command is given the export, as the user would give it.
      replay.commandBytes = try? devTools.export(
        keeping: indices.map { $0 + devTools.pinnedLines },
        actions: actions(replacing: replaced))
    }
    if let states {
      replay.state = states.latest(sharedWith: candidate)
      replay.interval = ShrinkStates.interval(forLines: indices.count)
    }
    let (fails, saved) = failure.attempt(replay, options: options, environment: environment)
    // A try that a signal cut short (a --cmd killed by Ctrl-C) says nothing.
    if let signal = interruption?.signal { throw .interrupted(signal) }
    // The candidate is the current log now: the states of its replay are its.
    if fails { states?.adopt(candidate, saved: saved) }
    if fails { progress.noteFailing(events: indices.count, keys: keys) }
    return fails
  }

  private func checkBound() throws(Stop) {
    if let signal = interruption?.signal { throw .interrupted(signal) }
    if let limit = bound.replays, replays >= limit { throw .budget(limit) }
    if let duration = bound.duration, clock.now - start >= duration { throw .time(duration) }
  }

  /// The summary: `keys 412→1 · events 3118→5 · 1942 replays · 41 s`; the time only from a
  /// second on.
  var summary: String {
    var parts: [String] = []
    if let keys { parts.append("keys \(keys.before)→\(keys.after)") }
    parts.append("events \(log.lines.count)→\(kept.count)")
    if let droppedFields {
      parts.append(droppedFields == 1 ? "1 field dropped" : "\(droppedFields) fields dropped")
    }
    parts.append(replays == 1 ? "1 replay" : "\(replays) replays")
    let elapsed = clock.now - start
    if elapsed >= .seconds(1) { parts.append(Self.seconds(elapsed)) }
    return parts.joined(separator: " · ")
  }

  /// A duration in seconds: `1.4 s`, `41 s`.
  static func seconds(_ duration: Duration) -> String {
    let milliseconds =
      duration.components.seconds * 1000
      + duration.components.attoseconds / 1_000_000_000_000_000
    if milliseconds < 10_000 {
      let tenths = (milliseconds + 50) / 100
      return "\(tenths / 10).\(tenths % 10) s"
    }
    return "\((milliseconds + 500) / 1000) s"
  }
}
