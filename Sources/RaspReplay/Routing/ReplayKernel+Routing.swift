import Rasp
import RaspDomains
import RaspJSON

/// The kernel's routing stage: an envelope to its domain, or counted as ignored — of a domain
/// left out, of an unknown type, dropped by `--drop`.
extension ReplayKernel {
  /// Handles an envelope not decoded ahead: routes it, or counts it as ignored.
  @inline(__always)
  mutating func handle(
    _ envelope: Envelope, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter
  ) -> ReplayOutcome? {
    if let routed = router.route(envelope) {
      return apply(routed, item: item, writer: &writer)
    }
    return handleUnrouted(envelope, item: item.pointee, writer: &writer)
  }

  /// Handles an envelope of a type no domain here defines: a bad line if its payload is, or
  /// under `--strict`; otherwise counted as ignored.
  @inline(never)
  mutating func handleUnrouted(
    _ envelope: Envelope, item: ReplayItem, writer: inout JSONWriter
  ) -> ReplayOutcome? {
    do {
      try envelope.checkPayload()
    } catch {
      return envelope.isPayloadEndAssumed
        ? handleAgain(item, writer: &writer)
        : reject(router.namingPayload(in: error, of: envelope), item: item)
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

  /// Counts an event `--drop` matches, not applied and not decoded: a bad line if its payload
  /// is not JSON, as for an event of a domain left out.
  @inline(never)
  mutating func drop(
    _ routed: SnapshotState.Event, item: UnsafePointer<ReplayItem>, writer: inout JSONWriter
  ) -> ReplayOutcome? {
    let envelope = routed.envelope
    do {
      try envelope.checkPayload()
    } catch {
      return envelope.isPayloadEndAssumed
        ? handleAgain(item.pointee, writer: &writer)
        : reject(router.namingPayload(in: error, of: envelope), item: item.pointee)
    }
    statistics.droppedByOption += 1
    return ignoring(
      item.pointee, "an event of the type '\(router.typeName(of: envelope))', dropped by --drop")
  }
}
