extension RaspAggregator {
  /// Runs an asynchronous action and sends the event it yields: a one-shot effect, such as a
  /// request whose response becomes an event.
  ///
  /// The action runs in a task of its own, started at once. When it returns an event, the event
  /// is sent as with ``send(_:)``, in turn with everything else; when it returns `nil`, nothing
  /// is sent. When it throws, a ``RaspFailure`` with origin ``RaspFailure/Origin/action`` and no
  /// event goes to the failure channel. A cancelled action sends nothing and reports nothing:
  /// cancel the returned task, or release the aggregator, which cancels every action under way.
  ///
  /// The returned task ends once the event is applied and every subscriber has seen its
  /// snapshot (or its failure), so a caller that must see the effect awaits its value. For an
  /// action that yields several events over time, add it as a source instead
  /// (``addSource(_:)``).
  ///
  /// This is RxReduce's action that is an `Observable<Action>`, and The Composable
  /// Architecture's `Effect.run`, for one event.
  ///
  /// ```swift
  /// aggregator.run { .loaded(try await api.user(id: 42)) }
  ///
  /// await aggregator.run { .tick }.value   // the tick has been applied and delivered
  /// ```
  ///
  /// - Parameter action: The work; returns the event to send, or `nil` for none.
  /// - Returns: The action's task: cancel it to drop the action; await its value to wait until
  ///   its event has been delivered.
  @discardableResult
  public func run(
    _ action: @escaping @Sendable () async throws -> State.Event?
  ) -> Task<Void, Never> {
    core.withLock { core in
      let id = core.makeObserverID()
      // The task holds the aggregator weakly, and not at all while the action runs, so that
      // releasing the aggregator cancels the action rather than waiting for it.
      let task = Task { [weak self] in
        let outcome: Result<State.Event?, any Error>
        do { outcome = .success(try await action()) } catch { outcome = .failure(error) }
        guard let self else { return }
        self.core.withLock { _ = $0.actionTasks.removeValue(forKey: id) }
        await self.deliver(outcome)
      }
      core.actionTasks[id] = task
      return task
    }
  }

  /// Sends an action's event or reports its failure, unless the action was cancelled.
  private func deliver(_ outcome: Result<State.Event?, any Error>) async {
    guard !Task.isCancelled else { return }
    switch outcome {
    case .success(let event?):
      await sendAndWait(event)
    case .success(nil), .failure(is CancellationError):
      return
    case .failure(let error):
      submit(.failure(error, origin: .action))
      await waitForDeliveries()
    }
  }
}
