import Rasp
import RaspCLI
import RaspDomains
import RaspJSON
import RaspReplay
import Testing
import RaspTestSupport

/// A domain written in Swift, as a package of its own would write it: taps that count.
fileprivate struct CounterState: RaspState, Sendable {
  struct Underflow: Error, CustomStringConvertible {
    var description: String { "the count cannot go below 0" }
  }

  enum Event: Sendable { case add(Int) }

  var count = 0

  mutating func apply(event: Event) throws {
    guard case .add(let amount) = event, count + amount >= 0 else { throw Underflow() }
    count += amount
  }
}

fileprivate struct CounterDomain: RaspDomain {
  var name: String { "counter" }
  var summary: String { "Counts taps." }
  var events: [RaspEventSchema] {
    [RaspEventSchema(name: "tap", summary: "Adds 'by', 1 by default.", fields: [])]
  }
  var initialState: CounterState { CounterState() }

  func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> CounterState.Event {
    var by: Int64 = 1
    while let field = try payload.nextField() {
      if field == "by" { by = try payload.integer() } else { try payload.skip() }
    }
    return .add(Int(by))
  }

  func encode(_ state: CounterState, into writer: inout JSONWriter) {
    writer.writeRaw("{\"count\":")
    writer.writeInteger(Int64(state.count))
    writer.writeRaw("}")
  }
}

/// A counter of the compass's readings: a domain of the caller's own that asks for another
/// domain's events (`geo.heading`, ``RaspEventSchema/listensTo``) and has one of its own.
fileprivate struct ReadingsDomain: RaspDomain {
  var name: String { "readings" }
  var summary: String { "Counts the compass's readings." }
  var events: [RaspEventSchema] {
    [
      RaspEventSchema(
        name: "", summary: "Counts a reading.", fields: [], acceptsOtherFields: true,
        listensTo: ["geo.heading"]),
      RaspEventSchema(name: "rewound", summary: "Takes one back.", fields: []),
    ]
  }
  var initialState: CounterState { CounterState() }

  func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> CounterState.Event {
    while try payload.nextField() != nil { try payload.skip() }
    return .add(name.index == 0 ? 1 : -1)
  }

  func encode(_ state: CounterState, into writer: inout JSONWriter) {
    writer.writeInteger(Int64(state.count))
  }
}

/// A counter domain whose `encode` has bugs: keys out of order always, and from a count of
/// `brokenFrom` on, a missing comma.
fileprivate struct CarelessDomain: RaspDomain {
  var brokenFrom = Int.max
  var name: String { "careless" }
  var summary: String { "Writes its state carelessly." }
  var events: [RaspEventSchema] { CounterDomain().events }
  var initialState: CounterState { CounterState() }

  func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> CounterState.Event {
    try CounterDomain().decodeEvent(name, payload: &payload, context: context)
  }

  func encode(_ state: CounterState, into writer: inout JSONWriter) {
    writer.writeRaw("{\"z\":true")
    if state.count < brokenFrom { writer.writeRaw(",") }
    writer.writeRaw("\"count\":")
    writer.writeInteger(Int64(state.count))
    writer.writeRaw("}")
  }
}

/// Runs the command line with `domains`, standard input holding `log`.
fileprivate func run(_ arguments: [String], domains: [any RaspDomain], log: String = "") -> (
  status: Int32, output: String, errors: String
) {
  let output = RaspMemoryOutput()
  let errors = RaspMemoryOutput()
  let environment = RaspEnvironment(
    standardInput: .memory(JSONMemorySource(Array(log.utf8))), standardOutput: output,
    standardError: errors,
    workingDirectory: Repository.root)
  let status = RaspCommandLine.run(arguments: arguments, environment: environment, domains: domains)
  return (status, output.text, errors.text)
}

@Suite struct CustomDomainTests {
  @Test func aKeyedFinalOfADomainOfTheCallersOwnIsWrittenOnOneThread() {
    // Rasp's own domains may be encoded by two threads at once (a keyed `--final` writes its
    // records so); a caller's domain, whose state need not be safe to share, is not.
    #expect(SnapshotState(domains: RaspBuiltinDomains.all).encodesConcurrently)
    #expect(!SnapshotState(domains: RaspBuiltinDomains.all + [CounterDomain()]).encodesConcurrently)
    let log = [
      #"{"device":"b","type":"counter.tap","payload":{"by":2}}"#,
      #"{"device":"a","type":"counter.tap"}"#,
      #"{"device":"b","type":"counter.tap"}"#,
      #"{"device":"a","type":"counter.tap","payload":{"by":4}}"#,
    ].joined(separator: "\n")
    let result = run(
      ["replay", "--key-by", "device", "--final", "--domain", "counter"],
      domains: RaspBuiltinDomains.all + [CounterDomain()], log: log)
    #expect(result.status == 0)
    #expect(
      result.output
        == #"{"key":"a","state":{"counter":{"count":5}}}"# + "\n"
        + #"{"key":"b","state":{"counter":{"count":3}}}"# + "\n")
  }

