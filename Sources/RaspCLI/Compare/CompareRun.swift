import Dispatch
import Rasp
import RaspDomains
import RaspJSON
import RaspReplay
import Synchronization

/// Compares every log under both versions, on up to `-j` threads, each log on one: the
/// verdicts come back in the logs' order, the same for every number of threads.
///
/// Each log is opened twice, once for each version's ``RaspReplay/Replay`` (each reads ahead
/// on a thread of its own), and the two are read in step by a ``LogComparison``. A divergent
/// log is replayed once more, by the version that applied the event, up to it, for the event
/// as rasp read it (``EventCapture``). Standard input (`-`) is read once, before, and each
/// replay reads its bytes; a DevTools export (`--log-format devtools`) is read once per log,
/// and each version starts from its committed state, as `rasp replay` does.
///
/// ```swift
/// let run = CompareRun(versions: versions, options: diff, allowed: allowed,
///                      environment: environment)
/// let results = run.compareAll(["a.jsonl", "b.jsonl"], jobs: 2)
/// ```
final class CompareRun: @unchecked Sendable {
  // Unchecked: every member is set once, in `init`, and only read after it; the environment
  // is read for its working directory alone (`openForReading`), and the results of the
  // threads go through a `RaspMutex`.

  /// One log's result.
  struct Result {
    var verdict: LogVerdict
    /// The lines both versions rejected.
    var rejectedByBoth: [ReplayDiagnostic]
    /// Which `--allow` changes allowed some difference.
    var usedAllowances: Set<Int>
    /// Where each line both versions rejected is in a DevTools export (the action's line,
    /// column and JSON path), by the line's number; empty for a log of lines.
    var rejectionPlaces: [Int: (JSONTextPosition, path: String)] = [:]
  }

  let old: ReplayConfiguration
  let new: ReplayConfiguration
  let oldInitial: [UInt8]
  let newInitial: [UInt8]
  /// Each version's options, for the start of a DevTools export.
  let oldOptions: ReplayOptions
  let newOptions: ReplayOptions
  /// Standard input, read whole before the comparison when a log is `-`.
  let standardInput: [UInt8]
  /// Whether each log is a DevTools export rather than lines.
  let readsDocuments: Bool
  let options: JSONDiffOptions
  let allowed: [AllowedChange]
  let environment: RaspEnvironment
  let isKeyed: Bool

  init(
    versions: CompareVersions, options: JSONDiffOptions, allowed: [AllowedChange],
    environment: RaspEnvironment, standardInput: [UInt8] = []
  ) {
    old = Self.prepared(versions.old.configuration)
    new = Self.prepared(versions.new.configuration)
    oldInitial = versions.old.initialSnapshot
    newInitial = versions.new.initialSnapshot
    oldOptions = versions.old
    newOptions = versions.new
    self.standardInput = standardInput
    readsDocuments = versions.old.configuration.format.document == .devtools
    self.options = options
    self.allowed = allowed
    self.environment = environment
    isKeyed = versions.old.configuration.keyPath != nil
  }

  /// A version's configuration as a comparison replays it: every state, nothing wrapped, and
  /// a step for every event not applied.
  private static func prepared(_ configuration: ReplayConfiguration) -> ReplayConfiguration {
    var configuration = configuration
    configuration.isFinal = false
    configuration.emit = .snapshot
    configuration.selection = nil
    configuration.includesEvent = false
    configuration.reportsIgnoredLines = true
    configuration.stateObserver = nil
    return configuration
  }

