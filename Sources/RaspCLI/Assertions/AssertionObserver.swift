import RaspDomains
import RaspJSON
import RaspReplay

/// Checks assertions against the state after every event, as the replay applies it: the
/// engine of `rasp check --assert`.
///
/// The observer keeps, for each key (one stream without `--key-by`), the value of each
/// domain an assertion reads, read again only when an event changed that domain: a member
/// read alone (`.geo.heading`) from the domain's typed state where the domain can
/// (``RaspDomains/RaspMemberReading``), otherwise from the domain's JSON, as is a domain read
/// whole; the state is never written out whole and read back. After an event, it evaluates
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
  /// A member read alone (`.geo.heading`), with the slot that holds its value.
  private struct MemberSlot {
    /// Where its value is, in ``PredicateScope/currentMembers`` and `previousMembers`.
    let slot: Int
    /// The domain's handle on it, to read it from the typed state; `nil` when the domain
    /// cannot.
    let member: RaspStateMember?
    /// Its path in the domain's JSON, to find it there when the domain cannot.
    let path: JSONPath
  }

  /// What the observer knows of one key's states: a class, changed in place where the
  /// streams keep it, without a copy of its arrays per event.
  private final class Stream {
    @exclusivity(unchecked) var scope: PredicateScope
    /// Whether each assertion was false after the last event that evaluated it.
    @exclusivity(unchecked) var failing: [Bool]
    /// Whether each assertion was evaluated on this stream yet.
    @exclusivity(unchecked) var evaluated: [Bool]
    @exclusivity(unchecked) var lastSeq: Int?
    @exclusivity(unchecked) var lastInput: Int?
    @exclusivity(unchecked) var lastLine: Int?

    init(scope: PredicateScope, assertionCount: Int) {
      self.scope = scope
      failing = Array(repeating: false, count: assertionCount)
      evaluated = failing
    }
  }

  private let assertions: [Assertion]
  /// The assertions' expressions, their members bound to slots, compiled, by position.
  private let expressions: [PredicateProgram]
  private let finalAssertions: [Assertion]
  /// The final assertions' expressions, their members bound to slots, compiled.
  private let finalExpressions: [PredicateProgram]
  /// Each assertion's paths (the checked ones, then the final ones): as written, and bound
  /// after and before the event.
  private let paths: [[(text: String, after: PredicateExpression, before: PredicateExpression)]]
  private let names: [String]
  private let inputNames: [String]
  /// Whether an assertion (of either kind) reads the domain at each position.
  private let isRead: [Bool]
  /// `dependsOn[domain]`: the positions of the assertions to evaluate after its events.
  private let dependsOn: [[Int]]
  /// Whether each assertion's value is a function of the members it reads alone (no
  /// `$event`, no `$prev`, no domain read whole): then, after an event that left each of
  /// those members as it was, it has the value it had and is not evaluated again (a
  /// `geo.location` event for `.geo.heading < 360`). `false` for all under `rasp find --every`,
  /// which reports every event after which one is false.
  private let isReusable: [Bool]
  /// Whether the assertion at `a` reads the domain at `d`, at `a * domainCount + d`.
  private let readsDomain: [Bool]
  /// Whether the last refresh of each domain left every member read of it as it was, as far
  /// as a comparison of numbers, strings, Booleans and `null` tells.
  @exclusivity(unchecked) private var isUnchanged: [Bool]
  /// Each domain's initial value, parsed for those read whole.
  private let initialValues: [JSONValue]
  /// The initial values of the members read member by member, by slot.
  private let initialMembers: [JSONValue]
  /// For each domain read only member by member (`.geo.heading`), the slots of those members,
  /// each with the domain's handle on it to read it from the typed state or, where the domain
  /// has none, its path to find it in the domain's JSON; `nil` for a domain read whole.
  private let memberSlots: [[MemberSlot]?]
  /// The room each changed domain is encoded in, kept from one event to the next.
  @exclusivity(unchecked) private var writer = JSONWriter()
  private let readsEvent: Bool
  private let readsKey: Bool
  /// Whether an assertion reads `$prev`: then, after each event, the state before the next is
  /// made the one after it for every domain the event changed (``settle(_:scope:)``). When
  /// none does, a domain's value before its event is what its refresh moves out of the way
  /// (swapped, not copied), and the others', which the event left as they were, are made
  /// right only for a violation's report (``settledBefore(_:in:)``).
  private let readsPrevious: Bool
  private let maximumFailures: Int
  /// Whether every event after which an assertion is false is a violation, not only the
  /// first of a run of them (`rasp find --every`).
  private let reportsEvery: Bool
  /// Whether a violation keeps the whole state after its event (`rasp find --with-state`).
  private let keepsState: Bool
  /// Whether the replay ends once ``maximumFailures`` violations were found
  /// (`rasp find --first`).
  private let stopsAtLimit: Bool
  /// Whether ``appliedLines`` is kept (`rasp check --applied-lines`).
  let recordsAppliedLines: Bool
  /// The lines whose events were applied, as runs, by input position.
  @exclusivity(unchecked) private var appliedRuns: [[ClosedRange<Int>]] = []
  /// The streams, key `n` at `n + 1`.
  @exclusivity(unchecked) private var streams: [Stream?] = []
  /// The violations, at most ``maximumFailures``, in the order they happened.
  // Unchecked, as the other state read on each event's path: the optimiser moves the check of
  // its count for a report out of the loop over the assertions due, before each event's.
  @exclusivity(unchecked) private(set) var violations: [AssertionViolation] = []
  /// How many violations there were, reported or not.
  @exclusivity(unchecked) private(set) var violationCount = 0
  /// The first assertion that could not be evaluated, with its event; nothing is checked
  /// after it.
  @exclusivity(unchecked) private(set) var error: RaspCommandError?
  /// How many events the observer was told of.
  @exclusivity(unchecked) private var observedEvents = 0
  /// The domains whose events the kernel tells the observer of: those an assertion reads or
  /// must be evaluated again after (all of them for one that reads `$event`, `$key`, `$prev`
  /// or the whole state); `nil`, every event, when there are final assertions (which report
  /// the last event of each key) or the applied lines are recorded.
  let observedDomains: ReplayObservedDomains?
  /// How many events were applied: those told of, and those of domains nothing reads.
  var events: Int { observedEvents + (observedDomains?.passedOver ?? 0) }
  /// Whether the replay may end: ``maximumFailures`` violations were found, and the observer
  /// stops there.
  var isFinished: Bool { stopsAtLimit && violations.count >= maximumFailures }
  /// How many assertions there are of both kinds.
  var assertionCount: Int { assertions.count + finalAssertions.count }

  /// An observer of `assertions` over a replay of `domains`.
  ///
  /// - Parameters:
  ///   - assertions: The assertions, of both kinds.
  ///   - domains: The replay's domains.
  ///   - inputNames: The inputs' names, as reports show them.
  ///   - maximumFailures: How many violations to keep for the report.
  ///   - reportsEvery: Whether each event after which an assertion is false is a violation.
  ///   - keepsState: Whether a violation keeps the state after its event.
  ///   - stopsAtLimit: Whether the replay ends at the `maximumFailures`th violation.
  ///   - recordsAppliedLines: Whether to keep the lines whose events were applied.
  init(
    assertions: [Assertion], domains: [any RaspDomain], inputNames: [String],
    maximumFailures: Int, reportsEvery: Bool = false, keepsState: Bool = false,
    stopsAtLimit: Bool = false, recordsAppliedLines: Bool = false
  ) {
    self.recordsAppliedLines = recordsAppliedLines
    self.reportsEvery = reportsEvery
    self.keepsState = keepsState
    self.stopsAtLimit = stopsAtLimit
    let checked = assertions.filter { !$0.isFinal }
    let finals = assertions.filter(\.isFinal)
    self.assertions = checked
    finalAssertions = finals
    let initial = SnapshotState(domains: domains)
    names = initial.domainNames
    self.inputNames = inputNames
    let readsAll = assertions.contains { $0.reads.readsWholeState }
    let isRead = names.indices.map { index in
      readsAll || assertions.contains { $0.reads.domains.contains(index) }
    }
    self.isRead = isRead
    let dependsOn = names.indices.map { index in
      checked.indices.filter { reportsEvery || checked[$0].dependsOnEvent(ofDomainAt: index) }
    }
    self.dependsOn = dependsOn
    let members = PredicateReads.membersRead(by: assertions.map(\.expression))
    var slots: [String: Int] = [:]
    var memberSlots: [[MemberSlot]?] = []
    for index in names.indices {
      guard !readsAll, case .some(.some(let read)) = members[index] else {
        memberSlots.append(nil)
        continue
      }
      memberSlots.append(
        read.sorted().map { name in
          let slot = slots.count
          slots["\(index).\(name)"] = slot
          return MemberSlot(
            slot: slot, member: initial.member(named: name, ofDomainAt: index),
            path: JSONPath(components: [.key(name)]))
        })
    }
    self.memberSlots = memberSlots
    isReusable = checked.map { assertion in
      let reads = assertion.reads
      return !reportsEvery && !reads.readsWholeState && !reads.readsEvent
        && !reads.readsPrevious && reads.domains.allSatisfy { memberSlots[$0] != nil }
    }
    let domainCount = initial.domainCount
    readsDomain = checked.flatMap { assertion in
      (0..<domainCount).map { assertion.reads.domains.contains($0) }
    }
    isUnchanged = Array(repeating: false, count: domainCount)
    let slotOf: (Int, String) -> Int? = { slots["\($0).\($1)"] }
    expressions = checked.map { PredicateProgram($0.expression.bindingMembers(slotOf)) }
    finalExpressions = finals.map { PredicateProgram($0.expression.bindingMembers(slotOf)) }
    paths = (checked + finals).map { assertion in
      assertion.paths.map { path in
        (
          path.description, path.bindingMembers(slotOf),
          path.readingPrevious.bindingMembers(slotOf)
        )
      }
    }
    var scope = PredicateScope(names: names)
    scope.currentMembers = Array(repeating: .null, count: slots.count)
    var writer = JSONWriter()
    for index in names.indices where isRead[index] {
      Self.refresh(index, in: initial, scope: &scope, slots: memberSlots[index], writer: &writer)
    }
    initialValues = scope.current
    initialMembers = scope.currentMembers
    readsEvent = assertions.contains { $0.reads.readsEvent }
    readsKey = assertions.contains { $0.reads.readsKey }
    readsPrevious = assertions.contains { $0.reads.readsPrevious }
    self.maximumFailures = maximumFailures
    // Told of every event for the final assertions' streams and the applied lines; of those
    // that can change an assertion otherwise. The states of the domains read are all it
    // reads, but for `find --with-state`.
    observedDomains = ReplayObservedDomains(
      observes: dependsOn.indices.map {
        !finals.isEmpty || recordsAppliedLines || isRead[$0] || !dependsOn[$0].isEmpty
      },
      statesRead: keepsState ? nil : isRead)
  }

  private static func parse(_ bytes: ArraySlice<UInt8>) -> JSONValue {
    bytes.withUnsafeBufferPointer { (try? JSONParser.parse($0)) ?? .null }
  }

  /// Reads the domain at `index` of `state` into `scope`: whole, or only the members the
  /// assertions read, into their slots, each read from the typed state or, where the domain
  /// cannot, found in the domain's JSON and parsed alone. The domain is encoded only when it
  /// is read whole or a member must be read from its JSON.
  ///
  /// - Parameters:
  ///   - index: The domain's position.
  ///   - state: The state after the event.
  ///   - scope: The scope to read it into.
  ///   - slots: The domain's members read alone, or `nil` when it is read whole.
  ///   - writer: Room to encode the domain in.
  ///   - swapping: Whether the values read before are moved to the scope's values before the
  ///     event (``PredicateScope/previousMembers``), rather than dropped.
  /// - Returns: Whether each member read is a scalar that is as it was (``isSameScalar(_:_:)``);
  ///   `false` for a domain read whole or from its JSON.
  @discardableResult
  private static func refresh(
    _ index: Int, in state: SnapshotState, scope: inout PredicateScope,
    slots: [MemberSlot]?, writer: inout JSONWriter, swapping: Bool = false
  ) -> Bool {
    var readsJSON = slots == nil
    var isUnchanged = true
    if let slots {
      for position in slots.indices {
        guard let member = slots[position].member else {
          readsJSON = true
          continue
        }
        let slot = slots[position].slot
        if swapping {
          scope.shiftMember(at: slot) { state.read(member, ofDomainAt: index, into: &$0) }
          if isUnchanged {
            isUnchanged = isSameScalar(scope.currentMembers[slot], scope.previousMembers[slot])
          }
        } else {
          let value = state.value(of: member, ofDomainAt: index)
          if isUnchanged { isUnchanged = isSameScalar(value, scope.currentMembers[slot]) }
          scope.currentMembers[slot] = value
        }
      }
    }
    guard readsJSON else { return isUnchanged }
    writer.removeAll()
    state.encodeState(ofDomainAt: index, into: &writer)
    writer.bytes.withUnsafeBufferPointer { buffer in
      guard let slots else {
        if swapping { swap(&scope.previous[index], &scope.current[index]) }
        scope.current[index] = (try? JSONParser.parse(buffer)) ?? .null
        return
      }
      for slot in slots where slot.member == nil {
        if swapping { swap(&scope.previousMembers[slot.slot], &scope.currentMembers[slot.slot]) }
        guard case .value(let range)? = try? slot.path.locate(in: buffer) else {
          scope.currentMembers[slot.slot] = .null
          continue
        }
        scope.currentMembers[slot.slot] =
          (try? JSONParser.parse(UnsafeBufferPointer(rebasing: buffer[range]))) ?? .null
      }
    }
    return false
  }

  /// Whether two values are the same number, string, Boolean or `null`, in every way an
  /// expression can tell (`1` is not `1.0`): cheap enough to spare an evaluation, where
  /// comparing arrays and objects would cost about as much as the evaluation.
  private static func isSameScalar(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.string, .string): return a == b
    case (.number(let x), .number(let y)):
      guard x.isInteger == y.isInteger else { return false }
      return x.isInteger
        ? x.exactInteger == y.exactInteger
        : x.doubleValue.bitPattern == y.doubleValue.bitPattern
    default: return false
    }
  }

  /// Makes the state before the next event the one after this event, for the domain at
  /// `index`.
  private func settle(_ index: Int, scope: inout PredicateScope) {
    guard let slots = memberSlots[index] else {
      scope.previous[index] = scope.current[index]
      return
    }
    for member in slots {
      scope.previousMembers[member.slot] = scope.currentMembers[member.slot]
    }
  }

  /// A key's first stream: the initial values, but the domains read from its state that its
  /// first event did not change (a resumed replay's keys do not start from the initial state).
  private func makeStream(_ event: ReplayAppliedEvent) -> Stream {
    var scope = PredicateScope(names: names)
    scope.current = initialValues
    scope.currentMembers = initialMembers
    for index in names.indices where isRead[index] && !event.changed(index) {
      Self.refresh(
        index, in: event.state, scope: &scope, slots: memberSlots[index], writer: &writer)
    }
    scope.previous = scope.current
    scope.previousMembers = scope.currentMembers
    if let key = event.key { scope.key = Self.parse(key) }
    return Stream(scope: scope, assertionCount: assertions.count)
  }

  /// A key's stream from the state a checkpoint restored: the state before its next event.
  func restored(
    _ state: SnapshotState, keyNumber: Int, key: ArraySlice<UInt8>?,
    last: (seq: Int, input: Int, line: Int)?
  ) {
    guard isRead.contains(true) || !finalAssertions.isEmpty else { return }
    let slot = keyNumber + 1
    if slot >= streams.count {
      streams.append(contentsOf: repeatElement(nil, count: slot + 1 - streams.count))
    }
    var scope = PredicateScope(names: names)
    scope.current = initialValues
    scope.currentMembers = initialMembers
    for index in names.indices where isRead[index] {
      Self.refresh(index, in: state, scope: &scope, slots: memberSlots[index], writer: &writer)
    }
    scope.previous = scope.current
    scope.previousMembers = scope.currentMembers
    if let key { scope.key = Self.parse(key) }
    let stream = Stream(scope: scope, assertionCount: assertions.count)
    stream.lastSeq = last?.seq
    stream.lastInput = last?.input
    stream.lastLine = last?.line
    streams[slot] = stream
  }

  /// The lines whose events were applied, for each input in order, as runs of consecutive
  /// lines in ascending order (`[1...3, 5...9]`); empty unless the observer was made to
  /// record them.
  var appliedLines: [(file: String, runs: [ClosedRange<Int>])] {
    guard recordsAppliedLines else { return [] }
    return inputNames.indices.map { input in
      let runs = input < appliedRuns.count ? appliedRuns[input] : []
      var merged: [ClosedRange<Int>] = []
      for run in runs.sorted(by: { $0.lowerBound < $1.lowerBound }) {
        if let last = merged.last, run.lowerBound <= last.upperBound + 1 {
          merged[merged.count - 1] = last.lowerBound...max(last.upperBound, run.upperBound)
        } else {
          merged.append(run)
        }
      }
      return (inputNames[input], merged)
    }
  }

  /// Adds the line of `event` to ``appliedRuns``: to the last run of its input when it
  /// follows it (or is in it, for a line of several events).
  private func recordApplied(_ event: ReplayAppliedEvent) {
    if event.input >= appliedRuns.count {
      appliedRuns.append(contentsOf: repeatElement([], count: event.input + 1 - appliedRuns.count))
    }
    if let last = appliedRuns[event.input].last,
      (last.lowerBound...last.upperBound + 1).contains(event.line)
    {
      appliedRuns[event.input][appliedRuns[event.input].count - 1] =
        last.lowerBound...max(last.upperBound, event.line)
    } else {
      appliedRuns[event.input].append(event.line...event.line)
    }
  }

  func observe(_ event: ReplayAppliedEvent, eventAsRead: () -> [UInt8]) {
    observedEvents += 1
    if recordsAppliedLines { recordApplied(event) }
    // Nothing read changed, and no assertion is due: not even the key's stream is needed (the
    // kernel does not tell of such an event when ``observedDomains`` says so).
    let changed = event.domainIndex
    if finalAssertions.isEmpty, !isRead[changed], dependsOn[changed].isEmpty,
      event.otherDomains.allSatisfy({ !isRead[$0] && dependsOn[$0].isEmpty })
    {
      return
    }
    guard error == nil else { return }
    let slot = event.keyNumber + 1
    if slot >= streams.count {
      streams.append(contentsOf: repeatElement(nil, count: slot + 1 - streams.count))
    }
    let stream: Stream
    if let known = streams[slot] {
      stream = known
    } else {
      stream = makeStream(event)
      streams[slot] = stream
    }
    // Read, changed and evaluated in place in the stream, not copied.
    check(event, of: stream, in: &stream.scope, eventAsRead: eventAsRead)
  }

  /// Reads what `event` changed into the scope of its key's stream and evaluates the
  /// assertions due after it.
  private func check(
    _ event: ReplayAppliedEvent, of stream: Stream, in scope: inout PredicateScope,
    eventAsRead: () -> [UInt8]
  ) {
    let changed = event.domainIndex
    stream.lastSeq = event.seq
    stream.lastInput = event.input
    stream.lastLine = event.line
    let swapping = !readsPrevious
    if isRead[changed] {
      isUnchanged[changed] = Self.refresh(
        changed, in: event.state, scope: &scope, slots: memberSlots[changed],
        writer: &writer, swapping: swapping)
    }
    for other in event.otherDomains where isRead[other] {
      isUnchanged[other] = Self.refresh(
        other, in: event.state, scope: &scope, slots: memberSlots[other], writer: &writer,
        swapping: swapping)
    }
    defer {
      if readsPrevious {
        if isRead[changed] { settle(changed, scope: &scope) }
        for other in event.otherDomains where isRead[other] { settle(other, scope: &scope) }
      }
    }
    // The assertions that read a domain it changed, each once, in their order.
    let due =
      event.otherDomains.isEmpty
      ? dependsOn[changed]
      : Array(Set(event.changedDomains.flatMap { dependsOn[$0] })).sorted()
    if due.isEmpty { return }
    // The event as read, parsed once when an assertion reads it or a violation shows it.
    var asRead: JSONValue?
    if readsEvent {
      var object = JSONObject()
      let value = Self.parse(eventAsRead()[...])
      asRead = value
      if case .object(let read) = value { object = read }
      object["file"] = .string(inputNames[event.input])
      object["line"] = .number(JSONNumber(event.line))
      object["seq"] = .number(JSONNumber(event.seq))
      scope.event = .object(object)
    }
    for index in due {
      // Nothing it reads changed since it was evaluated: it holds, or not, as it did then.
      if stream.evaluated[index], isReusable[index], event.otherDomains.isEmpty,
        isUnchanged[changed] || !readsDomain[index * isUnchanged.count + changed]
      {
        continue
      }
      stream.evaluated[index] = true
      let holds: Bool
      do {
        holds = try expressions[index].holds(in: scope)
      } catch {
        let assertion = assertions[index]
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
      if stream.failing[index], !reportsEvery { continue }
      stream.failing[index] = true
      violationCount += 1
      guard violations.count < maximumFailures else { continue }
      let assertion = assertions[index]
      let eventValue = asRead ?? Self.parse(eventAsRead()[...])
      asRead = eventValue
      violations.append(
        AssertionViolation(
          assertion: assertion.text, isFinal: false, seq: event.seq,
          file: inputNames[event.input], line: event.line,
          key: event.key == nil ? JSONValue?.none : scope.key, event: eventValue,
          paths: pathValues(of: index, in: settledBefore(event, in: scope), isFinal: false),
          state: keepsState ? Self.parse(event.state.json()[...]) : JSONValue?.none))
    }
  }

  /// `scope` with the values before `event` of the domains it did not change made the ones
  /// after it, as they are when no assertion reads `$prev` (``readsPrevious``).
  private func settledBefore(_ event: ReplayAppliedEvent, in scope: PredicateScope)
    -> PredicateScope
  {
    guard !readsPrevious else { return scope }
    var settled = scope
    for index in names.indices where isRead[index] && !event.changed(index) {
      settle(index, scope: &settled)
    }
    return settled
  }

  /// The values of the paths the assertion at `index` of ``paths`` reads, before and after
  /// the event.
  private func pathValues(of index: Int, in scope: PredicateScope, isFinal: Bool)
    -> [AssertionViolation.PathValues]
  {
    paths[index].map { path in
      AssertionViolation.PathValues(
        path: path.text,
        before: isFinal ? nil : try? PredicateEvaluator.evaluate(path.before, in: scope),
        after: try? PredicateEvaluator.evaluate(path.after, in: scope))
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
      scope.currentMembers = initialMembers
      scope.previousMembers = initialMembers
      finals = [Stream(scope: scope, assertionCount: 0)]
    }
    finals.sort { PredicateOrder.order($0.scope.key, $1.scope.key) < 0 }
    for stream in finals {
      stream.scope.previous = stream.scope.current
      stream.scope.previousMembers = stream.scope.currentMembers
      stream.scope.event = .null
      for (finalIndex, assertion) in finalAssertions.enumerated() {
        let holds: Bool
        do {
          holds = try finalExpressions[finalIndex].holds(in: stream.scope)
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
            key: isKeyed ? stream.scope.key : JSONValue?.none, event: nil,
            paths: pathValues(
              of: assertions.count + finalIndex, in: stream.scope, isFinal: true)))
      }
    }
  }
}
