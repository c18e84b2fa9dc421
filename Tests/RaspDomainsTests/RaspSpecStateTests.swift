import RaspJSON
import Testing
import RaspTestSupport

@testable import RaspDomains

/// A path from text, for brevity.
fileprivate func at(_ text: String) -> RaspSpecPath {
  // The paths in these tests are valid; a mistake in one is a mistake in the test.
  (try? RaspSpecPath(text)) ?? RaspSpecPath(components: [.key("invalid test path '\(text)'")])
}

/// A path of the event from text, for brevity.
fileprivate func reading(_ text: String) -> JSONPath {
  (try? JSONPath(text)) ?? JSONPath(components: [.key("invalid test path '\(text)'")])
}

extension JSONValue {
  /// The value at a `--select` path, for brevity.
  fileprivate func evaluate(at text: String) -> JSONValue? {
    (try? JSONPath(text, allowsFilters: true))?.evaluate(self)
  }
}

/// The state after applying `operations` to `value` as one event.
fileprivate func applying(_ operations: [RaspSpecOperation], to value: JSONValue) throws
  -> JSONValue
{
  var state = RaspSpecState(value)
  try state.apply(event: RaspSpecEvent(operations: operations))
  return state.value
}

/// The reason an event of `operations` is rejected, and whether the state stayed as it was.
fileprivate func rejection(_ operations: [RaspSpecOperation], on value: JSONValue) -> (
  reason: String, isUnchanged: Bool
)? {
  var state = RaspSpecState(value)
  do {
    try state.apply(event: RaspSpecEvent(operations: operations))
    return nil
  } catch {
    return (error.description, state.value == value)
  }
}

@Suite struct RaspSpecStateTests {
  // MARK: set

  @Test func setReplacesAValue() throws {
    #expect(try applying([.set(at("total"), value: .literal(7))], to: ["total": 0]) == ["total": 7])
  }

  @Test func setCreatesMissingAndNullParentObjects() throws {
    let state = try applying([.set(at("a.b.c"), value: .literal(true))], to: ["a": nil])
    #expect(state == ["a": ["b": ["c": true]]])
  }

