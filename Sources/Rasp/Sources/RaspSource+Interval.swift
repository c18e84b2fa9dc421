extension RaspSource {
  /// A source that sends an event every `period` on `clock`: the RASP seeds'
  /// `Observable.interval`, for timers, polling and animations.
  ///
  /// The first event comes one period after the aggregator starts the source; `event` is
  /// given the tick's number, from 0. Ticks are due at whole multiples of the period from the
  /// start, so a late one does not delay the next. The source runs until it is replaced,
  /// removed, or its aggregator is released. Give it a clock of your own in tests, one that
  /// moves only when the test says.
  ///
  /// ```swift
  /// aggregator.addSource(.interval(every: .seconds(1)) { tick in .refresh(tick) })
  /// ```
  ///
  /// - Parameters:
  ///   - period: The time between two events.
  ///   - clock: The clock to wait on; `ContinuousClock` by default.
  ///   - name: The source's name for recorders; `nil` by default.
  ///   - event: Makes the event of each tick, numbered from 0.
  /// - Returns: The source.
  public static func interval<C: Clock & Sendable>(
    every period: C.Duration, clock: C, name: String? = nil,
    event: @escaping @Sendable (Int) -> Event
  ) -> RaspSource where C.Duration: Sendable {
    RaspSource(name: name) { consume in
      var deadline = clock.now.advanced(by: period)
      var tick = 0
      while true {
        try await clock.sleep(until: deadline, tolerance: nil)
        if !consume(event(tick)) { return }
        tick += 1
        deadline = deadline.advanced(by: period)
      }
    }
  }

  /// A source that sends an event every `period` of the continuous clock.
  ///
  /// ```swift
  /// let ticks = RaspSource<CounterState.Event>.interval(every: .milliseconds(250)) { _ in
  ///   .increment
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - period: The time between two events.
  ///   - name: The source's name for recorders; `nil` by default.
  ///   - event: Makes the event of each tick, numbered from 0.
  /// - Returns: The source.
  public static func interval(
    every period: Duration, name: String? = nil, event: @escaping @Sendable (Int) -> Event
  ) -> RaspSource {
    interval(every: period, clock: ContinuousClock(), name: name, event: event)
  }
}
