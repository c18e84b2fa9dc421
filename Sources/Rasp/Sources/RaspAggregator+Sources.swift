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
      let cancelled = core.sourceTasks + core.addedSourceTasks.values
      core.addedSourceTasks = [:]
      core.addedSourceCount = 0
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

  /// Starts listening to one more source, beside the current ones, until it ends or
  /// ``removeSource(_:)`` removes it.
  ///
  /// The source is iterated in a task of its own, started at once, as the initializer's are.
  /// Its failures carry the index in the returned value: the sources given to the initializer
  /// or to the latest ``replaceSources(_:)`` come first, then the added ones in the order they
  /// were added. ``replaceSources(_:)`` replaces the added sources too.
  ///
  /// ```swift
  /// let gps = aggregator.addSource(RaspSource(fixes, name: "gps"))
  /// // … the GPS is switched off …
  /// aggregator.removeSource(gps)
  /// ```
  ///
  /// - Parameter source: The source to add.
  /// - Returns: The added source, to remove it with.
  @discardableResult
  public func addSource(_ source: RaspSource<State.Event>) -> RaspAddedSource {
    core.withLock { core in
      core.lastAddedSourceToken -= 1
      let token = core.lastAddedSourceToken
      let index = core.sourceTasks.count + core.addedSourceCount
      core.addedSourceCount += 1
      core.addedSourceTasks[token] = makeTask(running: source, index: index, generation: token)
      return RaspAddedSource(index: index, token: token)
    }
  }

  /// Stops listening to a source added with ``addSource(_:)``.
  ///
  /// Its task is cancelled, and from the moment this method returns none of its events or
  /// failures is applied or reported. Removing a source that has ended, or was replaced, or
  /// was removed already, does nothing.
  ///
  /// ```swift
  /// aggregator.removeSource(gps)
  /// ```
  ///
  /// - Parameter source: The added source.
  public func removeSource(_ source: RaspAddedSource) {
    let task = core.withLock { $0.addedSourceTasks.removeValue(forKey: source.token) }
    task?.cancel()
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
        self?.submit(.failure(error, origin: .source(index: index)), generation: generation)
      }
    }
  }
}

/// A source added to an aggregator with ``RaspAggregator/addSource(_:)``: what its failures
/// are numbered, and what ``RaspAggregator/removeSource(_:)`` takes.
///
/// ```swift
/// let gps = aggregator.addSource(RaspSource(fixes))
/// gps.index   // 2, after two sources given to the initializer
/// ```
public struct RaspAddedSource: Hashable, Sendable {
  /// The index its failures carry, in ``RaspFailure/Origin/source(index:)``.
  public let index: Int
  /// Identifies it among the aggregator's added sources.
  let token: Int
}
