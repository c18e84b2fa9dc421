import Testing
import RaspDomains

@Suite struct MotionDomainTests {
  @Test func decodesSamplesAndActivities() {
    var replay = LogReplay([MotionDomain()])
    #expect(replay.json() == #"{"activity":null,"confidence":null,"sample":null}"#)
    let outcomes = replay.send([
      #"{"type":"motion.sample","payload":{"acceleration":{"x":0.01,"y":-0.98,"z":0.05},"#
        + #""rotationRate":{"z":-0.3,"y":0.2,"x":0.1},"#
        + #""attitude":{"roll":0.1,"pitch":-0.2,"yaw":1.57}}}"#,
      #"{"type":"motion.sample","payload":{"acceleration":null,"#
        + #""attitude":{"roll":0,"pitch":0,"yaw":3,"quaternion":[1,0,0,0]},"gravity":{"x":0}}}"#,
      #"{"type":"motion.activity","payload":{"activity":"automotive","confidence":"medium"}}"#,
      #"{"type":"motion.activity","#
        + #""payload":{"confidence":"low","activity":"unknown","startDate":"…"}}"#,
    ])
    #expect(
      outcomes == [
        #"{"activity":null,"confidence":null,"#
          + #""sample":{"acceleration":{"x":0.01,"y":-0.98,"z":0.05},"#
          + #""attitude":{"pitch":-0.2,"roll":0.1,"yaw":1.57},"#
          + #""rotationRate":{"x":0.1,"y":0.2,"z":-0.3}}}"#,
        #"{"activity":null,"confidence":null,"#
          + #""sample":{"acceleration":null,"attitude":{"pitch":0,"roll":0,"yaw":3},"#
          + #""rotationRate":null}}"#,
        #"{"activity":"automotive","confidence":"medium","#
          + #""sample":{"acceleration":null,"attitude":{"pitch":0,"roll":0,"yaw":3},"#
          + #""rotationRate":null}}"#,
        #"{"activity":"unknown","confidence":"low","#
          + #""sample":{"acceleration":null,"attitude":{"pitch":0,"roll":0,"yaw":3},"#
          + #""rotationRate":null}}"#,
      ])
  }

  @Test func reportsEverySampleError() {
    var replay = LogReplay([MotionDomain()])
    let outcomes = replay.send([
      #"{"type":"motion.sample"}"#,
      #"{"type":"motion.sample","payload":{}}"#,
      #"{"type":"motion.sample","payload":{"acceleration":null,"rotationRate":null}}"#,
      #"{"type":"motion.sample","payload":{"acceleration":{"x":1,"y":2}}}"#,
      #"{"type":"motion.sample","payload":{"rotationRate":{"y":1,"z":2}}}"#,
      #"{"type":"motion.sample","payload":{"attitude":{"roll":1,"pitch":2}}}"#,
      #"{"type":"motion.sample","payload":{"acceleration":{"x":1,"y":"2","z":3}}}"#,
      #"{"type":"motion.sample","payload":{"acceleration":[1,2,3]}}"#,
      #"{"type":"motion.sample","#
        + #""payload":{"attitude":{"roll":1,"pitch":2,"yaw":3},"rotationRate":5}}"#,
    ])
    #expect(
      outcomes == [
        "col 1: invalid value for field 'payload': "
          + "must have at least one of 'acceleration', 'rotationRate', 'attitude'",
        "col 35: invalid value for field 'payload': "
          + "must have at least one of 'acceleration', 'rotationRate', 'attitude'",
        "col 35: invalid value for field 'payload': "
          + "must have at least one of 'acceleration', 'rotationRate', 'attitude'",
        "col 51: missing required field 'payload.acceleration.z'",
        "col 51: missing required field 'payload.rotationRate.x'",
        "col 47: missing required field 'payload.attitude.yaw'",
        "col 62: field 'payload.acceleration.y' must be a number, found a string",
        "col 51: field 'payload.acceleration' must be an object, found an array",
        "col 91: field 'payload.rotationRate' must be an object, found a number",
      ])
    #expect(replay.json() == #"{"activity":null,"confidence":null,"sample":null}"#)
  }

  @Test func reportsEveryActivityError() {
    var replay = LogReplay([MotionDomain()])
    let outcomes = replay.send([
      #"{"type":"motion.activity","payload":{"activity":"walking"}}"#,
      #"{"type":"motion.activity","payload":{"confidence":"high"}}"#,
      #"{"type":"motion.activity","payload":{"activity":"flying","confidence":"high"}}"#,
      #"{"type":"motion.activity","payload":{"activity":"walking","confidence":"certain"}}"#,
      #"{"type":"motion.activity","payload":{"activity":1,"confidence":"high"}}"#,
    ])
    #expect(
      outcomes == [
        "col 37: missing required field 'payload.confidence'",
        "col 37: missing required field 'payload.activity'",
        "col 49: invalid value for field 'payload.activity': must be one of "
          + "'stationary', 'walking', 'running', 'cycling', 'automotive', 'unknown', "
          + "found 'flying'",
        "col 72: invalid value for field 'payload.confidence': "
          + "must be one of 'low', 'medium', 'high', found 'certain'",
        "col 49: field 'payload.activity' must be a string, found a number",
      ])
  }

  @Test func encodesASampleWithSortedKeys() {
    let state = MotionState(
      sample: MotionSample(rotationRate: MotionVector(x: 1e-7, y: 2.5, z: -3)),
      activity: .stationary,
      confidence: .high)
    #expect(
      encoded(MotionDomain(), state)
        == #"{"activity":"stationary","confidence":"high","#
        + #""sample":{"acceleration":null,"attitude":null,"#
        + #""rotationRate":{"x":1e-07,"y":2.5,"z":-3}}}"#)
  }
}
