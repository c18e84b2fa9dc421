import Testing
import RaspDomains

@Suite struct DataDomainTests {
  @Test func decodesEveryEvent() {
    var replay = LogReplay([DataDomain()])
    #expect(replay.json() == "{}")
    let outcomes = replay.send([
      #"{"type":"data.set","payload":{"value":{"z":1,"a":[true,null,"x"]},"key":"cart"}}"#,
      #"{"type":"data.set","payload":{"key":"user","value":null}}"#,
      #"{"type":"data.merge","payload":{"key":"cart","value":{"a":{"b":1.50},"n":null}}}"#,
      #"{"type":"data.merge","payload":{"key":"prefs","value":{}}}"#,
      #"{"type":"data.remove","payload":{"key":"user"}}"#,
      #"{"type":"data.remove","payload":{"key":"user","value":1}}"#,
      #"{"type":"data.clear"}"#,
    ])
    #expect(
      outcomes == [
        #"{"cart":{"a":[true,null,"x"],"z":1}}"#,
        #"{"cart":{"a":[true,null,"x"],"z":1},"user":null}"#,
        #"{"cart":{"a":{"b":1.5},"n":null,"z":1},"user":null}"#,
        #"{"cart":{"a":{"b":1.5},"n":null,"z":1},"prefs":{},"user":null}"#,
        #"{"cart":{"a":{"b":1.5},"n":null,"z":1},"prefs":{}}"#,
        #"{"cart":{"a":{"b":1.5},"n":null,"z":1},"prefs":{}}"#,
        "{}",
      ])
  }

  @Test func reportsEveryError() {
    var replay = LogReplay([DataDomain()])
    let outcomes = replay.send([
      #"{"type":"data.set","payload":{"key":"a"}}"#,
      #"{"type":"data.set","payload":{"value":1}}"#,
      #"{"type":"data.set","payload":{"key":"","value":1}}"#,
      #"{"type":"data.set","payload":{"key":["a"],"value":1}}"#,
      #"{"type":"data.merge","payload":{"key":"a","value":[1]}}"#,
      #"{"type":"data.merge","payload":{"key":"a","value":null}}"#,
      #"{"type":"data.merge","payload":{"key":"a"}}"#,
      #"{"type":"data.remove","payload":{}}"#,
      #"{"type":"data.set","payload":{"key":"n","value":7}}"#,
      #"{"type":"data.merge","payload":{"key":"n","value":{"x":1}}}"#,
    ])
    #expect(
      outcomes == [
        "col 30: missing required field 'payload.value'",
        "col 30: missing required field 'payload.key'",
        "col 37: invalid value for field 'payload.key': must not be empty",
        "col 37: field 'payload.key' must be a string, found an array",
        "col 51: field 'payload.value' must be an object, found an array",
        "col 51: field 'payload.value' must be an object, found null",
        "col 32: missing required field 'payload.value'",
        "col 33: missing required field 'payload.key'",
        #"{"n":7}"#,
        "col 1: event rejected: cannot merge into 'n': it holds a number",
      ])
  }

  @Test func encodesTheStoreInKeyOrder() {
    var replay = LogReplay([DataDomain()])
    _ = replay.send(#"{"type":"data.set","payload":{"key":"b","value":"é\n"}}"#)
    _ = replay.send(#"{"type":"data.set","payload":{"key":"a","value":1234567890123456789}}"#)
    _ = replay.send(#"{"type":"data.set","payload":{"key":"B","value":1e2}}"#)
    #expect(replay.json() == #"{"B":100,"a":1234567890123456789,"b":"é\n"}"#)
  }
}
