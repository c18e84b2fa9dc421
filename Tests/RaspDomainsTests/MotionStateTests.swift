import Testing
import RaspDomains

@Suite struct MotionStateTests {
  @Test func aSampleReplacesThePreviousOneEntirely() {
    var motion = MotionState()
    let full = MotionSample(
      acceleration: MotionVector(x: 0, y: -1, z: 0), rotationRate: MotionVector(x: 0.1, y: 0, z: 0),
      attitude: MotionAttitude(roll: 0, pitch: 0.5, yaw: 1))
    motion.apply(event: .sample(full))
    #expect(motion.sample == full)
    let partial = MotionSample(rotationRate: MotionVector(x: 0.2, y: 0.3, z: 0.4))
    motion.apply(event: .sample(partial))
    #expect(motion.sample == partial)
    #expect(motion.sample?.acceleration == nil)
    #expect(motion.sample?.attitude == nil)
  }

  @Test func anActivitySetsItsConfidenceAndLeavesTheSample() {
    let sample = MotionSample(acceleration: MotionVector(x: 1, y: 2, z: 3))
    var motion = MotionState(sample: sample)
    motion.apply(event: .activity(.walking, confidence: .low))
    motion.apply(event: .activity(.running, confidence: .high))
    #expect(motion == MotionState(sample: sample, activity: .running, confidence: .high))
  }

  @Test func samplesLeaveTheActivity() {
    var motion = MotionState(activity: .cycling, confidence: .medium)
    motion.apply(event: .sample(MotionSample(attitude: MotionAttitude(roll: 1, pitch: 2, yaw: 3))))
    #expect(motion.activity == .cycling)
    #expect(motion.confidence == .medium)
  }

  @Test func listsTheActivitiesAndConfidencesOfTheLog() {
    #expect(
      MotionActivity.allCases.map(\.rawValue) == [
        "stationary", "walking", "running", "cycling", "automotive", "unknown",
      ])
    #expect(MotionConfidence.allCases.map(\.rawValue) == ["low", "medium", "high"])
    #expect(MotionState.throwsBeforeMutating)
  }
}
