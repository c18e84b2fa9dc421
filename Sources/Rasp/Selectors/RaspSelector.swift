/// Reads one field of a state and reports it only when it changes (distinct until changed).
///
/// A selector remembers the last value it reported. ``select(from:)`` returns the field's value
/// the first time and then only when it differs from the last reported one, so a consumer of
/// `links.count` hears 1, 2, 3 — not 1, 1, 2, 2, 3. The field may be of any `Equatable` type.
///
/// ```swift
/// var selector = RaspSelector(\CounterState.count)
/// selector.select(from: CounterState(count: 1))   // 1
/// selector.select(from: CounterState(count: 1))   // nil: unchanged
/// selector.select(from: CounterState(count: 2))   // 2
/// ```
public struct RaspSelector<State, Value: Equatable> {
  @usableFromInline
  enum Reader: Sendable {
    /// A stored property held inline in the state, at this byte offset: read directly.
    case storedProperty(offset: Int)
    /// Any other key path: read through the key path machinery.
    case keyPath(any KeyPath<State, Value> & Sendable)
    case closure(@Sendable (State) -> Value)
  }

  @usableFromInline
  let reader: Reader

  @usableFromInline
  var lastValue: Value?

  /// The last value reported, or `nil` before the first.
  ///
  /// ```swift
  /// selector.last   // 2
  /// ```
  @inlinable
  public var last: Value? { lastValue }

  /// Reads the selected field from a state, whether or not it changed.
  ///
  /// ```swift
  /// RaspSelector(\CounterState.count).read(CounterState(count: 3))   // 3
  /// ```
  ///
  /// - Parameter state: A snapshot.
  /// - Returns: The selected value.
  @inlinable
  public func read(_ state: State) -> Value {
    switch reader {
    case .storedProperty(let offset):
      return withUnsafeBytes(of: state) { $0.load(fromByteOffset: offset, as: Value.self) }
    case .keyPath(let keyPath): return state[keyPath: keyPath]
    case .closure(let read): return read(state)
    }
  }

  /// Creates a selector from a closure.
  ///
  /// ```swift
  /// var selector = RaspSelector { (state: RestState) in state.links.count }
  /// ```
  ///
  /// - Parameter read: Reads the selected value from a state.
  public init(_ read: @escaping @Sendable (State) -> Value) {
    self.reader = .closure(read)
  }

  /// Creates a selector from a key path.
  ///
  /// When the path leads to a stored property held inline in a struct — `\.count`,
  /// `\.location.latitude` — the selector reads it at its offset, without going through the
  /// key path at run time, which makes a read as cheap as accessing the property.
  ///
  /// ```swift
  /// var selector = RaspSelector(\GeoState.heading)
  /// ```
  ///
  /// - Parameter keyPath: The path of the selected field.
  public init(_ keyPath: any KeyPath<State, Value> & Sendable) {
    let path: PartialKeyPath<State> = keyPath
    if let offset = MemoryLayout<State>.offset(of: path) {
      self.reader = .storedProperty(offset: offset)
    } else {
      self.reader = .keyPath(keyPath)
    }
  }

  /// Returns the selected value when it differs from the last one reported, otherwise `nil`.
  ///
  /// ```swift
  /// if let heading = selector.select(from: state) { print(heading) }
  /// ```
  ///
  /// - Parameter state: A snapshot.
  /// - Returns: The new value, or `nil` when it is unchanged.
  @inlinable
  public mutating func select(from state: State) -> Value? {
    let value = read(state)
    if let lastValue, lastValue == value { return nil }
    lastValue = value
    return value
  }

  /// Forgets the last value, so that the next ``select(from:)`` reports whatever it reads.
  ///
  /// ```swift
  /// selector.reset()
  /// ```
  public mutating func reset() {
    lastValue = nil
  }

  /// Takes `value` as the last value selected, as if it had just been selected: for a replay
  /// that resumes from a checkpoint.
  package mutating func restore(last value: Value?) {
    lastValue = value
  }
}

extension RaspSelector: Sendable where Value: Sendable {}
