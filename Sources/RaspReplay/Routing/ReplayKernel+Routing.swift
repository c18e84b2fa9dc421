import Rasp
import RaspDomains
import RaspJSON

/// The kernel's routing stage: an envelope to its domain, or counted as ignored — of a domain
/// left out, of an unknown type, dropped by `--drop`.
extension ReplayKernel {
  /// Handles an envelope not decoded ahead: routes it, or counts it as ignored.
  @inline(__always)
  mutating func handle<Streams: StreamStage>(
    _ envelope: Envelope, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter,
    streams: Streams.Type
  ) -> ReplayOutcome? {
    if let routed = router.route(envelope) {
      return apply(routed, item: item, writer: &writer, streams: streams)
    }
    if hasListeners {
      let targets = listeners.targets(ofTypeNamed: router.typeName(of: envelope))
      if let first = targets.first {
        let routed = SnapshotState.Event(
          envelope: envelope, domainIndex: first.domain, eventIndex: first.event)
        return apply(routed, item: item, writer: &writer, streams: streams, listened: targets)
      }
    }
    return handleUnrouted(envelope, item: item.pointee, writer: &writer, streams: streams)
  }

  /// Handles an envelope of a type no domain here defines: a bad line if its payload is, or
  /// under `--strict`; otherwise counted as ignored.
  @inline(never)
  mutating func handleUnrouted<Streams: StreamStage>(
    _ envelope: Envelope, item: ReplayItem, writer: inout JSONWriter, streams: Streams.Type
  ) -> ReplayOutcome? {
    if case .notJSON(let outcome) = checkPayload(
      of: envelope, item: item, writer: &writer, streams: streams)
    {
      return outcome
    }
    if excludedRouter.route(envelope) != nil {
      statistics.otherDomain += 1
      return ignoring(
        item,
        "an event of the type '\(excludedRouter.typeName(of: envelope))', of a domain "
          + "left out by --domain")
    } else if configuration.isStrict {
      let type = router.typeName(of: envelope)
      let error = RaspEventError(
        offset: envelope.typeOffset, reason: .unknownType(type, nearest: nearestType(to: type)))
      return reject(error, item: item)
    } else {
      statistics.unknownType += 1
      if statistics.firstUnknown == nil {
        if let base = part?.ordinalBase, let index = part?.itemIndex {
          part?.firstUnknown = base + index
        }
        let type = router.typeName(of: envelope)
        statistics.firstUnknown = ReplayStatistics.UnknownType(
          type: type, inputName: inputNames[item.input], line: item.lineNumber,
          nearest: nearestType(to: type))
      }
      return ignoring(item, "an event of unknown type '\(router.typeName(of: envelope))'")
    }
  }

  /// The type of a known domain nearest to an unknown `type`, for its message.
  func nearestType(to type: String) -> String? {
    RaspSpelling.nearestType(
      to: type, among: configuration.domains + configuration.excludedDomains)
  }

  /// ``ReplayOutcome/ignored(_:)`` for a line not applied, when the configuration asks for
  /// them (`reason` is only made then); `nil` otherwise.
  func ignoring(_ item: ReplayItem, _ reason: @autoclosure () -> String) -> ReplayOutcome? {
    guard configuration.reportsIgnoredLines else { return nil }
    return .ignored(
      ReplayDiagnostic(
        input: item.input, inputName: inputNames[item.input], line: item.lineNumber, column: 1,
        reason: reason()))
  }

  /// Whether `--drop` matches the routed event's type.
  @inline(never)
  func isDropped(_ routed: SnapshotState.Event) -> Bool {
    typeFilter?.action(domain: routed.domainIndex, event: routed.eventIndex) == .drop
  }

  /// Whether `--hide` matches the routed event's type.
  @inline(never)
  func isHidden(_ routed: SnapshotState.Event) -> Bool {
    typeFilter?.action(domain: routed.domainIndex, event: routed.eventIndex) == .hide
  }

  /// What checking an undecoded payload found (``checkPayload(of:item:writer:)``).
  enum PayloadCheck {
    /// The payload is JSON.
    case json
    /// It is not: the outcome of its line, read again or refused.
    case notJSON(ReplayOutcome?)
  }

  /// Checks that the payload of an event no domain decodes is JSON: if not, its line is read
  /// again when its payload's end was assumed, and is a bad line otherwise.
  mutating func checkPayload<Streams: StreamStage>(
    of envelope: Envelope, item: ReplayItem, writer: inout JSONWriter, streams: Streams.Type
  ) -> PayloadCheck {
    do {
      try envelope.checkPayload()
      return .json
    } catch {
      return .notJSON(
        envelope.isPayloadEndAssumed
          ? handleAgain(item, writer: &writer, streams: streams)
          : reject(router.namingPayload(in: error, of: envelope), item: item))
    }
  }

