import Testing
import Rasp

fileprivate struct Sensors: Equatable {
  var readings = [0, 0, 0]
  var label = ""
}

fileprivate func builtReducer(metric: Bool, labelled: Bool) -> RaspReducer<Sensors, Int> {
  RaspReducer {
    for index in 0..<3 {
      RaspReducer.field(\.readings[index]) { reading, event in reading += event * (index + 1) }
    }
    if labelled {
      RaspReducer.field(\.label) { label, _ in label += "*" }
    }
    if metric {
      RaspReducer.field(\.label) { label, _ in label += "m" }
    } else {
      RaspReducer.field(\.label) { label, _ in label += "i" }
    }
  }
}

@Suite struct RaspReducerBuilderTests {
  @Test func runsStatementsInTheOrderWritten() throws {
    let reducer = RaspReducer<[String], String> {
      RaspReducer { state, event in state.append("1\(event)") }
      RaspReducer { state, event in state.append("2\(event)") }
    }
    var state: [String] = []
    try reducer.reduce(into: &state, event: "x")
    #expect(state == ["1x", "2x"])
  }

  @Test func expandsLoopsAndChoosesBranchesWhenBuilt() throws {
    var sensors = Sensors()
    try builtReducer(metric: true, labelled: true).reduce(into: &sensors, event: 1)
    #expect(sensors == Sensors(readings: [1, 2, 3], label: "*m"))
    try builtReducer(metric: false, labelled: false).reduce(into: &sensors, event: 1)
    #expect(sensors == Sensors(readings: [2, 4, 6], label: "*mi"))
  }
}
