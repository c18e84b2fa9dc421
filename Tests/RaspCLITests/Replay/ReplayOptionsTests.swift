import RaspDomains
import RaspJSON
import RaspReplay
import Testing

@testable import RaspCLI
import RaspTestSupport

/// How `--jobs` is read: given, or by default from the processors and the other options.
@Suite struct ReplayOptionsTests {
  /// The options of `rasp replay <arguments>` on a machine with `processors` processors.
  private func options(_ arguments: [String], processors: Int = 2) throws -> ReplayOptions {
    var environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: RaspMemoryOutput(),
      standardError: RaspMemoryOutput())
    environment.processorCount = processors
    let parsed = try RaspArgumentParser.parse(arguments, spec: ReplayCommand.spec)
    return try ReplayOptions(
      parsed: parsed, domains: RaspBuiltinDomains.all, spec: ReplayCommand.spec,
      environment: environment)
  }

  /// How a replay runs: its threading and how many kernels apply its events.
  private func threads(_ arguments: [String], processors: Int = 2) throws -> String {
    let configuration = try options(arguments + ["log.jsonl"], processors: processors)
      .configuration
    return "\(configuration.threading) \(configuration.jobs)"
  }

  @Test func byDefaultAReplayRunsOnTwoThreadsAndAKeyedFinalOneOnEveryProcessor() throws {
    let keyedFinal = ["--key-by", "device", "--final"]
    #expect(try threads(keyedFinal, processors: 1) == "single 1")
    #expect(try threads(keyedFinal, processors: 2) == "automatic 1")
    #expect(try threads(keyedFinal, processors: 8) == "automatic 7")
    #expect(try threads(keyedFinal, processors: 1_000) == "automatic 255")
    // Every snapshot, or no keys: one thread reads, one applies.
    #expect(try threads(["--key-by", "device"], processors: 8) == "automatic 1")
    #expect(try threads(["--final"], processors: 8) == "automatic 1")
    #expect(try threads([], processors: 8) == "automatic 1")
    #expect(try threads([], processors: 1) == "single 1")
  }

  @Test func theNumberCountsEveryThreadAndAtMostOnePerProcessor() throws {
    let keyed = ["--key-by", "device"]
    #expect(try threads(["-j", "1"] + keyed, processors: 8) == "single 1")
    #expect(try threads(["-j", "2"] + keyed, processors: 8) == "automatic 1")
    #expect(try threads(["-j", "3"] + keyed, processors: 8) == "automatic 2")
    #expect(try threads(["--jobs=8", "--final"] + keyed, processors: 8) == "automatic 7")
    // More threads than processors would take turns on them.
    #expect(try threads(["-j", "3"] + keyed, processors: 2) == "automatic 1")
    #expect(try threads(["-j", "256"] + keyed, processors: 4) == "automatic 3")
    // Without keys, a replay has one stream to apply: one thread, or one reading and one.
    #expect(try threads(["-j", "1"], processors: 8) == "single 1")
    #expect(try threads(["-j", "4"], processors: 8) == "automatic 1")
    #expect(try options(["-j", "4", "log.jsonl"], processors: 8).jobs == 4)
    #expect(try options(["log.jsonl"], processors: 8).jobs == nil)
  }

  @Test(arguments: ["0", "-1", "two", "257", "1.5", ""])
  func aNumberOutOfRangeIsAUsageError(value: String) {
    #expect {
      _ = try options(["--jobs", value, "--key-by", "device", "log.jsonl"])
    } throws: { error in
      guard case .usage(let message, _, _) = error as? RaspCommandError else { return false }
      return message
        == "Invalid value '\(value)' for '--jobs <n>': expected a whole number from 1 to 256"
    }
  }
}

