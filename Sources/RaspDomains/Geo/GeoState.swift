import Rasp

/// Where the device is and which way it points: one consistent snapshot of values that a
/// compass and a GPS update independently.
///
/// This is the geolocation example of the RASP seeds: two sources, one state. A heading event
/// changes only the heading; a location event changes the location and its accuracy; every
/// snapshot holds the latest of both.
///
/// ```swift
/// var geo = GeoState()
/// try geo.apply(event: .heading(271.5))
/// try geo.apply(event: .location(GeoLocation(latitude: 52.52, longitude: 13.405), accuracy: 5))
/// geo.heading   // 271.5
/// ```
public struct GeoState: RaspState, Equatable, Sendable {
  /// The compass heading in degrees clockwise from north, or `nil` before the first reading.
  public var heading: Double?
  /// The last position fix, or `nil` before the first.
  public var location: GeoLocation?
  /// The horizontal accuracy of the last fix in metres, or `nil` when it did not say.
  public var accuracy: Double?

  /// Creates a state, by default with no reading at all.
  ///
  /// ```swift
  /// let geo = GeoState(heading: 90)
  /// ```
  ///
  /// - Parameters:
  ///   - heading: The heading.
  ///   - location: The position.
  ///   - accuracy: The position's accuracy.
  public init(heading: Double? = nil, location: GeoLocation? = nil, accuracy: Double? = nil) {
    self.heading = heading
    self.location = location
    self.accuracy = accuracy
  }

  /// What can happen to the geolocation state.
  ///
  /// ```swift
  /// let event = GeoState.Event.heading(90)
  /// ```
  public enum Event: Sendable, Equatable {
    /// The compass reported a new heading (`geo.heading`).
    case heading(Double)
    /// The GPS reported a new position, with its accuracy if known (`geo.location`).
    case location(GeoLocation, accuracy: Double?)
  }

  /// Applies a heading or a location; never rejects an event.
  ///
  /// ```swift
  /// try geo.apply(event: .heading(90))
  /// ```
  ///
  /// - Parameter event: The event.
  public mutating func apply(event: Event) {
    switch event {
    case .heading(let degrees):
      heading = degrees
    case .location(let fix, let accuracy):
      location = fix
      self.accuracy = accuracy
    }
  }

  /// `true`: the reducer never throws.
  ///
  /// ```swift
  /// GeoState.throwsBeforeMutating   // true
  /// ```
  public static var throwsBeforeMutating: Bool { true }
}

/// A position on Earth in degrees (WGS 84).
///
/// ```swift
/// let berlin = GeoLocation(latitude: 52.52, longitude: 13.405)
/// ```
public struct GeoLocation: Sendable, Equatable {
  /// Degrees north of the equator, −90 … 90.
  public var latitude: Double
  /// Degrees east of Greenwich, −180 … 180.
  public var longitude: Double

  /// Creates a position.
  ///
  /// ```swift
  /// let fix = GeoLocation(latitude: 48.8566, longitude: 2.3522)
  /// ```
  ///
  /// - Parameters:
  ///   - latitude: Degrees north.
  ///   - longitude: Degrees east.
  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }
}