  @Test func replaysADomainOfTheCallersOwnBesideTheBuiltInOnes() {
    let log =
      #"{"type":"counter.tap"}"# + "\n" + #"{"type":"counter.tap","payload":{"by":-5}}"# + "\n"
      + #"{"type":"counter.tap","payload":{"by":2}}"# + "\n"
    let result = run(
      ["replay", "--select", "counter.count", "--on-error", "skip"],
      domains: RaspBuiltinDomains.all + [CounterDomain()],
      log: log)
    #expect(result.output == "1\n3\n")
    #expect(
      result.errors
        == "<stdin>:2:1: error: event rejected: the count cannot go below 0\n"
        + "rasp: 3 lines read: 2 applied, 1 skipped, 0 ignored, 0 blank\n")
    #expect(result.status == 2)
  }

  @Test func aDomainOfTheCallersOwnReceivesTheEventsOfTheTypesItAsksFor() {
    let log = [
      #"{"type":"geo.heading","payload":{"heading":90}}"#,
      #"{"type":"nav.push","payload":{"screen":"map"}}"#,
      #"{"type":"geo.heading","payload":{"heading":180}}"#,
      #"{"type":"readings.rewound"}"#,
      // Refused by geo: the reading is not counted either, all or nothing.
      #"{"type":"geo.heading","payload":{"heading":"north"}}"#,
    ].joined(separator: "\n")
    let result = run(
      [
        "replay", "--domain", "geo", "--domain", "readings", "--select", "readings", "--on-error",
        "skip",
      ],
      domains: RaspBuiltinDomains.all + [ReadingsDomain()], log: log)
    #expect(result.output == "1\n2\n1\n")
    #expect(result.errors.hasPrefix("<stdin>:5:"), "\(result.errors)")
    #expect(result.status == 2)
    // Its own domain left out, the heading still counts.
    let alone = run(
      ["replay", "--domain", "readings", "--final", "--on-error", "skip"],
      domains: RaspBuiltinDomains.all + [ReadingsDomain()], log: log)
    #expect(alone.output == #"{"readings":2}"# + "\n")
  }

  @Test func addsSpecDomainsToTheCallersOwn() {
    let log =
      #"{"type":"counter.tap"}"# + "\n" + #"{"type":"cart.add","payload":{"sku":"A-1","price":1}}"#
      + "\n"
    let result = run(
      ["replay", "--spec", "fixtures/spec-cart/cart.json", "--final"], domains: [CounterDomain()],
      log: log)
    #expect(
      result.output
        == #"{"cart":{"items":["A-1"],"lastCheckout":null,"total":1},"counter":{"count":1}}"# + "\n"
    )
    #expect(result.status == 0)
  }

  @Test func refusesASpecDomainNamedLikeTheCallersOwn() {
    let spec = #"{"domains": [{"name": "counter", "events": []}]}"#
    let result = run(["spec", "--check", "-"], domains: [CounterDomain()], log: spec)
    #expect(
      result.errors
        == "<stdin>:1:23: error: at domains[0].name: "
        + "a domain named 'counter' already exists (defined in Swift)\n")
    #expect(result.status == 2)
  }

  @Test func sortsTheKeysOfADomainOfTheCallersOwn() {
    let result = run(
      ["replay", "--domain", "careless"], domains: [CarelessDomain()],
      log: #"{"type":"careless.tap"}"# + "\n")
    #expect(result.output == #"{"careless":{"count":1,"z":true}}"# + "\n")
    #expect(result.status == 0)
  }

  @Test func refusesAnEventAfterWhichADomainWritesInvalidJSON() {
    let log = String(repeating: #"{"type":"careless.tap"}"# + "\n", count: 3)
    let result = run(
      ["replay", "--select", "careless.count", "--on-error", "skip"],
      domains: [CarelessDomain(brokenFrom: 2)], log: log)
    // The second tap would make the state print as '{"z":true"count":2}': refused, and the
    // state stays 1, so the third tap is refused too.
    #expect(result.output == "1\n")
    let refusal =
      "error: event rejected: the domain 'careless' wrote its state as invalid JSON (expected "
      + "',' or '}' after an object member, found '\"' at byte 10); its encode(_:into:) must "
      + "write one JSON value\n"
    #expect(
      result.errors
        == "<stdin>:2:1: " + refusal + "<stdin>:3:1: " + refusal
        + "rasp: 3 lines read: 1 applied, 2 skipped, 0 ignored, 0 blank\n")
    #expect(result.status == 2)
  }

  @Test func refusesADomainWhoseInitialStateIsInvalidJSON() {
    let result = run(["replay"], domains: [CarelessDomain(brokenFrom: 0)])
    #expect(
      result.errors
        == "rasp: error: the domain 'careless' wrote its state as invalid JSON (expected ',' or "
        + "'}' after an object member, found '\"' at byte 10); its encode(_:into:) must write "
        + "one JSON value\n")
    #expect(result.status == 2)
    #expect(result.output.isEmpty)
  }

  @Test func refusesTwoDomainsOfOneName() {
    let result = run(["replay"], domains: [CounterDomain(), GeoDomain(), CounterDomain()])
    #expect(
      result.errors
        == "rasp: error: two domains are named 'counter': each domain needs a name of its own\n")
    #expect(result.status == 2)
  }

  @Test func reportsEveryErrorOfSeveralTogether() {
    let error = RaspCommandError.multiple([
      .invalidFile(
        "a.json", line: 1, column: 2, path: "domains",
        reason: "expected an array, found an object"),
      .invalidFile("b.json", line: nil, column: nil, path: nil, reason: "is empty"),
    ])
    #expect(
      error.description
        == "a.json:1:2: error: at domains: expected an array, found an object\n"
        + "b.json: error: is empty\n")
    #expect(error.exitCode == .failure)
  }
}