  @Test func setReplacesAnArrayElementCountingNegativeIndicesFromTheEnd() throws {
    #expect(
      try applying([.set(at("xs[-1]"), value: .literal(9))], to: ["xs": [1, 2]]) == ["xs": [1, 9]])
    #expect(
      try applying([.set(at("xs.0"), value: .literal(9))], to: ["xs": [1, 2]]) == ["xs": [9, 2]])
  }

  @Test func setReplacesTheWholeStateAtTheRootPath() throws {
    #expect(try applying([.set(at("."), value: .literal([1]))], to: ["a": 1]) == [1])
  }

  @Test func setRejectsAnIndexOutOfRange() {
    let result = rejection([.set(at("xs[2]"), value: .literal(1))], on: ["xs": [1, 2]])
    #expect(
      result?.reason
        == "event rejected: cannot set 'xs[2]': index 2 is out of range: 'xs' has 2 elements")
    #expect(result?.isUnchanged == true)
  }

  @Test func setRejectsAPathThroughAScalar() {
    let result = rejection([.set(at("total.net"), value: .literal(1))], on: ["total": 5])
    #expect(
      result?.reason
        == "event rejected: cannot set 'total.net': 'total' holds a number, not an object")
  }

  @Test func setRejectsAKeyOnAnArrayAndAnIndexOnAnObject() {
    #expect(
      rejection([.set(at("xs.first"), value: .literal(1))], on: ["xs": []])?.reason
        == "event rejected: cannot set 'xs.first': 'xs' holds an array, not an object")
    #expect(
      rejection([.set(at("o[0]"), value: .literal(1))], on: ["o": [:]])?.reason
        == "event rejected: cannot set 'o[0]': 'o' holds an object, not an array")
  }

  @Test func setDoesNotCreateArrays() {
    #expect(
      rejection([.set(at("xs[0]"), value: .literal(1))], on: [:])?.reason
        == "event rejected: cannot set 'xs[0]': there is no array at 'xs'")
    #expect(
      rejection([.set(at("xs[0]"), value: .literal(1))], on: ["xs": nil])?.reason
        == "event rejected: cannot set 'xs[0]': 'xs' is null, not an array")
  }

  // MARK: unset

  @Test func unsetRemovesAMemberOrAnElement() throws {
    #expect(try applying([.unset(at("a"))], to: ["a": 1, "b": 2]) == ["b": 2])
    #expect(try applying([.unset(at("xs[0]"))], to: ["xs": [1, 2]]) == ["xs": [2]])
    #expect(try applying([.unset(at("a.b"))], to: ["a": ["b": 1]]) == ["a": [:]])
  }

  @Test func unsetDoesNothingWhenNothingIsThere() throws {
    let state: JSONValue = ["a": 1, "xs": [1], "n": nil]
    #expect(try applying([.unset(at("missing"))], to: state) == state)
    #expect(try applying([.unset(at("missing.deeper"))], to: state) == state)
    #expect(try applying([.unset(at("xs[5]"))], to: state) == state)
    #expect(try applying([.unset(at("a.b"))], to: state) == state)
    #expect(try applying([.unset(at("n.b"))], to: state) == state)
    #expect(try applying([.unset(at("xs.key"))], to: state) == state)
  }

  // MARK: append

  @Test func appendAddsAtTheEndAndCreatesAMissingOrNullArray() throws {
    #expect(
      try applying([.append(at("xs"), value: .literal("b"))], to: ["xs": ["a"]]) == [
        "xs": ["a", "b"]
      ])
    #expect(try applying([.append(at("xs"), value: .literal(1))], to: [:]) == ["xs": [1]])
    #expect(try applying([.append(at("xs"), value: .literal(1))], to: ["xs": nil]) == ["xs": [1]])
    #expect(try applying([.append(at("a.xs"), value: .literal(1))], to: [:]) == ["a": ["xs": [1]]])
  }

  @Test func appendRejectsAValueThatIsNotAnArray() {
    let result = rejection([.append(at("total"), value: .literal(1))], on: ["total": 3])
    #expect(
      result?.reason == "event rejected: cannot append to 'total': it holds a number, not an array")
  }

  // MARK: remove

  @Test func removeTakesOutTheFirstEqualElement() throws {
    let state = try applying(
      [.remove(at("xs"), value: .literal("a"))], to: ["xs": ["a", "b", "a"]])
    #expect(state == ["xs": ["b", "a"]])
  }

  @Test func removeComparesNumbersByValue() throws {
    #expect(
      try applying([.remove(at("xs"), value: .literal(1.0))], to: ["xs": [1, 2]]) == ["xs": [2]])
  }

  @Test func removeRejectsAValueThatIsNotThere() {
    let result = rejection([.remove(at("xs"), value: .literal("c"))], on: ["xs": ["a"]])
    #expect(result?.reason == "event rejected: cannot remove \"c\" from 'xs': no element equals it")
  }

  @Test func removeRejectsAMissingOrNonArrayTarget() {
    #expect(
      rejection([.remove(at("xs"), value: .literal(1))], on: [:])?.reason
        == "event rejected: cannot remove 1 from 'xs': there is nothing there")
    #expect(
      rejection([.remove(at("xs"), value: .literal(1))], on: ["xs": "a"])?.reason
        == "event rejected: cannot remove 1 from 'xs': it holds a string, not an array")
    #expect(
      rejection([.remove(at("a.xs"), value: .literal(1))], on: [:])?.reason
        == "event rejected: cannot remove 1 from 'a.xs': there is nothing at 'a'")
    #expect(
      rejection([.remove(at("a.xs"), value: .literal(1))], on: ["a": nil])?.reason
        == "event rejected: cannot remove 1 from 'a.xs': 'a' is null")
  }

  @Test func removeAtTakesOutTheElementAtAnIndex() throws {
    #expect(
      try applying([.removeAt(at("xs"), index: .literal(0))], to: ["xs": [1, 2, 3]]) == [
        "xs": [2, 3]
      ])
    #expect(
      try applying([.removeAt(at("xs"), index: .literal(-1))], to: ["xs": [1, 2, 3]]) == [
        "xs": [1, 2]
      ])
  }

  @Test func removeAtRejectsAnIndexOutOfRange() {
    #expect(
      rejection([.removeAt(at("xs"), index: .literal(3))], on: ["xs": [1, 2, 3]])?.reason
        == "event rejected: cannot remove index 3 from 'xs': it has 3 elements")
    #expect(
      rejection([.removeAt(at("xs"), index: .literal(-2))], on: ["xs": [1]])?.reason
        == "event rejected: cannot remove index -2 from 'xs': it has 1 element")
  }

  @Test func removeAtRejectsAnIndexThatIsNotAnInteger() {
    #expect(
      rejection([.removeAt(at("xs"), index: .literal(1.5))], on: ["xs": [1, 2]])?.reason
        == "event rejected: cannot remove index 1.5 from 'xs': "
        + "'index' must be an integer, found 1.5")
  }

  // MARK: pop

  @Test func popRemovesTheLastElement() throws {
    #expect(
      try applying([.pop(at("stack"))], to: ["stack": ["home", "list"]]) == ["stack": ["home"]])
  }

  @Test func popRejectsAnEmptyArray() {
    let result = rejection([.pop(at("stack"))], on: ["stack": []])
    #expect(result?.reason == "event rejected: cannot pop 'stack': the array is empty")
  }

  @Test func popRejectsAMissingOrNonArrayTarget() {
    #expect(
      rejection([.pop(at("stack"))], on: [:])?.reason
        == "event rejected: cannot pop 'stack': there is nothing there")
    #expect(
      rejection([.pop(at("stack"))], on: ["stack": [:]])?.reason
        == "event rejected: cannot pop 'stack': it holds an object, not an array")
  }

  // MARK: increment and decrement

  @Test func incrementAndDecrementAddAndSubtractExactlyForIntegers() throws {
    #expect(try applying([.increment(at("n"), by: .literal(2))], to: ["n": 40]) == ["n": 42])
    #expect(try applying([.decrement(at("n"), by: .literal(2))], to: ["n": 40]) == ["n": 38])
    let big = try applying([.increment(at("n"), by: .literal(1))], to: ["n": 9_007_199_254_740_992])
    #expect(big == ["n": .number(JSONNumber(9_007_199_254_740_993 as Int64))])
  }

  @Test func incrementCountsAMissingOrNullNumberAsZero() throws {
    #expect(try applying([.increment(at("n"), by: .literal(1))], to: [:]) == ["n": 1])
    #expect(try applying([.decrement(at("n"), by: .literal(1))], to: ["n": nil]) == ["n": -1])
  }

  @Test func incrementUsesDoublesForFractionsAndOnOverflow() throws {
    #expect(try applying([.increment(at("n"), by: .literal(0.5))], to: ["n": 1]) == ["n": 1.5])
    let overflowed = try applying(
      [.increment(at("n"), by: .literal(1))], to: ["n": .number(JSONNumber(Int64.max))])
    #expect(overflowed == ["n": .number(JSONNumber(Double(Int64.max) + 1))])
  }

  @Test func incrementRejectsAValueThatIsNotANumber() {
    #expect(
      rejection([.increment(at("n"), by: .literal(1))], on: ["n": "1"])?.reason
        == "event rejected: cannot increment 'n': it holds a string, not a number")
    #expect(
      rejection([.decrement(at("n"), by: .literal(1))], on: ["n": [1]])?.reason
        == "event rejected: cannot decrement 'n': it holds an array, not a number")
  }

  @Test func incrementRejectsAnAmountThatIsNotANumber() {
    #expect(
      rejection([.increment(at("n"), by: .literal("1"))], on: ["n": 1])?.reason
        == "event rejected: cannot increment 'n': 'by' must be a number, found a string")
  }

  @Test func incrementRejectsAResultBeyondTheRangeOfADouble() {
    #expect(
      rejection([.increment(at("n"), by: .literal(1e308))], on: ["n": 1e308])?.reason
        == "event rejected: cannot increment 'n': the result is too large for a JSON number")
  }

  // MARK: merge

  @Test func mergeMergesObjectsDeeplyAndReplacesEverythingElse() throws {
    let state = try applying(
      [
        .merge(
          at("user"),
          value: .literal(["name": "Ada", "address": ["city": "London"], "tags": ["b"]]))
      ],
      to: [
        "user": [
          "name": "A", "address": ["city": "Paris", "zip": "75001"], "tags": ["a"], "age": 36,
        ]
      ])
    #expect(
      state == [
        "user": [
          "name": "Ada", "address": ["city": "London", "zip": "75001"], "tags": ["b"], "age": 36,
        ]
      ])
  }

  @Test func mergeKeepsNullsAndCreatesAMissingObject() throws {
    #expect(
      try applying([.merge(at("o"), value: .literal(["a": nil]))], to: ["o": ["a": 1]]) == [
        "o": ["a": nil]
      ])
    #expect(try applying([.merge(at("o"), value: .literal(["a": 1]))], to: [:]) == ["o": ["a": 1]])
  }

  @Test func mergeRejectsATargetOrValueThatIsNotAnObject() {
    #expect(
      rejection([.merge(at("xs"), value: .literal(["a": 1]))], on: ["xs": []])?.reason
        == "event rejected: cannot merge into 'xs': it holds an array, not an object")
    #expect(
      rejection([.merge(at("o"), value: .literal([1]))], on: ["o": [:]])?.reason
        == "event rejected: cannot merge into 'o': its value must be an object, found an array")
  }

  // MARK: clear

  @Test func clearEmptiesAnArrayOrAnObject() throws {
    #expect(try applying([.clear(at("xs"))], to: ["xs": [1, 2]]) == ["xs": []])
    #expect(try applying([.clear(at("o"))], to: ["o": ["a": 1]]) == ["o": [:]])
    #expect(try applying([.clear(at("."))], to: ["a": 1]) == [:])
  }

  @Test func clearRejectsAMissingOrScalarTarget() {
    #expect(
      rejection([.clear(at("xs"))], on: [:])?.reason
        == "event rejected: cannot clear 'xs': there is nothing there")
    #expect(
      rejection([.clear(at("n"))], on: ["n": nil])?.reason
        == "event rejected: cannot clear 'n': it holds null, not an array or an object")
    #expect(
      rejection([.clear(at("."))], on: 3)?.reason
        == "event rejected: cannot clear the state: it holds a number, not an array or an object")
  }

  // MARK: toggle

  @Test func toggleFlipsABooleanAndMakesAMissingOrNullOneTrue() throws {
    #expect(try applying([.toggle(at("done"))], to: ["done": false]) == ["done": true])
    #expect(try applying([.toggle(at("done"))], to: ["done": true]) == ["done": false])
    #expect(try applying([.toggle(at("done"))], to: ["done": nil]) == ["done": true])
    #expect(try applying([.toggle(at("a.done"))], to: [:]) == ["a": ["done": true]])
  }

  @Test func toggleRejectsAValueThatIsNotABoolean() {
    #expect(
      rejection([.toggle(at("done"))], on: ["done": 0])?.reason
        == "event rejected: cannot toggle 'done': it holds a number, not a boolean")
  }

  // MARK: Paths that select several values

  fileprivate static let todos: JSONValue = [
    ["id": 0, "text": "Learn React", "completed": true],
    ["id": 1, "text": "Learn Redux", "completed": false, "color": "purple"],
    ["id": 2, "text": "Build something fun!", "completed": false, "color": "blue"],
  ]

  @Test func aFilterSelectsTheElementsThatMatch() throws {
    let toggled = try applying([.toggle(at("[?id == 1].completed"))], to: Self.todos)
    #expect(toggled.evaluate(at: "[1].completed") == true)
    #expect(toggled.evaluate(at: "[0].completed") == true)
    #expect(toggled.evaluate(at: "[2].completed") == false)
    let colored = try applying(
      [.set(at("[?id == 0].color"), value: .literal("red"))], to: Self.todos)
    #expect(
      colored.evaluate(at: "[0]") == [
        "id": 0, "text": "Learn React", "completed": true, "color": "red",
      ])
    let merged = try applying(
      [.merge(at("[?id == 2]"), value: .literal(["text": "Ship it"]))], to: Self.todos)
    #expect(merged.evaluate(at: "[2].text") == "Ship it")
  }

  @Test func aFilterChangesEveryElementThatMatchesAsJqDoes() throws {
    let result = try applying(
      [.set(at("[?completed == false].color"), value: .literal("red"))], to: Self.todos)
    #expect(result.evaluate(at: "[0].color") == nil)
    #expect(result.evaluate(at: "[1].color") == "red")
    #expect(result.evaluate(at: "[2].color") == "red")
  }

  @Test func aFilterComparesAMissingFieldAsNullAndNumbersByValue() throws {
    let result = try applying(
      [.set(at("[?color == null].color"), value: .literal("grey"))], to: Self.todos)
    #expect(result.evaluate(at: "[0].color") == "grey")
    let negated = try applying([.toggle(at("[?color != null].completed"))], to: Self.todos)
    #expect(negated.evaluate(at: "[0].completed") == true)
    #expect(negated.evaluate(at: "[1].completed") == true)
    let byValue = try applying([.toggle(at("[?id == 2.0].completed"))], to: Self.todos)
    #expect(byValue.evaluate(at: "[2].completed") == true)
  }

  @Test func aFilterThatMatchesNothingRejectsTheEventButNotUnset() throws {
    #expect(
      rejection([.toggle(at("[?id == 7].completed"))], on: Self.todos)?.reason
        == "event rejected: cannot toggle '[?id == 7].completed': no element of the state has "
        + "id == 7")
    #expect(
      rejection([.removeSelected(at("todos[?id == 7]"))], on: ["todos": Self.todos])?.reason
        == "event rejected: cannot remove 'todos[?id == 7]': no element of 'todos' has id == 7")
    #expect(
      rejection([.set(at("todos[?id == 1].x"), value: .literal(1))], on: ["todos": nil])?.reason
        == "event rejected: cannot set 'todos[?id == 1].x': 'todos' is null, not an array or an "
        + "object")
    #expect(try applying([.unset(at("[?id == 7]"))], to: Self.todos) == Self.todos)
    #expect(try applying([.unset(at("todos[?id == 7]"))], to: [:]) == [:])
  }

  @Test func removeAndUnsetTakeOutEverySelectedElement() throws {
    let cleared = try applying([.removeSelected(at("[?completed == true]"))], to: Self.todos)
    #expect(cleared.evaluate(at: ".|length") == 2)
    #expect(cleared.evaluate(at: "[0].id") == 1)
    let unset = try applying([.unset(at("[?id != 1]"))], to: Self.todos)
    #expect(unset.evaluate(at: ".|length") == 1)
    #expect(unset.evaluate(at: "[0].id") == 1)
    #expect(
      try applying([.removeSelected(at("xs[?. == 2]"))], to: ["xs": [1, 2, 3, 2]]) == [
        "xs": [1, 3]
      ])
  }

  @Test func eachChangesEveryElementAndNeverRejectsAnEmptyArray() throws {
    let all = try applying([.set(at("[].completed"), value: .literal(true))], to: Self.todos)
    #expect(all.evaluate(at: "[1].completed") == true)
    #expect(all.evaluate(at: "[2].completed") == true)
    #expect(
      try applying([.set(at("xs[].done"), value: .literal(true))], to: ["xs": []]) == ["xs": []])
    #expect(
      try applying([.increment(at("n[]"), by: .literal(1))], to: ["n": ["a": 1, "b": 2]]) == [
        "n": ["a": 2, "b": 3]
      ])
    #expect(
      rejection([.set(at("xs[].done"), value: .literal(true))], on: [:])?.reason
        == "event rejected: cannot set 'xs[].done': there is no array or object at 'xs'")
  }

  @Test func filtersSelectMembersOfAnObject() throws {
    let entities: JSONValue = ["a": ["done": true], "b": ["done": false]]
    #expect(
      try applying([.removeSelected(at("[?done == true]"))], to: entities) == ["b": ["done": false]]
    )
  }

  @Test func aPathThatStillReadsTheEventIsRejected() {
    let key = RaspSpecPath(components: [.eventKey(reading("payload.id"))])
    #expect(
      rejection([.toggle(key)], on: [:])?.reason
        == "event rejected: cannot toggle '[payload.id]': its key [payload.id] was not read from "
        + "an event; decode events with RaspSpecDomain")
  }

  // MARK: All or nothing

  @Test func aFailingOperationRollsBackTheEarlierOnesOfItsEvent() {
    let before: JSONValue = ["items": ["a"], "total": 1]
    let result = rejection(
      [.clear(at("items")), .increment(at("total"), by: .literal(1)), .pop(at("items"))], on: before
    )
    #expect(result?.reason == "event rejected: cannot pop 'items': the array is empty")
    #expect(result?.isUnchanged == true)
  }

  @Test func applyOrRollBackKeepsTheStateOfARejectedEvent() {
    var state = RaspSpecState(["n": 1])
    let event = RaspSpecEvent(operations: [.increment(at("n"), by: .literal(1)), .pop(at("n"))])
    #expect(throws: RaspEventError.self) { try state.applyOrRollBack(event: event) }
    #expect(state.value == ["n": 1])
  }

  @Test func anOperandThatStillReadsTheEventIsRejected() {
    let result = rejection(
      [.set(at("a"), value: .event(reading("payload.a"), default: nil))], on: [:])
    #expect(
      result?.reason
        == "event rejected: cannot set 'a': its operand {\"from\":\"payload.a\"} "
        + "was not read from an event; decode events with RaspSpecDomain")
  }

  // MARK: Descriptions

  @Test func operationsDescribeThemselvesAsASpecWritesThem() {
    #expect(
      RaspSpecOperation.append(at("items"), value: .event(reading("payload.sku"), default: "?"))
        .description
        == #"{"op":"append","path":"items","value":{"default":"?","from":"payload.sku"}}"#)
    #expect(
      RaspSpecOperation.removeAt(at("xs"), index: .literal(-1)).description
        == #"{"op":"remove","path":"xs","index":-1}"#)
    #expect(
      RaspSpecOperation.increment(at("n"), by: .literal(1)).description
        == #"{"op":"increment","path":"n","by":1}"#)
    #expect(RaspSpecOperation.pop(at("xs")).description == #"{"op":"pop","path":"xs"}"#)
    #expect(RaspSpecOperand.literal(["from": "x"]).description == #"{"literal":{"from":"x"}}"#)
  }
}