/// Habits from other tools: a flag given twice, a comma list of domains, a field's typo.
@Suite struct ReplayOptionsHabitsTests {
  private func parse(_ arguments: [String]) throws -> ReplayOptions {
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: RaspMemoryOutput(),
      standardError: RaspMemoryOutput(), workingDirectory: Repository.path("fixtures/example"))
    let parsed = try RaspArgumentParser.parse(arguments, spec: ReplayCommand.spec)
    return try ReplayOptions(
      parsed: parsed, domains: RaspBuiltinDomains.all, spec: ReplayCommand.spec,
      environment: environment)
  }

  /// The message of the usage error that `arguments` give.
  private func usageError(_ arguments: [String]) -> String? {
    do {
      _ = try parse(arguments)
      return nil
    } catch {
      guard case .usage(let message, _, _) = error as? RaspCommandError else { return nil }
      return message
    }
  }

  @Test func aFlagGivenTwiceMeansWhatItMeansOnce() throws {
    #expect(try parse(["--final", "--final", "--stats", "--stats"]).isFinal)
    // A value given twice is still refused: which one would count?
    #expect(
      usageError(["--select", "geo.heading", "--select", "nav.tab"])
        == "Option '--select' cannot be given more than once")
  }

  @Test func domainsMayBeAListSeparatedByCommas() throws {
    let listed = try parse(["--domain", "nav,geo", "--domain", "rest"])
    #expect(listed.domains.map(\.name).sorted() == ["geo", "nav", "rest"])
    #expect(
      usageError(["--domain", "geo,nab"])
        == "Unknown domain 'nab' for '--domain <name>'. Did you mean 'nav'?")
    #expect(usageError(["--domain", "geo,"]) == "Unknown domain '' for '--domain <name>'")
  }

  @Test func aFieldThatABuiltInDomainNeverHasIsRefused() throws {
    #expect(
      usageError(["--select", "geo.headng"])
        == "Unknown field 'headng' of domain 'geo' in '--select geo.headng'. "
        + "Did you mean 'geo.heading'?")
    // Fields that exist, deeper paths, lengths and domains that start empty are accepted.
    for path in [
      "geo.heading", "geo.location.latitude", "rest.links.self", "rest.links|length",
      "nav.stack[-1]", "data.order.total", "geo", "event.meta.user",
    ] {
      #expect(usageError(["--select", path]) == nil, "\(path)")
    }
  }

  @Test func aLogWhereThePathBelongsIsNamedAsAFile() {
    // `events.jsonl` is a file in the working directory: not taken for a path.
    #expect(
      usageError(["--select", "events.jsonl"])
        == "'events.jsonl' is a file, not a path, for '--select <path>': put the path before "
        + "it, as in '--select geo.heading events.jsonl'")
    #expect(
      usageError(["--select", "nothing.jsonl"])
        == "Unknown domain 'nothing' in '--select nothing.jsonl': the snapshot holds 'data', "
        + "'geo', 'lifecycle', 'motion', 'nav', 'rest', and 'event.' reads each event's line")
  }
}

