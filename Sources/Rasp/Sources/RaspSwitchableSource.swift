/// A source that can be pointed at another upstream while its aggregator runs: RaspSwift's
/// `RaspSource` with `jump(to:)`.
///
/// Give its ``source`` to an aggregator, then call ``jump(to:)`` whenever the events should
/// come from elsewhere — a simulated GPS for a real one, a recorded session for the live feed.
/// Only the current upstream's events pass: a jump cancels the iteration of the previous
/// upstream and drops whatever it still had on the way. An upstream that ends leaves the source
/// waiting for the next jump; ``finish()`` ends the source itself. A jump made before anyone
/// listens is not lost: the aggregator starts with the upstream in force when it starts
/// iterating.
///
/// An upstream that throws ends the source with its error, which the aggregator reports as a
/// source failure. Each aggregator that listens iterates the current upstream on its own, as
/// with any ``RaspSource``; and since a jump cancels the previous iteration, jumping back to a
/// single-use sequence such as an `AsyncStream` that was already cancelled gets nothing: make a
/// fresh one for each jump.
///
/// ```swift
/// let position = RaspSwitchableSource<GeoEvent>(name: "position")
/// let aggregator = RaspAggregator(initial: GeoState(), sources: position.source)
/// position.jump(to: RaspSource(simulator.fixes()))
/// // … later, the real GPS is ready:
/// position.jump(to: RaspSource(gps.fixes()))
/// ```
public final class RaspSwitchableSource<Event: Sendable>: Sendable {
  /// The upstream in force and the runs listening to it.
  private let state: RaspMutex<Switch>

  /// The source's name, given to ``source`` for recorders.
  public let name: String?

  /// Creates a switchable source that starts with `upstream`, or waits for a first jump.
  ///
  /// ```swift
  /// let position = RaspSwitchableSource(RaspSource(simulator.fixes()), name: "position")
  /// ```
  ///
  /// - Parameters:
  ///   - upstream: Where the events come from until the first jump; `nil` for nowhere yet.
  ///   - name: The source's name for recorders; `nil` by default.
  public init(_ upstream: RaspSource<Event>? = nil, name: String? = nil) {
    self.state = RaspMutex(Switch(upstream: upstream))
    self.name = name
  }

  /// The source to give to an aggregator (or to several, each listening on its own).
  ///
  /// ```swift
  /// aggregator.addSource(position.source)
  /// ```
  public var source: RaspSource<Event> {
    RaspSource(name: name) { [self] consume in try await listen(consume) }
  }

  /// Points the source at `upstream`: from now on, only its events pass.
  ///
  /// The previous upstream's iteration is cancelled, and none of its events that has not yet
  /// reached an aggregator will. Every aggregator listening starts iterating the new upstream
  /// at once; one that starts listening later starts with it.
  ///
  /// ```swift
  /// position.jump(to: RaspSource(gps.fixes()))
  /// ```
  ///
  /// - Parameter upstream: Where the events come from from now on.
  public func jump(to upstream: RaspSource<Event>) {
    let cancelled = state.withLock { state -> [Task<Void, Never>] in
      guard !state.isFinished else { return [] }
      state.generation += 1
      state.upstream = upstream
      var cancelled: [Task<Void, Never>] = []
      for id in state.listeners.keys {
        guard let listener = state.listeners[id] else { continue }
        if let task = listener.task { cancelled.append(task) }
        state.listeners[id]?.task = start(
          upstream, generation: state.generation, into: listener.continuation)
      }
      return cancelled
    }
    for task in cancelled { task.cancel() }
  }

  /// Ends the source: every aggregator listening stops listening, the current upstream's
  /// iteration is cancelled, and later jumps do nothing.
  ///
  /// ```swift
  /// position.finish()
  /// ```
  public func finish() {
    let listeners = state.withLock { state -> [Listener] in
      state.isFinished = true
      state.upstream = nil
      defer { state.listeners = [:] }
      return Array(state.listeners.values)
    }
    for listener in listeners {
      listener.task?.cancel()
      listener.continuation.finish()
    }
  }

  /// One run of ``source``: registers a listener, starts the upstream in force, and passes on
  /// the events of the current upstream until the run is cancelled or the source finished.
  private func listen(_ consume: (Event) -> Bool) async throws {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: Tagged.self)
    let id = state.withLock { state -> Int? in
      guard !state.isFinished else { return nil }
      state.nextListenerID += 1
      let task = state.upstream.map {
        start($0, generation: state.generation, into: continuation)
      }
      state.listeners[state.nextListenerID] = Listener(continuation: continuation, task: task)
      return state.nextListenerID
    }
    guard let id else { return }
    defer {
      let listener = state.withLock { $0.listeners.removeValue(forKey: id) }
      listener?.task?.cancel()
    }
    for try await tagged in stream {
      guard state.withLock({ $0.generation == tagged.generation }) else { continue }
      if !consume(tagged.event) { return }
    }
  }

  /// Starts iterating `upstream` for one listener, tagging its events with `generation`.
  ///
  /// An upstream that ends leaves the listener waiting for the next jump; one that throws
  /// while still current ends the listener with its error.
  private func start(
    _ upstream: RaspSource<Event>, generation: Int,
    into continuation: AsyncThrowingStream<Tagged, any Error>.Continuation
  ) -> Task<Void, Never> {
    Task { [weak self] in
      do {
        try await upstream.run { event in
          guard !Task.isCancelled else { return false }
          continuation.yield(Tagged(generation: generation, event: event))
          return true
        }
      } catch {
        guard !Task.isCancelled, let self,
          self.state.withLock({ $0.generation == generation })
        else { return }
        continuation.finish(throwing: error)
      }
    }
  }

  /// An event and the generation of the upstream it came from.
  private struct Tagged: Sendable {
    let generation: Int
    let event: Event
  }

  /// One run of ``source``: where its events go, and the task iterating its upstream.
  private struct Listener: Sendable {
    let continuation: AsyncThrowingStream<Tagged, any Error>.Continuation
    var task: Task<Void, Never>?
  }

  /// Everything the lock guards.
  private struct Switch: Sendable {
    var upstream: RaspSource<Event>?
    var generation = 0
    var listeners: [Int: Listener] = [:]
    var nextListenerID = 0
    var isFinished = false
  }
}
