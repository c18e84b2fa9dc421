import Rasp
import RaspDomains
import RaspJSON

extension ReplayKernel {
  /// Makes the kernel's stages from the configuration: the router and what it leaves out, the
  /// checks, the range, the selection, the demand, the diff's first values, the streams and
  /// the keys, and which of the stages each event passes through.
  ///
  /// - Parameters:
  ///   - configuration: The replay's options.
  ///   - inputNames: The inputs' names, for diagnostics and `--with-event`.
  ///   - types: The log format's table of foreign types, when the log has one.
  ///   - part: The share of the keys, for a kernel of a ``KernelPool``.
  init(
    configuration: ReplayConfiguration, inputNames: [String], types: TypeTable?,
    part: KernelPart? = nil
  ) {
    self.configuration = configuration
    self.part = part
    isPart = part != nil
    self.inputNames = inputNames
    let snapshot = SnapshotState(domains: configuration.domains)
    var stream = ReplayStream(pipeline: RaspPipeline(initial: snapshot))
    router = snapshot.router.mapping(with: types)
    excludedRouter = SnapshotState(domains: configuration.excludedDomains).router
      .mapping(with: types)
    payloadFields = PayloadFieldCheck(configuration, typeNames: router.typeNames)
    listeners = TypeListeners(domains: snapshot.listeningDomains, typeNames: router.typeNames)
    hasListeners = !listeners.isEmpty
    badLines = BadLineReport(format: configuration.format, inputNames: inputNames)
    recordWriter = RecordWriter(
      includesEvent: configuration.includesEvent, changesOnly: configuration.changesOnly,
      inputNames: inputNames)
    typeFilter = TypeFilter(
      dropping: configuration.droppedTypes.map(TypeGlob.init),
      hiding: configuration.hiddenTypes.map(TypeGlob.init), typeNames: router.typeNames)
    range = ReplayRange(since: configuration.since, until: configuration.at ?? configuration.until)
    hasRange = range != nil
    filtersTypes = typeFilter != nil
    hidesTypes = typeFilter?.hidesSome ?? false
    selection = ReplaySelection(configuration.selection, snapshot: snapshot)
    demand = DomainDemand(
      configuration, selection: selection, listeners: listeners,
      domainCount: snapshot.domainCount)
    passesOver = !demand.needsEvery
    statistics.passesOverForObserver = demand.isForObserver
    if selection != nil { stream.selector = RaspSelector { (value: [UInt8]) in value } }
    if configuration.emit == .diff {
      var initial = SnapshotText(snapshot)
      var spare = JSONWriter()
      if let selection {
        stream.differ = RecordDiffer(
          initialValue: selection.initialValue(text: &initial, snapshot, spare: &spare))
      } else {
        stream.differ = RecordDiffer(
          initialDomains: snapshot.domainNames.indices.map {
            initial.domain(at: $0, of: snapshot, spare: &spare)
          },
          names: snapshot.domainNames)
      }
    }
    if configuration.keyPath != nil {
      // Each key's stream starts as a copy of this one: with its text made here, once, and
      // shared until a key changes it, a new key's first record encodes only the domain its
      // event changed, not every domain, and allocates no text of its own from scratch.
      stream.text = SnapshotText(snapshot)
    }
    initialStream = stream
    streams = ReplayStreams(first: stream)
    streamPointer = streams.pointer(to: 0)
    keys = configuration.keyPath.map { ReplayKeys(path: $0) }
    isKeyed = configuration.keyPath != nil
    keepsLastEvent =
      (configuration.checkpointInterval != nil || configuration.checkpointsAtEnd)
      && !configuration.isFinal
    isObserved = configuration.stateObserver != nil
    observedDomains = configuration.stateObserver?.observedDomains
    eventRecord = EventRecord(
      configuration, hidesTypes: hidesTypes, hasRange: hasRange, selection: selection)
  }
}