  /// Counts an event `--drop` matches, not applied and not decoded: a bad line if its payload
  /// is not JSON, as for an event of a domain left out.
  @inline(never)
  mutating func drop<Streams: StreamStage>(
    _ routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter,
    streams: Streams.Type
  ) -> ReplayOutcome? {
    let envelope = routed.envelope
    if case .notJSON(let outcome) = checkPayload(
      of: envelope, item: item.pointee, writer: &writer, streams: streams)
    {
      return outcome
    }
    statistics.droppedByOption += 1
    return ignoring(
      item.pointee, "an event of the type '\(router.typeName(of: envelope))', dropped by --drop")
  }

  /// Counts an event of a domain the output does not show (``DomainDemand``) as applied, with
  /// its number, key and record, but neither decoded nor applied: a bad line only if its
  /// payload is not JSON, as for an event `--drop` matches (unless the reading thread
  /// checked it: `isPayloadChecked`).
  @inline(never)
  mutating func passOver<Streams: StreamStage>(
    _ routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter,
    streams: Streams.Type, isPayloadChecked: Bool = false
  ) -> ReplayOutcome? {
    if !isPayloadChecked,
      case .notJSON(let outcome) = checkPayload(
        of: routed.envelope, item: item.pointee, writer: &writer, streams: streams)
    {
      return outcome
    }
    if case .handled(let outcome) = Streams.select(
      for: routed, item: item, writer: &writer, in: &self)
    {
      return outcome
    }
    if hasListeners, !otherDomains.isEmpty { otherDomains.removeAll(keepingCapacity: true) }
    statistics.applied += 1
    statistics.passedOver += 1
    seq += 1
    stream.lastSeq = .known(seq)
    stream.lastInput = item.pointee.input
    stream.lastLine = item.pointee.lineNumber
    Streams.notePassedOver(in: &self)
    // Counted by the observer, which reads nothing of its domain.
    if isObserved { notifyObserver(routed, item: item, streams: streams) }
    return record(routed, item: item, writer: &writer, streams: streams)
  }

  /// Applies an event to its own domain, when it has one (`own`), and to the events of other
  /// domains that stand for its type (``TypeListeners``), in the order of the domains, all or
  /// nothing; notes the other domains it changed (``otherDomains``, until the next event).
  ///
  /// - Returns: `.selected` once applied, for ``apply(_:item:writer:streams:listened:)`` to
  ///   write its record; `.handled` with the outcome of a line refused or read again.
  @inline(never)
  mutating func applyAll<Streams: StreamStage>(
    _ own: SnapshotState.Event?, envelope: Envelope, _ targets: [TypeListeners.Target],
    item: UnsafePointer<ReplayItem>, writer: inout JSONWriter, streams: Streams.Type
  ) -> StreamChoice {
    otherDomains.removeAll(keepingCapacity: true)
    var events: [SnapshotState.Event] = []
    events.reserveCapacity(targets.count + 1)
    var pending = own
    for target in targets {
      if let waiting = pending, waiting.domainIndex <= target.domain {
        events.append(waiting)
        pending = nil
      }
      events.append(
        SnapshotState.Event(
          envelope: envelope, domainIndex: target.domain, eventIndex: target.event))
    }
    if let pending { events.append(pending) }
    let first = own ?? events[0]
    if case .handled(let outcome) = Streams.select(
      for: first, item: item, writer: &writer, in: &self)
    {
      return .handled(outcome)
    }
    let outcome = stream.pipeline.send(composite: events)
    if let failure = outcome.failure {
      Streams.noteRefused(in: &self)
      let refusing = events[min(failure.index, events.count - 1)]
      var error = failure.underlying
      if refusing.domainIndex != own?.domainIndex, let eventError = error as? RaspEventError,
        !envelope.isPayloadEndAssumed
      {
        // Which domain refused it, when it is not the event's own.
        let name = stream.pipeline.current.domainName(at: refusing.domainIndex)
        error = RaspEventError(
          offset: eventError.offset,
          reason: .rejected(
            "by '\(name)', which listens to '\(router.typeName(of: envelope))': "
              + Self.withoutPrefix(eventError)))
      }
      return .handled(
        handleFailure(error, of: refusing, item: item.pointee, writer: &writer, streams: streams))
    }
    for event in events {
      stream.text.markChanged(event.domainIndex)
      if event.domainIndex != first.domainIndex { otherDomains.append(event.domainIndex) }
    }
    return .selected
  }

  /// An event error's text without the "event rejected: " its description starts with.
  private static func withoutPrefix(_ error: RaspEventError) -> String {
    let text = error.description
    let prefix = "event rejected: "
    return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
  }
}
