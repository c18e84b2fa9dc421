/// An event source for an aggregator: any `AsyncSequence` of events, throwing or not.
///
/// A source wraps an asynchronous sequence so that sources of different types — an
/// `AsyncStream` of compass readings, an `AsyncThrowingStream` of REST responses, a custom
/// sequence of timer ticks — can be handed to one aggregator together. The aggregator iterates
/// each source in its own task and sends every element as an event; when the sequence throws,
/// the aggregator reports a ``RaspFailure`` naming the source and keeps the others running.
///
/// Iteration stops when the sequence ends, when the aggregator replaces its sources, or when the
/// aggregator is released. Both cancel the source's task, so a sequence that honours task
/// cancellation — `AsyncStream` and `AsyncThrowingStream` do — ends promptly.
///
/// ```swift
/// let (headings, headingInput) = AsyncStream.makeStream(of: GeoEvent.self)
/// let (fixes, fixInput) = AsyncThrowingStream.makeStream(of: GeoEvent.self)
/// let aggregator = RaspAggregator(
///   initial: GeoState(), sources: RaspSource(headings), RaspSource(fixes))
/// headingInput.yield(.heading(90))
/// ```
public struct RaspSource<Event: Sendable>: Sendable {
  /// Iterates the sequence, handing each element to `consume` until it returns `false`.
  @usableFromInline
  let iterate: @Sendable (_ consume: (Event) -> Bool) async throws -> Void

  /// The source's name, such as `gps` or `compass`, or `nil`.
  ///
  /// A recorder writes it as each event's `source` in the log, so that a replay can tell
  /// where each event came from (`rasp replay --with-event`).
  ///
  /// ```swift
  /// RaspSource(fixes, name: "gps").name   // "gps"
  /// ```
  public let name: String?

  /// Wraps an asynchronous sequence of events.
  ///
  /// The sequence must be `Sendable`, because it is iterated in a task of its own.
  ///
  /// ```swift
  /// let source = RaspSource(AsyncStream<CounterState.Event> { continuation in
  ///   continuation.yield(.increment)
  ///   continuation.finish()
  /// })
  /// ```
  ///
  /// - Parameters:
  ///   - sequence: The events, in the order the source produces them.
  ///   - name: The source's name for recorders, such as `gps`; `nil` by default.
  public init<Base: AsyncSequence & Sendable>(_ sequence: Base, name: String? = nil)
  where Base.Element == Event {
    self.name = name
    iterate = { consume in
      for try await event in sequence {
        if !consume(event) { return }
      }
    }
  }

  /// A source that sends the elements of a synchronous sequence, then ends.
  ///
  /// For tests and replays that want the asynchronous path with a fixed input.
  ///
  /// ```swift
  /// let source = RaspSource(events: [CounterState.Event.increment, .increment])
  /// ```
  ///
  /// - Parameters:
  ///   - events: The events to send, in order.
  ///   - name: The source's name for recorders; `nil` by default.
  public init<Events: Sequence & Sendable>(events: Events, name: String? = nil)
  where Events.Element == Event {
    self.name = name
    iterate = { consume in
      for event in events {
        if Task.isCancelled || !consume(event) { return }
      }
    }
  }

  /// A source that runs `iterate`: for the adaptors.
  @usableFromInline
  init(
    name: String?,
    iterate: @escaping @Sendable (_ consume: (Event) -> Bool) async throws -> Void
  ) {
    self.name = name
    self.iterate = iterate
  }

  /// Runs the source until it ends, throws, or `consume` asks it to stop.
  ///
  /// The aggregator calls this from the source's task.
  ///
  /// ```swift
  /// try await source.run { event in
  ///   print(event)
  ///   return true   // keep going
  /// }
  /// ```
  ///
  /// - Parameter consume: Receives each event; returns `false` to stop the iteration.
  /// - Throws: Whatever the underlying sequence throws.
  public func run(_ consume: (Event) -> Bool) async throws {
    try await iterate(consume)
  }
}