/// An event rejected by any of its operations leaves the state exactly as it was, whatever the
/// operations before it changed in place: random states and random events of up to four
/// operations, over paths with filters, `[]`, negative indices and missing parents.
@Suite struct RaspSpecStateRollbackTests {
  static let paths = [
    ".", "items", "items[0]", "items[-1]", "items[]", "items[?k == 1]", "items[?k == 1].n",
    "items[].tags", "items[-1].tags[0]", "items[?done == true]", "meta", "meta.count",
    "meta.flags", "meta.flags[?. == true]", "meta.flags[]", "x.y.z", "items[].extra.deep",
  ]

  static func randomLeaf(_ generator: inout SplitMix64) -> JSONValue {
    switch generator.next() % 6 {
    case 0: return .number(JSONNumber(Int64(generator.next() % 3)))
    case 1: return .string(["a", "b", "c"][Int(generator.next() % 3)])
    case 2: return .bool(generator.next() % 2 == 0)
    case 3: return .null
    case 4: return ["k": .number(JSONNumber(Int64(generator.next() % 3))), "n": 1]
    default: return []
    }
  }

  static func randomState(_ generator: inout SplitMix64) -> JSONValue {
    var items: [JSONValue] = []
    for _ in 0..<Int(generator.next() % 5) {
      var item = JSONObject()
      item["k"] = .number(JSONNumber(Int64(generator.next() % 3)))
      item["n"] = .number(JSONNumber(Int64(generator.next() % 10)))
      item["done"] = .bool(generator.next() % 2 == 0)
      item["tags"] = .array((0..<Int(generator.next() % 3)).map { _ in randomLeaf(&generator) })
      items.append(.object(item))
    }
    let flags: [JSONValue] = (0..<Int(generator.next() % 4)).map { _ in
      .bool(generator.next() % 2 == 0)
    }
    return ["items": .array(items), "meta": ["count": 3, "flags": .array(flags)]]
  }