  /// Compares every log, `jobs` at a time; a single log's keyed replays apply their events
  /// on `jobs` threads instead.
  func compareAll(_ files: [(path: String, name: String)], jobs: Int) -> [Result] {
    guard files.count > 1, jobs > 1 else {
      return files.map { compare($0.path, name: $0.name, jobs: files.count == 1 ? jobs : 1) }
    }
    let results = RaspMutex([Result?](repeating: nil, count: files.count))
    let next = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: min(jobs, files.count)) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < files.count else { return }
        let result = compare(files[index].path, name: files[index].name, jobs: 1)
        results.withLock { $0[index] = result }
      }
    }
    return results.withLock { $0.compactMap { $0 } }
  }

  /// Compares one log.
  func compare(_ path: String, name: String, jobs: Int) -> Result {
    var oldConfiguration = old
    var newConfiguration = new
    oldConfiguration.jobs = jobs
    newConfiguration.jobs = jobs
    var oldInitial = self.oldInitial
    var newInitial = self.newInitial
    let document: ImportedDocument?
    let oldInput: ReplayInput
    let newInput: ReplayInput
    do {
      document = try self.document(path, name: name)
      oldInput = try input(path, name: name, document: document)
      newInput = try input(path, name: name, document: document)
    } catch {
      return Result(
        verdict: .failed(Self.reason(error)), rejectedByBoth: [], usedAllowances: [])
    }
    if let document {
      (oldConfiguration.domains, oldInitial) = Self.started(oldOptions, from: document)
      (newConfiguration.domains, newInitial) = Self.started(newOptions, from: document)
    }
    var oldStream = CompareStream(
      replay: Replay(configuration: oldConfiguration, inputs: [oldInput]),
      initial: oldInitial, isKeyed: isKeyed)
    var newStream = CompareStream(
      replay: Replay(configuration: newConfiguration, inputs: [newInput]),
      initial: newInitial, isKeyed: isKeyed)
    var comparison = LogComparison(
      options: options, allowed: allowed, file: name, stopsAtBadLine: old.errorMode == .fail)
    var verdict = comparison.run(old: &oldStream, new: &newStream)
    if case .divergent(var divergence) = verdict {
      if let seq = divergence.old.seq {
        divergence.eventAsRead = eventAsRead(
          path, name: name, document: document, seq: seq, configuration: oldConfiguration)
      } else if let seq = divergence.new.seq {
        divergence.eventAsRead = eventAsRead(
          path, name: name, document: document, seq: seq, configuration: newConfiguration)
      }
      divergence.place = document?.position(ofLine: divergence.line)
      verdict = .divergent(divergence)
    }
    var places: [Int: (JSONTextPosition, path: String)] = [:]
    if let document {
      for diagnostic in comparison.rejectedByBoth {
        places[diagnostic.line] = document.position(ofLine: diagnostic.line)
      }
    }
    return Result(
      verdict: verdict, rejectedByBoth: comparison.rejectedByBoth,
      usedAllowances: comparison.usedAllowances, rejectionPlaces: places)
  }

  /// The DevTools export a log is, read once for both versions; `nil` for a log of lines.
  private func document(_ path: String, name: String) throws(RaspCommandError)
    -> ImportedDocument?
  {
    guard readsDocuments else { return nil }
    if path == "-" { return try ImportedDocument.read(standardInput, name: name) }
    return try ImportedDocument.open(path, name: name, environment: environment)
  }

  /// A new input of a log, for one replay: the lines of its export, the bytes of standard
  /// input, or the file opened again.
  private func input(_ path: String, name: String, document: ImportedDocument?)
    throws(RaspCommandError) -> ReplayInput
  {
    if let document { return document.input }
    if path == "-" {
      return ReplayInput(
        name: name, source: .memory(JSONMemorySource(standardInput)), isLive: false)
    }
    return ReplayInput(name: name, source: try environment.openForReading(path))
  }

  /// A version's domains and its state before the first action of a DevTools export: its
  /// spec domains start from the export's committed state.
  private static func started(_ options: ReplayOptions, from document: ImportedDocument)
    -> ([any RaspDomain], [UInt8])
  {
    var options = options
    options.configuration.domains = document.startingDomains(options.configuration.domains)
    return (options.configuration.domains, options.initialSnapshot)
  }

  /// The event numbered `seq` of a version's replay of the log, as rasp read it.
  private func eventAsRead(
    _ path: String, name: String, document: ImportedDocument?, seq: Int,
    configuration: ReplayConfiguration
  ) -> [UInt8]? {
    guard let input = try? input(path, name: name, document: document) else { return nil }
    var configuration = configuration
    let capture = EventCapture(seq: seq)
    configuration.stateObserver = capture
    configuration.isFinal = true
    configuration.reportsIgnoredLines = false
    configuration.jobs = 1
    var replay = Replay(configuration: configuration, inputs: [input])
    var output: [UInt8] = []
    while replay.next(appendingTo: &output) != nil { output.removeAll(keepingCapacity: true) }
    guard let event = capture.event, let value = try? JSONParser.parse(event) else {
      return capture.event
    }
    var writer = JSONWriter()
    writer.write(value)
    return writer.bytes
  }

  /// The reason a log cannot be compared, without the `rasp: error:` of a message.
  private static func reason(_ error: RaspCommandError) -> String {
    switch error {
    case .cannotOpen(let file, let reason): return "cannot open '\(file)': \(reason)"
    default:
      var text = error.description
      if text.hasPrefix("rasp: error: ") { text.removeFirst("rasp: error: ".count) }
      if text.hasSuffix("\n") { text.removeLast() }
      return text
    }
  }
}
