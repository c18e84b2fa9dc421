import RaspJSON
import Testing

@testable import RaspCLI

@Suite struct RecordModeTests {
  func environment(_ variables: [String: String] = [:]) -> RaspEnvironment {
    RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: RaspMemoryOutput(),
      standardError: RaspMemoryOutput(), variables: variables)
  }

  func action(_ mode: RecordMode, exists: Bool, _ variables: [String: String] = [:]) -> Result<
    RecordMode.Action, RaspCommandError
  > {
    Result { () throws(RaspCommandError) in
      try mode.action(golden: "expected.jsonl", exists: exists, environment: environment(variables))
    }
  }

  func message(_ result: Result<RecordMode.Action, RaspCommandError>) -> String? {
    guard case .failure(let error) = result else { return nil }
    return error.description
  }

  @Test func outsideCIModesChooseAsTheTableSays() throws {
    #expect(try action(.never, exists: true).get() == .check)
    #expect(try action(.missing, exists: true).get() == .check)
    #expect(try action(.missing, exists: false).get() == .record)
    #expect(try action(.all, exists: true).get() == .record)
    #expect(try action(.all, exists: false).get() == .record)
  }

  @Test func aMissingGoldenFileWithoutRecordingIsAnErrorSuggestingRecordMissing() {
    #expect(
      message(action(.never, exists: false))
        == "rasp: error: golden file 'expected.jsonl' does not exist; "
        + "run with '--record missing' to record it\n")
    #expect(
      message(action(.never, exists: false, ["CI": "true"]))
        == message(action(.never, exists: false)))
  }

  @Test func inCIRecordingIsRefused() {
    #expect(
      message(action(.missing, exists: false, ["CI": "true"]))
        == "rasp: error: golden file 'expected.jsonl' does not exist, "
        + "and recording is refused in CI (CI=true); "
        + "record it locally with '--record missing' and commit it, or set RASP_ALLOW_RECORD=1\n")
    #expect(
      message(action(.all, exists: true, ["CI": "1"]))
        == "rasp: error: refusing to update 'expected.jsonl' in CI (CI=1); "
        + "set RASP_ALLOW_RECORD=1 to allow it\n")
    #expect(message(action(.all, exists: false, ["CI": "yes"])) != nil)
  }

  @Test func inCIAnExistingGoldenFileIsStillChecked() throws {
    #expect(try action(.missing, exists: true, ["CI": "true"]).get() == .check)
    #expect(try action(.never, exists: true, ["CI": "true"]).get() == .check)
  }

  @Test func RASP_ALLOW_RECORDAllowsRecordingInCI() throws {
    #expect(
      try action(.all, exists: true, ["CI": "true", "RASP_ALLOW_RECORD": "1"]).get() == .record)
    #expect(
      try action(.missing, exists: false, ["CI": "true", "RASP_ALLOW_RECORD": "true"]).get()
        == .record)
    #expect(message(action(.all, exists: true, ["CI": "true", "RASP_ALLOW_RECORD": "0"])) != nil)
  }

  @Test func CIFalseIsNotCI() throws {
    #expect(try action(.all, exists: true, ["CI": "false"]).get() == .record)
  }
}