  static func randomOperation(_ generator: inout SplitMix64) -> RaspSpecOperation {
    let text = paths[Int(generator.next() % UInt64(paths.count))]
    let path = (try? RaspSpecPath(text)) ?? RaspSpecPath(components: [])
    let value = RaspSpecOperand.literal(randomLeaf(&generator))
    switch generator.next() % 13 {
    case 0: return .set(path, value: value)
    case 1: return .unset(path)
    case 2: return .append(path, value: value)
    case 3: return .remove(path, value: value)
    case 4:
      return .removeAt(path, index: .literal(.number(JSONNumber(Int64(generator.next() % 5) - 2))))
    case 5: return .pop(path)
    case 6: return .increment(path, by: .literal(2))
    case 7: return .decrement(path, by: value)
    case 8: return .merge(path, value: .literal(["k": 2, "extra": ["deep": 1]]))
    case 9: return .clear(path)
    case 10: return .toggle(path)
    case 11: return .removeSelected(path)
    default: return .appendUnique(path, value: value)
    }
  }

  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func aRejectedEventLeavesTheStateAsItWas(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    var rejected = 0
    var applied = 0
    for _ in 0..<2_000 {
      var state = RaspSpecState(Self.randomState(&generator))
      let operations = (0..<Int(1 + generator.next() % 4)).map { _ in
        Self.randomOperation(&generator)
      }
      let before = state.value
      do {
        try state.apply(event: RaspSpecEvent(operations: operations))
        applied += 1
        // Applied all at once or one by one, the operations give the same state.
        var stepwise = RaspSpecState(before)
        for operation in operations {
          try stepwise.apply(event: RaspSpecEvent(operations: [operation]))
        }
        #expect(stepwise.value == state.value, "\(operations)")
      } catch {
        rejected += 1
        #expect(state.value == before, "\(operations) changed \(before) into \(state.value)")
      }
    }
    // Both outcomes happen often enough for the property to mean something.
    #expect(rejected > 300)
    #expect(applied > 200)
  }
}
