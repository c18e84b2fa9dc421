import RaspDomains
import RaspJSON
import RaspReplay

/// Checks assertions against the state after every event, as the replay applies it: the
/// engine of `rasp check --assert`.
///
/// The observer keeps, for each key (one stream without `--key-by`), the value of each
/// domain an assertion reads, parsed from the domain's JSON only when an event changed that
/// domain; the state is never written out whole and read back. After an event, it evaluates
/// only the assertions that could have changed: those that read the event's domain, the
/// event, the key or `$prev`. A violation is an event after which an assertion that held (or
/// had not been checked) no longer holds; while it stays false, the events after it are not
/// new violations. `--assert-final` assertions are checked by ``finish()``, on each key's
/// last state, in key order.
///
/// ```swift
/// let observer = AssertionObserver(
///   assertions: options.assertions, domains: domains, inputNames: names, maximumFailures: 1)
/// configuration.stateObserver = observer
/// // … replay …
/// observer.finish()
/// observer.violations.first?.text
/// ```
final class AssertionObserver: ReplayStateObserver {
  /// What the observer knows of one key's states.
  private struct Stream {
    var scope: PredicateScope
    /// Whether each assertion was false after the last event that evaluated it.
    var failing: [Bool]
    var lastSeq: Int?
    var lastInput: Int?
    var lastLine: Int?
  }

  private let assertions: [Assertion]
  private let finalAssertions: [Assertion]
  private let names: [String]
  private let inputNames: [String]
  /// Whether an assertion (of either kind) reads the domain at each position.
  private let isRead: [Bool]
  /// `dependsOn[domain]`: the positions of the assertions to evaluate after its events.
  private let dependsOn: [[Int]]
  /// Each domain's initial value, parsed for those read.
  private let initialValues: [JSONValue]
  private let readsEvent: Bool
  private let readsKey: Bool
  private let maximumFailures: Int
  /// The streams, key `n` at `n + 1`.
  private var streams: [Stream?] = []
  /// The violations, at most ``maximumFailures``, in the order they happened.
  private(set) var violations: [AssertionViolation] = []
  /// How many violations there were, reported or not.
  private(set) var violationCount = 0
  /// The first assertion that could not be evaluated, with its event; nothing is checked
  /// after it.
  private(set) var error: RaspCommandError?
  /// How many events were applied.
  private(set) var events = 0
  /// How many assertions there are of both kinds.
  var assertionCount: Int { assertions.count + finalAssertions.count }

  /// An observer of `assertions` over a replay of `domains`.
  ///
  /// - Parameters:
  ///   - assertions: The assertions, of both kinds.
  ///   - domains: The replay's domains.
  ///   - inputNames: The inputs' names, as reports show them.
  ///   - maximumFailures: How many violations to keep for the report.
  init(
    assertions: [Assertion], domains: [any RaspDomain], inputNames: [String],
    maximumFailures: Int
  ) {
    let checked = assertions.filter { !$0.isFinal }
    self.assertions = checked
    finalAssertions = assertions.filter(\.isFinal)
    let initial = SnapshotState(domains: domains)
    names = initial.domainNames
    self.inputNames = inputNames
    let readsAll = assertions.contains { $0.reads.readsWholeState }
    let isRead = names.indices.map { index in
      readsAll || assertions.contains { $0.reads.domains.contains(index) }
    }
    self.isRead = isRead
    dependsOn = names.indices.map { index in
      checked.indices.filter { checked[$0].dependsOnEvent(ofDomainAt: index) }
    }
    initialValues = names.indices.map { index in
      isRead[index] ? Self.parse(initial.encodedState(ofDomainAt: index)[...]) : .null
    }
    readsEvent = assertions.contains { $0.reads.readsEvent }
    readsKey = assertions.contains { $0.reads.readsKey }
    self.maximumFailures = maximumFailures
  }

  private static func parse(_ bytes: ArraySlice<UInt8>) -> JSONValue {
    bytes.withUnsafeBufferPointer { (try? JSONParser.parse($0)) ?? .null }
  }

  /// A key's first stream: the initial values, but the domains read from its state that its
  /// first event did not change (a resumed replay's keys do not start from the initial state).
  private func makeStream(_ event: ReplayAppliedEvent) -> Stream {
    var scope = PredicateScope(names: names)
    scope.current = initialValues
    for index in names.indices where isRead[index] && index != event.domainIndex {
      scope.current[index] = Self.parse(event.state.encodedState(ofDomainAt: index)[...])
    }
    scope.previous = scope.current
    if let key = event.key { scope.key = Self.parse(key) }
    return Stream(scope: scope, failing: Array(repeating: false, count: assertions.count))
  }

