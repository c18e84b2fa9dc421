extension RaspSource {
  /// Wraps an asynchronous sequence of any element, turning each element into an event; an
  /// element that `transform` maps to `nil` is skipped.
  ///
  /// For upstreams that do not produce the state's events themselves: a stream of GPS fixes, of
  /// network responses, of UI actions of the app's own type.
  ///
  /// ```swift
  /// let fixes: AsyncStream<GeoLocation> = gps.fixes
  /// let source = RaspSource(fixes, name: "gps") { .location($0, accuracy: nil) }
  /// ```
  ///
  /// - Parameters:
  ///   - sequence: The upstream, iterated in a task of its own.
  ///   - name: The source's name for recorders; `nil` by default.
  ///   - transform: Makes the event of an element, or `nil` to skip it.
  public init<Base: AsyncSequence & Sendable>(
    _ sequence: Base, name: String? = nil,
    transform: @escaping @Sendable (Base.Element) -> Event?
  ) {
    self.init(name: name) { consume in
      for try await element in sequence {
        guard let event = transform(element) else { continue }
        if !consume(event) { return }
      }
    }
  }

  /// A source of other events: each of this source's events, transformed.
  ///
  /// ```swift
  /// let headings = RaspSource(compass.degrees)            // RaspSource<Double>
  /// let source = headings.map(GeoState.Event.heading)     // RaspSource<GeoState.Event>
  /// ```
  ///
  /// - Parameter transform: Makes the new event of each event.
  /// - Returns: A source with the same name, whose events are the transformed ones.
  public func map<Other: Sendable>(_ transform: @escaping @Sendable (Event) -> Other)
    -> RaspSource<Other>
  {
    let iterate = self.iterate
    return RaspSource<Other>(name: name) { consume in
      try await iterate { event in consume(transform(event)) }
    }
  }
}
