import RaspJSON
import Testing

@testable import RaspDomains

/// The error of parsing `text` as a spec path, or `nil` when it parses.
fileprivate func error(_ text: String) -> String? {
  do {
    _ = try RaspSpecPath(text)
    return nil
  } catch {
    return error.description
  }
}

/// The path `text` written back, or the error of parsing it.
fileprivate func normalized(_ text: String) -> String {
  do {
    return try RaspSpecPath(text).description
  } catch {
    return "error: \(error)"
  }
}

@Suite struct RaspSpecPathTests {
  @Test func readsTheSelectPathsOfBefore() {
    #expect(normalized("items") == "items")
    #expect(normalized(".totals.net") == "totals.net")
    #expect(normalized("items[-1]") == "items[-1]")
    #expect(normalized(#"meta["a.b"]"#) == #"meta["a.b"]"#)
    #expect(normalized(".") == ".")
    #expect(normalized(#"meta["[?x]"]"#) == #"meta["[?x]"]"#)
  }

  @Test func readsEachFiltersAndKeysFromTheEvent() throws {
    #expect(normalized("todos[]") == "todos[]")
    #expect(normalized("todos[ ].completed") == "todos[].completed")
    #expect(normalized("[?id == payload]") == "[?id == payload]")
    #expect(normalized("todos[?id==payload.id].completed") == "todos[?id == payload.id].completed")
    #expect(normalized("todos[ ?completed != true ]") == "todos[?completed != true]")
    #expect(normalized(#"colors[?. == "red"]"#) == #"colors[?. == "red"]"#)
    #expect(normalized("colors[?. == 'red']") == #"colors[?. == "red"]"#)
    #expect(normalized("todos[?meta.owner == null][0]") == "todos[?meta.owner == null][0]")
    #expect(normalized("a[?n == -1.5]") == "a[?n == -1.5]")
    #expect(normalized("byId[payload.id].completed") == "byId[payload.id].completed")
    #expect(normalized("byId[payload.lines[0].id]") == "byId[payload.lines[0].id]")
    #expect(normalized(#"byId[payload["a b"]]"#) == #"byId[payload["a b"]]"#)
    let path = try RaspSpecPath("todos[?id == payload.id].completed")
    #expect(
      path.components == [
        .key("todos"),
        .matching(
          RaspSpecCondition(
            field: try JSONPath("id"), value: .event(try JSONPath("payload.id"), default: nil))),
        .key("completed"),
      ])
    #expect(path.readsEvent)
    #expect(path.selectsMany)
    #expect(try RaspSpecPath("todos[?completed == true]").readsEvent == false)
    #expect(try RaspSpecPath("items[0]").selectsMany == false)
  }

  @Test func namesTheColumnOfAMistake() {
    #expect(error("todos[?id payload]") == "expected '==' or '!=' after the field at column 11")
    #expect(
      error("todos[?]")
        == "expected a field to compare, such as 'id' or '.' for the element itself at column 8")
    #expect(
      error("todos[?id == ]")
        == "expected a value to compare with: a path of the event such as 'payload.id', or a "
        + "literal such as 3, \"red\", 'red', true or null at column 14")
    #expect(error("todos[?id == 3") == "missing ']' at column 6")
    #expect(error("todos[?id == 3 x]") == "expected ']' at column 16")
    #expect(error("todos[]completed") == "expected '.' or '[' after ']', found 'c' at column 8")
    #expect(error("todos[?id == payload..id]") == "empty key at column 22")
    #expect(error("todos[payload.id") == "missing ']' at column 6")
    #expect(error("a..b[]") == "empty key at column 3")
    #expect(error("todos[].a..b") == "empty key at column 11")
    #expect(error("todos[?id == 'x]") == "unterminated string at column 14")
    #expect(error("todos[?id == 01]") == "invalid value '01' at column 14")
    #expect(
      error("todos[!x]")
        == "expected an index, a quoted key, ']', a filter such as '[?id == payload.id]' or a "
        + "key from the event such as '[payload.id]' after '[' at column 7")
    #expect(error("todos.*") == "'*' is only allowed in patterns such as --ignore at column 7")
  }
}
