import RaspJSON

extension MotionDomain: RaspMemberReading {
  /// `activity`, `confidence` and `sample`, by index.
  package func member(named name: String) -> RaspStateMember? {
    Self.member(named: name, among: ["activity", "confidence", "sample"])
  }

  package func value(of member: RaspStateMember, in state: MotionState) -> JSONValue {
    switch member.index {
    case 0: return Self.optional(state.activity?.rawValue)
    case 1: return Self.optional(state.confidence?.rawValue)
    default:
      guard let sample = state.sample else { return .null }
      let attitude = sample.attitude.map {
        Self.object([
          ("pitch", .written($0.pitch)), ("roll", .written($0.roll)), ("yaw", .written($0.yaw)),
        ])
      }
      return Self.object([
        ("acceleration", Self.vector(sample.acceleration)), ("attitude", attitude ?? .null),
        ("rotationRate", Self.vector(sample.rotationRate)),
      ])
    }
  }

  /// A vector as ``encode(_:into:)`` writes it, or `null`.
  private static func vector(_ vector: MotionVector?) -> JSONValue {
    guard let vector else { return .null }
    return object([("x", .written(vector.x)), ("y", .written(vector.y)), ("z", .written(vector.z))])
  }
}
