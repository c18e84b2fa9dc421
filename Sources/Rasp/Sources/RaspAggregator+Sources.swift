extension RaspAggregator {
  /// Stops listening to the current sources and starts listening to `sources` instead.
  ///
  /// The current sources' tasks are cancelled, and from the moment this method returns no event
  /// or failure from them is applied or reported, even one they produce while winding down. The
  /// new sources are numbered from 0, in this order, in ``RaspFailure/Origin/source(index:)``.
  /// The state is kept: replacing sources changes where events come from, not what they have
  /// done so far. Passing no sources simply stops the current ones.
  ///
  /// **Naming.** The seed called this `updateEventSources` (and RaspSwift's code
  /// `replace(sources:)`). `replaceSources` says what happens to the old sources — they are
  /// replaced, not merged with the new ones — and reads as a verb phrase, as a mutation should.
  ///
  /// ```swift
  /// aggregator.replaceSources([RaspSource(liveHeadings), RaspSource(liveFixes)])
  /// ```
  ///
  /// - Parameter sources: The new event sources.
  public func replaceSources(_ sources: [RaspSource<State.Event>]) {
    let cancelled = core.withLock { core -> [Task<Void, Never>] in
      core.sourceGeneration += 1
      let generation = core.sourceGeneration
      let cancelled = core.sourceTasks
      core.sourceTasks = sources.enumerated().map { index, source in
        makeTask(running: source, index: index, generation: generation)
      }
      return cancelled
    }
    for task in cancelled { task.cancel() }
  }

  /// Stops listening to the current sources and starts listening to `sources` instead.
  ///
  /// The variadic form of the `replaceSources(_:)` that takes an array.
  ///
  /// ```swift
  /// aggregator.replaceSources(RaspSource(liveHeadings), RaspSource(liveFixes))
  /// aggregator.replaceSources()   // stop listening to any source
  /// ```
  ///
  /// - Parameter sources: The new event sources.
  public func replaceSources(_ sources: RaspSource<State.Event>...) {
    replaceSources(sources)
  }

  /// Starts the task that iterates one source and submits its events and its failure.
  ///
  /// The task holds the aggregator weakly, so it never keeps it alive; it stops at the first
  /// event after the aggregator is gone or after its generation is replaced.
  private func makeTask(
    running source: RaspSource<State.Event>, index: Int, generation: Int
  ) -> Task<Void, Never> {
    Task { [weak self] in
      do {
        try await source.run { event in
          guard let self else { return false }
          return self.submit(.event(event, source: source.name), generation: generation)
        }
      } catch {
        self?.submit(.sourceFailure(index: index, error: error), generation: generation)
      }
    }
  }
}
