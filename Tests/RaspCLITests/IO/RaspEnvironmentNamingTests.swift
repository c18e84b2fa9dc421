import RaspJSON
import Testing

@testable import RaspCLI

@Suite struct RaspEnvironmentNamingTests {
  private func naming(_ text: String, as name: String) -> String {
    var environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: RaspMemoryOutput(),
      standardError: RaspMemoryOutput())
    environment.programName = name
    return environment.naming(text)
  }

  @Test func writesTheCommandsOwnNameWhereRaspNamesItself() {
    let text = """
      rasp: error: unknown option '--selct'
      Usage: rasp replay [--select <path>]
        See 'rasp replay --help' for more information.
      rasp
      """
    #expect(
      naming(text, as: "cart-rasp") == """
        cart-rasp: error: unknown option '--selct'
        Usage: cart-rasp replay [--select <path>]
          See 'cart-rasp replay --help' for more information.
        cart-rasp
        """)
  }

  @Test func leavesOtherWordsAndTypesAlone() {
    let text = "a rasp.dropped line, rasp(1), grasp: and raspberry, the rasp log format"
    #expect(
      naming(text, as: "cart-rasp")
        == "a rasp.dropped line, rasp(1), grasp: and raspberry, the cart-rasp log format")
    #expect(naming(text, as: "rasp") == text)
  }
}
