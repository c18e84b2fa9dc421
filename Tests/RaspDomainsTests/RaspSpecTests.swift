import RaspJSON
import Testing

@testable import RaspDomains

/// The problems of a spec, as `line:column: at path: reason`.
fileprivate func problems(_ text: String, existing: [String: String] = [:]) -> [String] {
  do {
    _ = try RaspSpec(parsing: Array(text.utf8), existingDomains: existing)
    return []
  } catch {
    return error.problems.map(\.description)
  }
}

/// The problems of a spec, as `at path: reason`, without their line and column.
fileprivate func reasons(_ text: String, existing: [String: String] = [:]) -> [String] {
  problems(text, existing: existing).map { problem in
    guard let space = problem.firstIndex(of: " ") else { return problem }
    return String(problem[problem.index(after: space)...])
  }
}

/// A spec of one domain `d` whose events are `events` (JSON text of an array).
fileprivate func spec(events: String) -> String {
  #"{"domains": [{"name": "d", "events": \#(events)}]}"#
}

/// A spec of one domain `d` with one event `e` whose operations are `ops` (JSON text of an array).
fileprivate func spec(ops: String) -> String {
  spec(events: #"[{"name": "e", "ops": \#(ops)}]"#)
}

fileprivate let cart = """
  {
    "domains": [
      {
        "name": "cart",
        "summary": "The shopping cart.",
        "initial": {"items": [], "total": 0},
        "events": [
          {"name": "add", "summary": "An item was added.", "ops": [
            {"op": "append", "path": "items", "from": "payload.sku"},
            {"op": "increment", "path": "total", "from": "payload.price", "default": 0}]},
          {"name": "remove", "ops": [\
  {"op": "remove", "path": "items", "value": {"from": "payload.sku"}}]},
          {"name": "item.dropped", "ops": [{"op": "remove", "path": "items", "index": -1}]},
          {"name": "checkout", "ops": [
            {"op": "clear", "path": "items"}, {"op": "set", "path": "total", "value": 0},
            {"op": "set", "path": "meta", "value": {"literal": {"from": "literally"}}}]}
        ]
      }
    ]
  }
  """

@Suite struct RaspSpecTests {
  // MARK: A valid spec

  @Test func readsDomainsEventsAndOperations() throws {
    let parsed = try RaspSpec(parsing: Array(cart.utf8))
    #expect(parsed.domains.count == 1)
    #expect(parsed.eventTypeCount == 4)
    let domain = try #require(parsed.domains.first)
    #expect(domain.name == "cart")
    #expect(domain.summary == "The shopping cart.")
    #expect(domain.initial == ["items": [], "total": 0])
    #expect(domain.events.map(\.name) == ["add", "remove", "item.dropped", "checkout"])
    let add = domain.eventDefinitions[0]
    #expect(
      add.operations == [
        .append(
          try RaspSpecPath("items"), value: .event(try JSONPath("payload.sku"), default: nil)),
        .increment(
          try RaspSpecPath("total"), by: .event(try JSONPath("payload.price"), default: 0)),
      ])
    #expect(
      domain.eventDefinitions[1].operations == [
        .remove(try RaspSpecPath("items"), value: .event(try JSONPath("payload.sku"), default: nil))
      ])
    #expect(
      domain.eventDefinitions[2].operations == [
        .removeAt(try RaspSpecPath("items"), index: .literal(-1))
      ])
    #expect(
      domain.eventDefinitions[3].operations.last
        == .set(try RaspSpecPath("meta"), value: .literal(["from": "literally"])))
  }

  @Test func derivesSummariesAndPayloadFieldsFromTheOperations() throws {
    let domain = try #require(try RaspSpec(parsing: Array(cart.utf8)).domains.first)
    #expect(domain.events[0].summary == "An item was added.")
    #expect(domain.events[1].summary == "Remove from 'items'.")
    #expect(domain.events[3].summary == "Clear 'items'; set 'total'; set 'meta'.")
    #expect(
      domain.events[0].fields == [
        RaspFieldSchema(
          name: "sku", type: "any", isRequired: true, summary: "Read by append to 'items'."),
        RaspFieldSchema(
          name: "price", type: "number", isRequired: false, summary: "Read by increment 'total'."),
      ])
  }

  @Test func defaultsTheInitialStateToAnEmptyObjectAndAllowsNoOperations() throws {
    let parsed = try RaspSpec(parsing: Array(spec(ops: "[]").utf8))
    #expect(parsed.domains.first?.initial == [:])
    #expect(parsed.domains.first?.events.first?.summary == "Changes nothing.")
  }

  @Test func readsTheTypesOfOtherDomainsAnEventStandsFor() throws {
    let parsed = try RaspSpec(
      parsing: Array(
        spec(
          events: #"""
            [{"name": "e", "ops": []},
             {"on": ["user/loggedOut", "*/reset", "ADD_TODO", "a.b/c"], "ops": []},
             {"name": "f", "on": ["x.y"], "ops": []}]
            """#
        ).utf8))
    let events = try #require(parsed.domains.first).eventDefinitions
    #expect(events.map(\.name) == ["e", "", "f"])
    // Redux's first '/' is read as the dot; a '/' after a dot is part of the event's name.
    #expect(events.map(\.on) == [[], ["user.loggedOut", "*.reset", "ADD_TODO", "a.b/c"], ["x.y"]])
    #expect(
      try #require(parsed.domains.first).events.map(\.listensTo)
        == [[], ["user.loggedOut", "*.reset", "ADD_TODO", "a.b/c"], ["x.y"]])
  }

  @Test func reportsWhatIsWrongWithAnOn() {
    let own =
      "is a type of this domain: its events are the domain's own, by their 'name'; 'on' names "
      + "the types of other domains"
    #expect(
      reasons(spec(events: #"[{"on": [], "ops": []}, {"on": "x.y", "ops": []}]"#)) == [
        "at domains[0].events[0].on: expected at least one type, such as 'user.loggedOut' or "
          + "'*.reset'",
        "at domains[0].events[1].on: expected an array, found a string",
      ])
    #expect(
      reasons(spec(events: #"[{"on": ["d.e", "d/x", "a b", 1, "d.*"], "ops": []}]"#)) == [
        "at domains[0].events[0].on[0]: 'd.e' " + own,
        "at domains[0].events[0].on[1]: 'd/x' " + own,
        "at domains[0].events[0].on[2]: 'a b' is not an event type: a type has no spaces or "
          + "control characters, such as 'user.loggedOut', 'user/loggedOut' or '*.reset'",
        "at domains[0].events[0].on[3]: expected a string, found a number",
      ])
    #expect(
      reasons(spec(events: #"[{"ops": []}]"#)) == [
        "at domains[0].events[0]: missing required key 'name'"
      ])
  }

  @Test func skipsALeadingByteOrderMark() throws {
    let parsed = try RaspSpec(parsing: [0xEF, 0xBB, 0xBF] + Array(spec(ops: "[]").utf8))
    #expect(parsed.domains.map(\.name) == ["d"])
  }

  // MARK: The document

  @Test func reportsInvalidJSONWithItsLineAndColumn() {
    #expect(problems("{\n  \"domains\": [,]\n}") == ["2:15: expected a value, found ','"])
    #expect(problems(#"{"domains": [], "domains": []}"#) == ["1:17: duplicate key 'domains'"])
    #expect(problems("") == ["1:1: unexpected end of input, expected a value"])
  }

  @Test func reportsARootThatIsNotAnObject() {
    #expect(problems("[]") == ["1:1: expected an object with a 'domains' array, found an array"])
  }

  @Test func reportsMissingAndUnknownKeysOfTheRoot() {
    #expect(problems("{}") == ["1:1: missing required key 'domains'"])
    #expect(
      problems(#"{"domain": []}"#) == [
        "1:1: missing required key 'domains'",
        "1:2: at domain: unknown key 'domain'. Did you mean 'domains'?",
      ])
    #expect(
      reasons(#"{"domains": [], "version": 1}"#) == [
        "at domains: a spec must define at least one domain",
        "at version: unknown key 'version': a spec takes 'domains'",
      ])
  }

  @Test func reportsDomainsThatAreNotAnArrayOfObjects() {
    #expect(reasons(#"{"domains": {}}"#) == ["at domains: expected an array, found an object"])
    #expect(
      reasons(#"{"domains": ["cart"]}"#) == [
        "at domains[0]: expected a domain object, found a string"
      ])
  }

  // MARK: Domains

  @Test func reportsMissingUnknownAndMistypedKeysOfADomain() {
    #expect(
      reasons(#"{"domains": [{"nmae": "d", "summary": 1, "events": {}, "extra": 1}]}"#) == [
        "at domains[0]: missing required key 'name'",
        "at domains[0].nmae: unknown key 'nmae'. Did you mean 'name'?",
        "at domains[0].summary: expected a string, found a number",
        "at domains[0].events: expected an array, found an object",
        "at domains[0].extra: unknown key 'extra': "
          + "a domain takes 'name', 'summary', 'initial' and 'events'",
      ])
  }

  @Test func reportsADomainNameThatIsNotAPlainIdentifier() {
    for name in ["my cart", "1cart", "my-cart", "a.b", "", "é"] {
      #expect(
        reasons(#"{"domains": [{"name": "\#(name)", "events": []}]}"#) == [
          "at domains[0].name: domain name '\(name)' is not a plain identifier: "
            + "use letters, digits and '_', starting with a letter or '_'"
        ])
    }
    #expect(reasons(#"{"domains": [{"name": "_My_Cart2", "events": []}]}"#) == [])
  }

  @Test func reportsADomainDefinedTwiceOrDefinedElsewhere() {
    let text =
      #"{"domains": [{"name": "d", "events": []}, {"name": "d", "events": []}, "#
      + #"{"name": "geo", "events": []}]}"#
    #expect(
      reasons(text, existing: ["geo": "built in"]) == [
        "at domains[1].name: domain 'd' is defined twice: first at domains[0].name",
        "at domains[2].name: a domain named 'geo' already exists (built in)",
      ])
  }

  // MARK: Events

  @Test func reportsEventsThatAreNotObjectsOrLackKeys() {
    #expect(
      reasons(spec(events: #"[1, {"nam": "e"}, {"name": 2, "ops": [], "summary": []}]"#)) == [
        "at domains[0].events[0]: expected an event object, found a number",
        "at domains[0].events[1]: missing required key 'name'",
        "at domains[0].events[1]: missing required key 'ops'",
        "at domains[0].events[1].nam: unknown key 'nam'. Did you mean 'name'?",
        "at domains[0].events[2].name: expected a string, found a number",
        "at domains[0].events[2].summary: expected a string, found an array",
      ])
  }

  @Test func reportsInvalidAndRepeatedEventNames() {
    #expect(
      reasons(
        spec(
          events:
            #"[{"name": "a", "ops": []}, {"name": "a", "ops": []}, {"name": "a.", "ops": []}, "#
            + #"{"name": "Order Completed", "ops": []}, {"name": "item-added", "ops": []}, "#
            + #"{"name": "", "ops": []}, {"name": "a\tb", "ops": []}, {"name": "a..b", "ops": []}]"#
        ))
        == [
          "at domains[0].events[1].name: event type 'd.a' is defined twice: "
            + "first at domains[0].events[0].name",
          "at domains[0].events[2].name: event name 'a.' is not valid: \(Self.eventNameRule)",
          "at domains[0].events[5].name: event name '' is not valid: \(Self.eventNameRule)",
          "at domains[0].events[6].name: event name 'a\tb' is not valid: \(Self.eventNameRule)",
          "at domains[0].events[7].name: event name 'a..b' is not valid: \(Self.eventNameRule)",
        ])
  }

  /// What the validator says an event name may be.
  static let eventNameRule =
    "an event name is any text (such as 'added', 'item.added' or 'Order Completed') without "
    + "control characters, and with no empty part between dots"

  @Test func acceptsEventNamesWithSpacesAndDashes() {
    #expect(
      reasons(
        spec(events: #"[{"name": "Order Completed", "ops": []}, {"name": "a-b", "ops": []}]"#))
        == [])
  }

  // MARK: Operations

  @Test func reportsOperationsThatAreNotAnArrayOfObjects() {
    #expect(
      reasons(spec(ops: "{}")) == [
        "at domains[0].events[0].ops: expected an array, found an object"
      ])
    #expect(
      reasons(spec(ops: #"["set"]"#)) == [
        "at domains[0].events[0].ops[0]: expected an operation object, found a string"
      ])
  }

  @Test func reportsUnknownOperationsWithASuggestion() {
    #expect(
      reasons(
        spec(
          ops:
            #"[{"op": "apend", "path": "xs", "value": 1}, {"op": "frobnicate", "path": "x"}, "#
            + #"{"op": 3, "path": "x"}]"#
        )) == [
          "at domains[0].events[0].ops[0].op: unknown operation 'apend'. Did you mean 'append'?",
          "at domains[0].events[0].ops[1].op: unknown operation 'frobnicate': "
            + "use 'set', 'unset', 'append', 'remove', 'pop', 'increment', 'decrement', "
            + "'merge', 'clear' or 'toggle'",
          "at domains[0].events[0].ops[2].op: expected a string, found a number",
        ])
  }

  @Test func stillChecksTheFromPathOfAnUnknownOperation() {
    #expect(
      reasons(spec(ops: #"[{"op": "apend", "path": "xs", "from": "paylaod.sku", "by": 1}]"#)) == [
        "at domains[0].events[0].ops[0].op: unknown operation 'apend'. Did you mean 'append'?",
        "at domains[0].events[0].ops[0].from: "
          + "a 'from' path starts with 'payload', 'ts', 'source', 'type' or another field of "
          + "the log's line, such as 'meta.user', found 'paylaod'. Did you mean 'payload'?",
      ])
  }

  @Test func reportsMissingAndUnknownKeysOfAnOperation() {
    #expect(
      reasons(
        spec(
          ops:
            #"[{"path": "x"}, {"op": "pop"}, {"op": "pop", "path": "x", "vaule": 1}, "#
            + #"{"op": "set", "path": "x", "value": 1, "by": 2}]"#
        )) == [
          "at domains[0].events[0].ops[0]: missing required key 'op'",
          "at domains[0].events[0].ops[1]: missing required key 'path'",
          "at domains[0].events[0].ops[2].vaule: unknown key 'vaule': "
            + "an operation takes 'op', 'path' and 'if'",
          "at domains[0].events[0].ops[3].by: key 'by' does not apply to operation 'set', "
            + "which takes 'path', 'value', 'from', 'default' and 'if'",
        ])
    #expect(
      reasons(spec(ops: #"[{"op": "set", "path": "x", "vaule": 1}]"#)) == [
        "at domains[0].events[0].ops[0]: operation 'set' needs 'value' or 'from'",
        "at domains[0].events[0].ops[0].vaule: unknown key 'vaule'. Did you mean 'value'?",
      ])
  }

  @Test func reportsProblemsInDocumentOrderWhateverOrderTheyWereFoundIn() {
    #expect(
      reasons(spec(ops: #"[{"path": 1, "bogus": true, "op": "zap"}]"#)) == [
        "at domains[0].events[0].ops[0].path: expected a string, found a number",
        "at domains[0].events[0].ops[0].bogus: unknown key 'bogus': "
          + "an operation takes 'op', 'path', 'value', 'from', 'default', 'by', 'index', "
          + "'unique' and 'if'",
        "at domains[0].events[0].ops[0].op: unknown operation 'zap'. Did you mean 'pop'?",
      ])
  }

  @Test func reportsInvalidPathsToChange() {
    #expect(
      reasons(
        spec(
          ops:
            #"[{"op": "set", "path": "a..b", "value": 1}, {"op": "clear", "path": "xs|length"}, "#
            + #"{"op": "unset", "path": "."}, {"op": "pop", "path": ["xs"]}]"#
        )) == [
          "at domains[0].events[0].ops[0].path: invalid path 'a..b': empty key at column 3",
          "at domains[0].events[0].ops[1].path: a path to change cannot end in '|length'",
          "at domains[0].events[0].ops[2].path: 'unset' needs a path inside the state; "
            + "to empty it, use 'set' or 'clear'",
          "at domains[0].events[0].ops[3].path: expected a string, found an array",
        ])
    #expect(
      reasons(spec(ops: #"[{"op": "unset", "path": "**.ts"}]"#)) == [
        "at domains[0].events[0].ops[0].path: invalid path '**.ts': "
          + "'**' is only allowed in patterns such as --ignore at column 1"
      ])
  }

  // MARK: Paths that select, toggle, unique, if

  @Test func readsFiltersKeysFromTheEventToggleUniqueAndIf() throws {
    let text = spec(
      ops: #"""
        [{"op": "toggle", "path": "todos[?id == payload].completed"},
         {"op": "remove", "path": "byId[payload.id]"},
         {"op": "append", "path": "colors", "from": "payload.color", "unique": true,
          "if": "payload.changeType == 'added'"}]
        """#)
    let domain = try #require(try RaspSpec(parsing: Array(text.utf8)).domains.first)
    let operations = domain.eventDefinitions[0].operations
    #expect(operations[0] == .toggle(try RaspSpecPath("todos[?id == payload].completed")))
    #expect(operations[1] == .removeSelected(try RaspSpecPath("byId[payload.id]")))
    #expect(
      operations[2]
        == .onlyIf(
          RaspSpecCondition(
            field: try JSONPath("payload.changeType"), value: .literal("added")),
          .appendUnique(
            try RaspSpecPath("colors"), value: .event(try JSONPath("payload.color"), default: nil))
        ))
    #expect(
      operations[2].description
        == #"{"op":"append","path":"colors","value":{"from":"payload.color"},"unique":true,"#
        + #""if":"payload.changeType == \"added\""}"#)
    #expect(domain.events[0].fields.map(\.name) == ["id", "color", "changeType"])
    #expect(domain.events[0].fields.map(\.type) == ["string or integer", "any", "any"])
    #expect(domain.events[0].fields.map(\.isRequired) == [true, true, false])
  }

  @Test func reportsMistakesInPathsThatSelectWithTheirColumn() {
    #expect(
      problems(spec(ops: #"[{"op": "togle", "path": "todos[?id payload]"}]"#)) == [
        "1:68: at domains[0].events[0].ops[0].op: unknown operation 'togle'. "
          + "Did you mean 'toggle'?",
        "1:85: at domains[0].events[0].ops[0].path: invalid path 'todos[?id payload]': "
          + "expected '==' or '!=' after the field at column 11",
      ])
    #expect(
      reasons(
        spec(
          ops: #"[{"op": "set", "path": "a[?id == paylaod.id]", "value": 1}, "#
            + #"{"op": "unset", "path": "byId[sorce]"}, "#
            + #"{"op": "remove", "path": "items"}]"#)) == [
          "at domains[0].events[0].ops[0].path: a filter's value starts with 'payload', 'ts', "
            + "'source', 'type' or another field of the log's line, such as 'meta.user', found "
            + "'paylaod'. Did you mean 'payload'?",
          "at domains[0].events[0].ops[1].path: a key from the event starts with 'payload', 'ts', "
            + "'source', 'type' or another field of the log's line, such as 'meta.user', found "
            + "'sorce'. Did you mean 'source'?",
          "at domains[0].events[0].ops[2]: operation 'remove' needs 'value', 'from' or 'index', "
            + "or a path that ends in '[]', a filter or a key from the event",
        ])
  }

  @Test func reportsMistakesInUniqueAndIf() {
    #expect(
      reasons(
        spec(
          ops: #"[{"op": "append", "path": "a", "value": 1, "unique": "yes"}, "#
            + #"{"op": "set", "path": "a", "value": 1, "unique": true}, "#
            + #"{"op": "set", "path": "a", "value": 1, "if": "payload.kind = 'x'"}, "#
            + #"{"op": "set", "path": "a", "value": 1, "if": "paylod.kind == 'x'"}]"#)) == [
          "at domains[0].events[0].ops[0].unique: expected true or false, found a string",
          "at domains[0].events[0].ops[1].unique: key 'unique' does not apply to operation 'set', "
            + "which takes 'path', 'value', 'from', 'default' and 'if'",
          "at domains[0].events[0].ops[2].if: invalid condition 'payload.kind = 'x'': expected "
            + "'==' or '!=' after the field at column 14",
          "at domains[0].events[0].ops[3].if: an 'if' condition starts with 'payload', 'ts', "
            + "'source', 'type' or another field of the log's line, such as 'meta.user', found "
            + "'paylod'. Did you mean 'payload'?",
        ])
  }

  @Test func reportsMissingAndConflictingOperands() {
    #expect(
      reasons(
        spec(
          ops:
            #"[{"op": "append", "path": "x"}, {"op": "remove", "path": "x"}, "#
            + #"{"op": "merge", "path": "x", "default": {}}]"#
        )) == [
          "at domains[0].events[0].ops[0]: operation 'append' needs 'value' or 'from'",
          "at domains[0].events[0].ops[1]: operation 'remove' needs 'value', 'from' or 'index', "
            + "or a path that ends in '[]', a filter or a key from the event",
          "at domains[0].events[0].ops[2]: operation 'merge' needs 'value' or 'from'",
          "at domains[0].events[0].ops[2].default: 'default' applies only with 'from'",
        ])
    #expect(
      reasons(
        spec(
          ops:
            #"[{"op": "set", "path": "x", "value": 1, "from": "ts"}, "#
            + #"{"op": "remove", "path": "x", "index": 0, "value": 1}, "#
            + #"{"op": "increment", "path": "n", "from": "payload.n", "by": 1}]"#
        )) == [
          "at domains[0].events[0].ops[0].from: 'from' cannot be given with 'value': "
            + "give one of them",
          "at domains[0].events[0].ops[1].value: 'value' cannot be given with 'index': "
            + "give one of them",
          "at domains[0].events[0].ops[2].by: 'by' cannot be given with 'from': give one of them",
        ])
  }

  @Test func reportsOperandsOfTheWrongKind() {
    #expect(
      reasons(
        spec(
          ops:
            #"[{"op": "increment", "path": "n", "by": "1"}, "#
            + #"{"op": "remove", "path": "x", "index": 1.5}, "#
            + #"{"op": "remove", "path": "x", "index": "0"}, "#
            + #"{"op": "merge", "path": "o", "value": [1]}, "#
            + #"{"op": "decrement", "path": "n", "from": "payload.n", "default": true}]"#
        )) == [
          "at domains[0].events[0].ops[0].by: expected a number, found a string",
          "at domains[0].events[0].ops[1].index: expected an integer, found 1.5",
          "at domains[0].events[0].ops[2].index: expected an integer, found a string",
          "at domains[0].events[0].ops[3].value: expected an object, found an array",
          "at domains[0].events[0].ops[4].default: expected a number, found a boolean",
        ])
  }

  @Test func readsOperandObjectsThatReadTheEventOrHoldALiteral() {
    #expect(
      reasons(
        spec(
          ops:
            #"[{"op": "set", "path": "a", "#
            + #""value": {"from": "payload.a", "default": null, "form": 1}}, "#
            + #"{"op": "set", "path": "b", "value": {"default": 1, "from": 2}}, "#
            + #"{"op": "set", "path": "c", "value": {"literal": 1, "from": "ts"}}, "#
            + #"{"op": "increment", "path": "d", "by": {"literal": "x"}}]"#
        )) == [
          "at domains[0].events[0].ops[0].value.form: unknown key 'form'. Did you mean 'from'?",
          "at domains[0].events[0].ops[1].value.from: expected a string, found a number",
          "at domains[0].events[0].ops[2].value.from: unknown key 'from': "
            + "a literal operand takes 'literal'",
          "at domains[0].events[0].ops[3].by.literal: expected a number, found a string",
        ])
  }

  @Test func reportsFromPathsThatDoNotReadTheEvent() {
    #expect(
      reasons(
        spec(
          ops:
            #"[{"op": "set", "path": "a", "from": "paylod.sku"}, "#
            + #"{"op": "set", "path": "a", "from": "sorce"}, "#
            + #"{"op": "set", "path": "a", "from": "ts.seconds"}, "#
            + #"{"op": "set", "path": "a", "from": "payload[0"}, "#
            + #"{"op": "set", "path": "a", "from": "."}]"#
        )) == [
          "at domains[0].events[0].ops[0].from: "
            + "a 'from' path starts with 'payload', 'ts', 'source', 'type' or another field of "
            + "the log's line, such as 'meta.user', found 'paylod'. Did you mean 'payload'?",
          "at domains[0].events[0].ops[1].from: "
            + "a 'from' path starts with 'payload', 'ts', 'source', 'type' or another field of "
            + "the log's line, such as 'meta.user', found 'sorce'. Did you mean 'source'?",
          "at domains[0].events[0].ops[2].from: 'ts' holds a single value: "
            + "only 'payload' has fields",
          "at domains[0].events[0].ops[3].from: invalid path 'payload[0': missing ']' at column 10",
          "at domains[0].events[0].ops[4].from: "
            + "a 'from' path must start with 'payload', 'ts', 'source', 'type' or another field "
            + "of the log's line, such as 'meta.user', found '.'",
        ])
  }

  @Test func readsOtherFieldsOfTheLineAsWritten() {
    // `id`, `time` and `user` are near `ts` and `type`, but short names are real fields.
    #expect(
      reasons(
        spec(
          ops:
            #"[{"op": "set", "path": "a", "from": "user.id"}, "#
            + #"{"op": "set", "path": "b", "from": "id"}, "#
            + #"{"op": "set", "path": "c", "from": "time"}]"#
        )) == [])
  }

  // MARK: Places

  @Test func givesEachProblemItsLineAndColumnCountingCharacters() {
    let text = """
      {"domains": [
        {"name": "d", "summary": "½ price", "events": [
          {"name": "e", "ops": [{"op": "apend", "path": "x", "value": 1}]}]}]}
      """
    #expect(
      problems(text) == [
        "3:34: at domains[0].events[0].ops[0].op: unknown operation 'apend'. Did you mean 'append'?"
      ])
    let accented = #"{"domains": [{"summary": "éé", "name": 1, "events": []}]}"#
    #expect(problems(accented) == ["1:40: at domains[0].name: expected a string, found a number"])
  }

  @Test func describesAProblemWithoutAPathByItsPlaceAlone() {
    let problem = RaspSpecProblem(
      offset: 0, line: 1, column: 1, path: nil, reason: "expected an object")
    #expect(problem.description == "1:1: expected an object")
    #expect(
      RaspSpecError(problems: [problem, problem]).description
        == "1:1: expected an object\n1:1: expected an object")
  }
}
