import Rasp

/// What the device's motion sensors last reported: a sample of acceleration, rotation rate and
/// attitude, and the user's activity as the motion coprocessor classified it.
///
/// A sample replaces the previous one entirely: a vector it lacks becomes `nil`, so the state
/// never mixes readings taken at different times. The activity and its confidence are set
/// together and are independent of the samples. The reducer never rejects an event; the
/// decoder rejects a sample without any vector.
///
/// ```swift
/// var motion = MotionState()
/// let reading = MotionSample(acceleration: MotionVector(x: 0, y: -0.98, z: 0.05))
/// try motion.apply(event: .sample(reading))
/// try motion.apply(event: .activity(.walking, confidence: .high))
/// motion.sample?.acceleration?.y   // -0.98
/// motion.activity                  // .walking
/// ```
public struct MotionState: RaspState, Equatable, Sendable {
  /// The last sample, or `nil` before the first.
  public var sample: MotionSample?
  /// The user's activity, or `nil` before the first classification.
  public var activity: MotionActivity?
  /// How sure the classification of ``activity`` is, or `nil` before the first.
  public var confidence: MotionConfidence?

  /// Creates a state, by default without any reading.
  ///
  /// ```swift
  /// let motion = MotionState(activity: .stationary, confidence: .low)
  /// ```
  ///
  /// - Parameters:
  ///   - sample: The last sample.
  ///   - activity: The activity.
  ///   - confidence: The activity's confidence.
  public init(
    sample: MotionSample? = nil, activity: MotionActivity? = nil,
    confidence: MotionConfidence? = nil
  ) {
    self.sample = sample
    self.activity = activity
    self.confidence = confidence
  }

  /// What can happen to the motion state.
  ///
  /// ```swift
  /// let event = MotionState.Event.activity(.running, confidence: .medium)
  /// ```
  public enum Event: Sendable, Equatable {
    /// The sensors reported a sample (`motion.sample`); it replaces the previous one.
    case sample(MotionSample)
    /// The user's activity was classified (`motion.activity`).
    case activity(MotionActivity, confidence: MotionConfidence)
  }

  /// Applies a sample or an activity; never rejects an event.
  ///
  /// ```swift
  /// try motion.apply(event: .activity(.cycling, confidence: .medium))
  /// ```
  ///
  /// - Parameter event: The event.
  public mutating func apply(event: Event) {
    switch event {
    case .sample(let reading):
      sample = reading
    case .activity(let kind, let level):
      activity = kind
      confidence = level
    }
  }

  /// `true`: the reducer never throws.
  ///
  /// ```swift
  /// MotionState.throwsBeforeMutating   // true
  /// ```
  public static var throwsBeforeMutating: Bool { true }
}

/// One reading of the motion sensors; each part is `nil` when the sample did not include it.
///
/// Units follow Core Motion — acceleration in g, rotation rate in radians per second, attitude
/// in radians — but are not checked: the numbers are kept as the log wrote them.
///
/// ```swift
/// let sample = MotionSample(attitude: MotionAttitude(roll: 0.1, pitch: -0.2, yaw: 1.57))
/// ```
public struct MotionSample: Sendable, Equatable {
  /// The user acceleration along each axis, in g.
  public var acceleration: MotionVector?
  /// The rotation rate around each axis, in radians per second.
  public var rotationRate: MotionVector?
  /// The device's orientation, in radians.
  public var attitude: MotionAttitude?

  /// Creates a sample.
  ///
  /// ```swift
  /// let sample = MotionSample(rotationRate: MotionVector(x: 0.01, y: 0, z: -0.02))
  /// ```
  ///
  /// - Parameters:
  ///   - acceleration: The acceleration, if measured.
  ///   - rotationRate: The rotation rate, if measured.
  ///   - attitude: The attitude, if measured.
  public init(
    acceleration: MotionVector? = nil, rotationRate: MotionVector? = nil,
    attitude: MotionAttitude? = nil
  ) {
    self.acceleration = acceleration
    self.rotationRate = rotationRate
    self.attitude = attitude
  }
}

/// A value along the device's three axes.
///
/// ```swift
/// let gravity = MotionVector(x: 0, y: -1, z: 0)
/// ```
public struct MotionVector: Sendable, Equatable {
  /// The value along the x axis.
  public var x: Double
  /// The value along the y axis.
  public var y: Double
  /// The value along the z axis.
  public var z: Double

  /// Creates a vector.
  ///
  /// ```swift
  /// let vector = MotionVector(x: 0.1, y: 0.2, z: 0.3)
  /// ```
  ///
  /// - Parameters:
  ///   - x: The x component.
  ///   - y: The y component.
  ///   - z: The z component.
  public init(x: Double, y: Double, z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }
}

/// The device's orientation as three angles in radians.
///
/// ```swift
/// let flat = MotionAttitude(roll: 0, pitch: 0, yaw: 0)
/// ```
public struct MotionAttitude: Sendable, Equatable {
  /// Rotation around the longitudinal axis.
  public var roll: Double
  /// Rotation around the lateral axis.
  public var pitch: Double
  /// Rotation around the vertical axis.
  public var yaw: Double

  /// Creates an attitude.
  ///
  /// ```swift
  /// let attitude = MotionAttitude(roll: 0.1, pitch: -0.2, yaw: 1.57)
  /// ```
  ///
  /// - Parameters:
  ///   - roll: The roll.
  ///   - pitch: The pitch.
  ///   - yaw: The yaw.
  public init(roll: Double, pitch: Double, yaw: Double) {
    self.roll = roll
    self.pitch = pitch
    self.yaw = yaw
  }
}

/// What the user is doing, as the motion coprocessor classifies it.
///
/// ```swift
/// MotionActivity(rawValue: "cycling")   // .cycling
/// ```
public enum MotionActivity: String, Sendable, Equatable, CaseIterable {
  /// Not moving.
  case stationary
  /// Walking.
  case walking
  /// Running.
  case running
  /// Riding a bicycle.
  case cycling
  /// In a vehicle.
  case automotive
  /// Moving in a way the classifier does not recognise.
  case unknown
}

/// How sure the classification of an activity is.
///
/// ```swift
/// MotionConfidence(rawValue: "high")   // .high
/// ```
public enum MotionConfidence: String, Sendable, Equatable, CaseIterable {
  /// Barely sure.
  case low
  /// Fairly sure.
  case medium
  /// Sure.
  case high
}