/// jq's habits in `--select`: its filters, and `-r`; and where several values cannot go.
@Suite struct ReplayOptionsJQTests {
  /// The options of `rasp replay <arguments>`, or of `rasp check` with `check`.
  private func parse(_ arguments: [String], check: Bool = false) throws -> ReplayOptions {
    let environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: RaspMemoryOutput(),
      standardError: RaspMemoryOutput())
    let spec = check ? CheckCommand.spec : ReplayCommand.spec
    let parsed = try RaspArgumentParser.parse(arguments, spec: spec)
    return try ReplayOptions(
      parsed: parsed, domains: RaspBuiltinDomains.all, spec: spec, environment: environment)
  }

  private func usageError(_ arguments: [String], check: Bool = false) -> String? {
    do {
      _ = try parse(arguments, check: check)
      return nil
    } catch {
      guard case .usage(let message, _, _) = error as? RaspCommandError else { return nil }
      return message
    }
  }

  @Test func selectTakesJQsFilters() throws {
    let options = try parse(["--select", "nav.stack[1:]|keys"])
    #expect(options.select?.filters == [.slice(start: 1, end: nil), .keys])
    #expect(try parse(["--select", "nav.stack|last"]).select?.components.last == .index(-1))
    #expect(try parse(["--select", "|keys"]).select?.filters == [.keys])
    #expect(
      usageError(["--select", "nav.stack|reverse"])
        == "Invalid path 'nav.stack|reverse' for '--select <path>': only 'length', 'keys', "
        + "'first' or 'last' may follow '|' at column 11")
  }

  @Test(arguments: ["", " "])
  func anEmptyKeyPathIsRefused(path: String) throws {
    // Most likely an unset shell variable: `--key-by "$KEY"`.
    for check in [false, true] {
      let golden = check ? ["--golden", "g.jsonl"] : []
      #expect(
        usageError(golden + ["--key-by", path], check: check)
          == "Invalid path '\(path)' for '--key-by <path>': expected a path such as 'source' or "
          + "'payload.deviceId' ('.' for the whole event)")
    }
    #expect(try parse(["--key-by", "."]).configuration.keyPath == JSONPath("."))
  }

  @Test func rawOutputIsAFlagOfReplayOnly() throws {
    #expect(try parse(["-r", "--select", "nav.tab"]).isRaw)
    #expect(try parse(["--raw-output"]).isRaw)
    #expect(try !parse(["--select", "nav.tab"]).isRaw)
    #expect(throws: RaspCommandError.self) {
      try parse(["--golden", "g.jsonl", "-r"], check: true)
    }
  }

  @Test func severalValuesPerEventAreRefusedWhereARecordIsOneValue() throws {
    let each = ["--select", "nav.stack[].title"]
    #expect(try parse(each).select?.filters == [.each, .key("title")])
    #expect(try parse(each + ["--final", "--pretty", "-r"]).select != nil)
    let start = "'[]' in '--select nav.stack[].title' prints several values, one per line, which "
    let end = "; select the whole 'nav.stack' instead"
    #expect(
      usageError(each + ["--with-event"])
        == start + "'--with-event' cannot wrap in one record" + end)
    #expect(
      usageError(each + ["--key-by", "source"])
        == start + "'--key-by' cannot wrap in one record" + end)
    #expect(
      usageError(each + ["--emit", "diff"])
        == start + "'--emit diff' cannot diff as one value" + end)
    #expect(
      usageError(each + ["--golden", "g.jsonl"], check: true)
        == start + "'rasp check' cannot compare with one golden line" + end)
    // One value per event, computed: accepted everywhere.
    for path in ["nav.stack[1:]", "rest.links|keys", "nav.stack|last"] {
      #expect(usageError(["--select", path, "--with-event", "--emit", "diff"]) == nil, "\(path)")
      #expect(usageError(["--select", path, "--golden", "g.jsonl"], check: true) == nil, "\(path)")
    }
  }

  /// A spec domain's fields are its initial object's and those its operations set; one whose
  /// operations may add any member (a `merge` of the payload into the whole state) is not
  /// checked, nor one whose state is not an object.
  @Test func aSpecDomainsFieldsAreThoseItsStateAndOperationsName() throws {
    func domain(_ initial: JSONValue, _ paths: [String], merge: Bool = false) throws
      -> RaspSpecDomain
    {
      let operations = try paths.map { path -> RaspSpecOperation in
        merge
          ? .merge(try RaspSpecPath(path), value: .event(try JSONPath("payload"), default: nil))
          : .set(try RaspSpecPath(path), value: .literal(1))
      }
      return RaspSpecDomain(
        name: "cart", summary: "", initial: initial,
        events: [RaspSpecEventDefinition(name: "e", summary: "", operations: operations)])
    }
    let cart = try domain(["items": [], "total": 0], ["paid", "items[0]", "coupon.code"])
    #expect(ReplayOptions.fixedFields(of: cart) == ["coupon", "items", "paid", "total"])
    #expect(ReplayOptions.fixedFields(of: try domain(["a": 1], [""], merge: true)) == nil)
    #expect(ReplayOptions.fixedFields(of: try domain(["a": 1], ["[]"])) == nil)
    #expect(ReplayOptions.fixedFields(of: try domain(.number(JSONNumber(0)), [])) == nil)
  }
}
