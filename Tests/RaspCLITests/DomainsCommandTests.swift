import Foundation
import Rasp
import RaspCLI
import RaspDomains
import RaspJSON
import Testing

/// A domain of the user's own, to check that `rasp domains` lists what the command line got.
fileprivate struct CartDomain: RaspDomain {
  struct State: RaspState, Sendable {
    var count = 0
    mutating func apply(event: Void) { count += 1 }
  }

  var name: String { "cart" }
  var summary: String { "The shopping cart." }
  var events: [RaspEventSchema] {
    [
      RaspEventSchema(
        name: "add", summary: "An item was added.",
        fields: [
          RaspFieldSchema(name: "sku", type: "string", isRequired: true, summary: "The item.")
        ])
    ]
  }
  var initialState: State { State() }

  func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) {
    while try payload.nextField() != nil { try payload.skip() }
  }

  func encode(_ state: State, into writer: inout JSONWriter) {
    writer.writeRaw("{\"count\":")
    writer.writeInteger(Int64(state.count))
    writer.writeRaw("}")
  }
}

@Suite struct DomainsCommandTests {
  private func run(_ arguments: [String], domains: [any RaspDomain]) -> (
    status: Int32, output: String, errors: String
  ) {
    let output = RaspMemoryOutput()
    let errors = RaspMemoryOutput()
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: output, standardError: errors)
    let status = RaspCommandLine.run(
      arguments: arguments, environment: environment, domains: domains)
    return (status, output.text, errors.text)
  }

  @Test func namesPrintsOnlyTheNamesOneALine() {
    let result = run(["domains", "--names"], domains: RaspBuiltinDomains.all + [CartDomain()])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output == "cart\ndata\ngeo\nlifecycle\nmotion\nnav\nrest\n")
    let chosen = run(
      ["domains", "--names", "--domain", "nav,cart"],
      domains: RaspBuiltinDomains.all + [CartDomain()])
    #expect(chosen.output == "cart\nnav\n")
  }

  @Test func namesWithJSONIsAUsageError() {
    let result = run(["domains", "--names", "--json"], domains: RaspBuiltinDomains.all)
    #expect(result.status == 64)
    #expect(result.output.isEmpty)
    #expect(
      result.errors.hasPrefix(
        "rasp: error: options '--names' and '--json' cannot be used together"))
  }

  @Test func listsTheUsersDomainsInNameOrder() {
    let result = run(
      ["domains", "--domain", "cart", "--domain", "data"],
      domains: RaspBuiltinDomains.all + [CartDomain()])
    #expect(result.status == 0)
    #expect(
      result.output.hasPrefix(
        """
        cart                      The shopping cart.
          initial state           {"count":0}
          cart.add                An item was added.
            sku                   string, required. The item.

        data
        """))
  }

  @Test func writesTheUsersDomainsAsJSON() {
    let result = run(
      ["domains", "--json", "--domain", "cart"], domains: [CartDomain(), CartDomain(), GeoDomain()])
    #expect(
      result.output == """
        {"domains":[{"events":[{"fields":[{"name":"sku","required":true,"summary":"The item.",\
        "type":"string"}],"summary":"An item was added.","type":"cart.add"}],\
        "initialState":{"count":0},"name":"cart","summary":"The shopping cart."}]}

        """)
  }

  @Test func listsTheEventsThatStandForOtherDomainsTypesByThem() {
    let spec =
      #"{"domains": [{"name": "todos", "initial": [], "events": ["#
      + #"{"on": ["ADD_TODO"], "ops": [{"op": "append", "path": ".", "from": "text"}]},"#
      + #"{"name": "cleared", "on": ["user/loggedOut", "*/reset"], "#
      + #""ops": [{"op": "clear", "path": "."}]}]}]}"#
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rasp-domains-on-\(getpid()).json")
    defer { try? FileManager.default.removeItem(at: file) }
    #expect((try? Data(spec.utf8).write(to: file)) != nil)
    let text = run(["domains", "--spec", file.path, "--domain", "todos"], domains: [])
    #expect(text.status == 0, "\(text.errors)")
    #expect(
      text.output == """
        todos
          initial state           []
          on ADD_TODO             Append to the state.
          todos.cleared           Clear the state. Also on user.loggedOut, *.reset.

        """)
    let json = run(["domains", "--json", "--spec", file.path, "--domain", "todos"], domains: [])
    #expect(
      json.output == """
        {"domains":[{"events":[{"fields":[],"on":["ADD_TODO"],\
        "summary":"Append to the state.","type":null},{"fields":[],\
        "on":["user.loggedOut","*.reset"],"summary":"Clear the state.","type":"todos.cleared"}],\
        "initialState":[],"name":"todos","summary":""}]}

        """)
  }

  @Test func listsNothingForNoDomains() {
    let result = run(["domains", "--json"], domains: [])
    #expect(result.output == "{\"domains\":[]}\n")
    #expect(run(["domains"], domains: []).output == "")
  }

  @Test func rejectsArgumentsAndUnknownDomains() {
    let extra = run(["domains", "geo"], domains: RaspBuiltinDomains.all)
    #expect(extra.status == 64)
    #expect(extra.errors.hasPrefix("rasp: error: unexpected argument 'geo'\n"))
    let unknown = run(["domains", "--domain", "cart"], domains: RaspBuiltinDomains.all)
    #expect(unknown.status == 64)
    #expect(unknown.errors.hasPrefix("rasp: error: unknown domain 'cart' for '--domain <name>'\n"))
  }

  @Test func helpDomainsIsDomainsHelp() {
    let help = run(["help", "domains"], domains: [])
    #expect(help.status == 0)
    #expect(help.output == run(["domains", "--help"], domains: []).output)
    #expect(help.output.hasPrefix("OVERVIEW: List the domains"))
  }
}