  func observe(_ event: ReplayAppliedEvent, eventAsRead: () -> [UInt8]) {
    events += 1
    guard error == nil else { return }
    let slot = event.keyNumber + 1
    if slot >= streams.count {
      streams.append(contentsOf: repeatElement(nil, count: slot + 1 - streams.count))
    }
    var stream = streams[slot] ?? makeStream(event)
    // Out of the array while it changes, so that its arrays are changed in place.
    streams[slot] = nil
    defer { streams[slot] = stream }
    let changed = event.domainIndex
    stream.lastSeq = event.seq
    stream.lastInput = event.input
    stream.lastLine = event.line
    if isRead[changed] {
      stream.scope.current[changed] = Self.parse(event.state.encodedState(ofDomainAt: changed)[...])
    }
    defer { stream.scope.previous[changed] = stream.scope.current[changed] }
    let due = dependsOn[changed]
    if due.isEmpty { return }
    var asRead: JSONValue?
    func eventValue() -> JSONValue {
      if let asRead { return asRead }
      let value = Self.parse(eventAsRead()[...])
      asRead = value
      return value
    }
    if readsEvent {
      var object = JSONObject()
      if case .object(let read) = eventValue() { object = read }
      object["file"] = .string(inputNames[event.input])
      object["line"] = .number(JSONNumber(event.line))
      object["seq"] = .number(JSONNumber(event.seq))
      stream.scope.event = .object(object)
    }
    for index in due {
      let assertion = assertions[index]
      let holds: Bool
      do {
        holds = try PredicateEvaluator.holds(assertion.expression, in: stream.scope)
      } catch {
        self.error = .input(
          file: inputNames[event.input], line: event.line, column: nil,
          reason:
            "cannot evaluate the assertion '\(assertion.text)' (\(assertion.origin)) after "
            + "event \(event.seq): \(error)")
        return
      }
      if holds {
        stream.failing[index] = false
        continue
      }
      if stream.failing[index] { continue }
      stream.failing[index] = true
      violationCount += 1
      guard violations.count < maximumFailures else { continue }
      violations.append(
        AssertionViolation(
          assertion: assertion.text, isFinal: false, seq: event.seq,
          file: inputNames[event.input], line: event.line,
          key: event.key == nil ? JSONValue?.none : stream.scope.key, event: eventValue(),
          paths: Self.pathValues(of: assertion, in: stream.scope, isFinal: false)))
    }
  }

  /// The values of the paths an assertion reads, before and after the event.
  private static func pathValues(
    of assertion: Assertion, in scope: PredicateScope, isFinal: Bool
  ) -> [AssertionViolation.PathValues] {
    assertion.paths.map { path in
      AssertionViolation.PathValues(
        path: path.description,
        before: isFinal ? nil : try? PredicateEvaluator.evaluate(path.readingPrevious, in: scope),
        after: try? PredicateEvaluator.evaluate(path, in: scope))
    }
  }

  /// Checks the `--assert-final` assertions on each key's last state, in key order (on the
  /// initial state when no event was applied).
  ///
  /// - Parameter isKeyed: Whether the replay was keyed: then only keys' states are checked.
  func finish(isKeyed: Bool) {
    guard error == nil, !finalAssertions.isEmpty else { return }
    var finals = streams.compactMap { $0 }
    if finals.isEmpty, !isKeyed {
      var scope = PredicateScope(names: names)
      scope.current = initialValues
      scope.previous = initialValues
      finals = [Stream(scope: scope, failing: [])]
    }
    finals.sort { PredicateOrder.order($0.scope.key, $1.scope.key) < 0 }
    for var stream in finals {
      stream.scope.previous = stream.scope.current
      stream.scope.event = .null
      for assertion in finalAssertions {
        let holds: Bool
        do {
          holds = try PredicateEvaluator.holds(assertion.expression, in: stream.scope)
        } catch {
          let key = isKeyed ? " of key \(PredicateExpression.text(of: stream.scope.key))" : ""
          self.error = .failure(
            "cannot evaluate the final assertion '\(assertion.text)' on the last state\(key): "
              + "\(error)")
          return
        }
        if holds { continue }
        violationCount += 1
        guard violations.count < maximumFailures else { continue }
        violations.append(
          AssertionViolation(
            assertion: assertion.text, isFinal: true, seq: stream.lastSeq,
            file: stream.lastInput.map { inputNames[$0] }, line: stream.lastLine,
            key: isKeyed ? stream.scope.key : nil, event: nil,
            paths: Self.pathValues(of: assertion, in: stream.scope, isFinal: true)))
      }
    }
  }
}
