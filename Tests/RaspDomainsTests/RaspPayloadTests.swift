import Testing
import RaspDomains
import RaspJSON

/// Runs `body` on a payload reader of `json`, and describes an error as `col <n>: <message>`.
private func read<T>(
  _ json: String, _ body: (inout RaspPayload) throws(RaspEventError) -> T
) -> Result<T, PayloadFailure> {
  let bytes = Array(json.utf8)
  return bytes.withUnsafeBufferPointer { buffer in
    do throws(RaspEventError) {
      var payload = RaspPayload(line: buffer, offset: 0)
      return .success(try body(&payload))
    } catch {
      return .failure(PayloadFailure(message: "col \((error.offset ?? -1) + 1): \(error)"))
    }
  }
}

/// Runs `body` on the first field of `json`: `ok`, or the error as `col <n>: <message>`.
private func first(_ json: String, _ body: (inout RaspPayload) throws(RaspEventError) -> Void)
  -> String
{
  let result = read(json) { payload throws(RaspEventError) in
    _ = try payload.nextField()
    try body(&payload)
  }
  if case .failure(let failure) = result { return failure.message }
  return "ok"
}

/// A decoding error as `col <n>: <message>`, comparable with a string literal.
private struct PayloadFailure: Error, Equatable, ExpressibleByStringLiteral {
  let message: String
  init(message: String) { self.message = message }
  init(stringLiteral message: String) { self.message = message }
}

@Suite struct RaspPayloadTests {
  @Test func readsTypedFieldsAndSkipsTheOthers() {
    let result = read(
      #"{"n":1.5,"i":-42,"s":"caf\u00e9","b":true,"z":null,"skip":{"a":[1,{}]},"#
        + #""v":{"b":2,"a":[1]}}"#
    ) {
      payload throws(RaspEventError) in
      var seen: [String] = []
      while let field = try payload.nextField() {
        switch field {
        case "n": seen.append("n=\(try payload.double())")
        case "i": seen.append("i=\(try payload.integer())")
        case "s": seen.append("s=\(try payload.string())")
        case "b": seen.append("b=\(try payload.bool())")
        case "z": seen.append("z=\(try payload.null())")
        case "v": seen.append("v=\(try payload.value())")
        default: try payload.skip()
        }
      }
      return seen
    }
    #expect(
      result == .success(["n=1.5", "i=-42", "s=café", "b=true", "z=true", #"v={"a":[1],"b":2}"#]))
  }

  @Test func matchesKeysWrittenWithEscapes() {
    let result = read(#"{"h\u0065ading":90}"#) { payload throws(RaspEventError) in
      var heading: Double?
      while let field = try payload.nextField() {
        if field == "heading" { heading = try payload.double() } else { try payload.skip() }
      }
      return heading
    }
    #expect(result == .success(90))
  }

  @Test func namesNestedFieldsByTheirFullPath() {
    let result = read(#"{"a":{"b":{"c":"x"}}}"#) { payload throws(RaspEventError) in
      _ = try payload.nextField()
      try payload.beginObject()
      _ = try payload.nextField()
      try payload.beginObject()
      _ = try payload.nextField()
      return try payload.double()
    }
    #expect(result == .failure("col 16: field 'payload.a.b.c' must be a number, found a string"))
  }

  @Test func missingNamesTheObjectThatJustEnded() {
    let nested = read(#"{"a":{"x":1}}"#) { payload throws(RaspEventError) -> Int in
      _ = try payload.nextField()
      try payload.beginObject()
      while try payload.nextField() != nil { try payload.skip() }
      throw payload.missing("y")
    }
    #expect(nested == .failure("col 6: missing required field 'payload.a.y'"))
    // After the payload itself ends, a missing field is the payload's, not the nested object's.
    let top = read(#"{"a":{"x":1}}"#) { payload throws(RaspEventError) -> Int in
      while let field = try payload.nextField() {
        if field == "a" {
          try payload.beginObject()
          while try payload.nextField() != nil { try payload.skip() }
        } else {
          try payload.skip()
        }
      }
      throw payload.missing("b")
    }
    #expect(top == .failure("col 1: missing required field 'payload.b'"))
  }

  @Test func invalidObjectNamesThePayloadOrTheNestedObject() {
    let top = read(#"{"a":{}}"#) { payload throws(RaspEventError) -> Int in
      while let field = try payload.nextField() {
        if field == "a" {
          try payload.beginObject()
          while try payload.nextField() != nil { try payload.skip() }
        }
      }
      throw payload.invalidObject("needs more")
    }
    #expect(top == .failure("col 1: invalid value for field 'payload': needs more"))
    let nested = read(#"{"a":{}}"#) { payload throws(RaspEventError) -> Int in
      _ = try payload.nextField()
      try payload.beginObject()
      _ = try payload.nextField()
      throw payload.invalidObject("needs more")
    }
    #expect(nested == .failure("col 6: invalid value for field 'payload.a': needs more"))
  }

  @Test func reportsWrongTypesAndRanges() {
    #expect(
      first(#"{"x":"1"}"#) { p throws(RaspEventError) in _ = try p.double() }
        == "col 6: field 'payload.x' must be a number, found a string")
    #expect(
      first(#"{"x":1.5}"#) { p throws(RaspEventError) in _ = try p.integer() }
        == "col 6: invalid value for field 'payload.x': must be an integer, found 1.5")
    #expect(
      first(#"{"x":true}"#) { p throws(RaspEventError) in _ = try p.integer() }
        == "col 6: field 'payload.x' must be an integer, found a boolean")
    #expect(
      first(#"{"x":1}"#) { p throws(RaspEventError) in _ = try p.string() }
        == "col 6: field 'payload.x' must be a string, found a number")
    #expect(
      first(#"{"x":""}"#) { p throws(RaspEventError) in _ = try p.nonEmptyString() }
        == "col 6: invalid value for field 'payload.x': must not be empty")
    #expect(
      first(#"{"x":0}"#) { p throws(RaspEventError) in _ = try p.bool() }
        == "col 6: field 'payload.x' must be a boolean, found a number")
    #expect(
      first(#"{"x":[]}"#) { p throws(RaspEventError) in try p.beginObject() }
        == "col 6: field 'payload.x' must be an object, found an array")
    #expect(
      first(#"{"x":7}"#) { p throws(RaspEventError) in _ = try p.double(in: 0...5) }
        == "col 6: invalid value for field 'payload.x': must be between 0 and 5, found 7")
    #expect(
      first(#"{"x":-1}"#) { p throws(RaspEventError) in _ = try p.double(in: 0...) }
        == "col 6: invalid value for field 'payload.x': must be at least 0, found -1")
    #expect(first(#"{"x":1}"#) { p throws(RaspEventError) in _ = try p.null() } == "ok")
  }

  @Test func reportsTextThatIsNotJSONAsASyntaxErrorRatherThanAWrongType() {
    #expect(
      first(#"{"x":ninety}"#) { p throws(RaspEventError) in _ = try p.double() }
        == "col 6: invalid literal 'ninety': strings must be in double quotes")
    #expect(
      first(#"{"x":NaN}"#) { p throws(RaspEventError) in _ = try p.string() }
        == "col 6: 'NaN' is not valid JSON: numbers must be finite")
    #expect(
      first(#"{"x":nul}"#) { p throws(RaspEventError) in _ = try p.bool() }
        == "col 6: invalid literal 'nul': strings must be in double quotes")
  }

  @Test func showsARejectedNumberAsTheLogWroteIt() {
    #expect(
      first(#"{"x":9223372036854775807}"#) { p throws(RaspEventError) in
        _ = try p.double(in: 0...360)
      }
        == "col 6: invalid value for field 'payload.x': "
        + "must be between 0 and 360, found 9223372036854775807")
    #expect(
      first(#"{"x":-1.50e0}"#) { p throws(RaspEventError) in _ = try p.double(in: 0...) }
        == "col 6: invalid value for field 'payload.x': must be at least 0, found -1.50e0")
    #expect(
      first(#"{"x":2.50}"#) { p throws(RaspEventError) in _ = try p.integer() }
        == "col 6: invalid value for field 'payload.x': must be an integer, found 2.50")
  }

  @Test func countsThePayloadAsNestedInTheEventObject() {
    // The payload sits one level inside the event, so 510 arrays in a field make 512 levels
    // in all (accepted) and 511 make 513 (the limit is 512).
    func skipField(nestedArrays count: Int) -> String {
      let json =
        #"{"x":"# + String(repeating: "[", count: count) + String(repeating: "]", count: count)
        + "}"
      let result = read(json) { payload throws(RaspEventError) in
        _ = try payload.nextField()
        try payload.skip()
      }
      if case .failure(let failure) = result { return failure.message }
      return "ok"
    }
    #expect(skipField(nestedArrays: 510) == "ok")
    #expect(
      skipField(nestedArrays: 511) == "col 516: arrays and objects nested more than 512 levels deep"
    )
  }

  @Test func refusesTheFieldsOfAPayloadThatIsNotAnObject() {
    // Redux actions and CloudEvents may carry any value: a decoder that reads fields is told
    // at its first field, and one that reads nothing is not bothered.
    #expect(
      read(#"[1]"#) { p throws(RaspEventError) in try p.nextField() == nil }
        == .failure("col 1: field 'payload' must be an object, found an array"))
    #expect(
      read(#""Buy milk""#) { p throws(RaspEventError) in try p.nextField() == nil }
        == .failure("col 1: field 'payload' must be an object, found a string"))
    #expect(
      read("3") { p throws(RaspEventError) in
        try p.finish()
        return true
      } == .success(true))
  }

  @Test func readsAPayloadThatIsNotAnObjectWhole() {
    #expect(
      read(#""Buy milk""#) { p throws(RaspEventError) in try p.nonObjectValue() }
        == .success(.string("Buy milk")))
    #expect(
      read(#"[1, {"a": null}]"#) { p throws(RaspEventError) in try p.nonObjectValue() }
        == .success([1, ["a": nil]]))
    #expect(read("0") { p throws(RaspEventError) in try p.nonObjectValue() } == .success(0))
    #expect(
      read(#"{"a": 1}"#) { p throws(RaspEventError) in try p.nonObjectValue() } == .success(nil))
  }

  @Test func rejectsAPayloadThatIsNotJSON() {
    #expect(
      read("nope") { p throws(RaspEventError) in try p.nextField() == nil }
        == .failure("col 1: invalid literal 'nope': strings must be in double quotes"))
    #expect(
      read("nope") { p throws(RaspEventError) in try p.nonObjectValue() }
        == .failure("col 1: invalid literal 'nope': strings must be in double quotes"))
  }

  @Test func anAbsentPayloadHasNoFields() {
    let bytes: [UInt8] = []
    let outcome: String = bytes.withUnsafeBufferPointer { buffer in
      do throws(RaspEventError) {
        var payload = RaspPayload(line: buffer, offset: nil)
        guard try payload.nextField() == nil else { return "a field" }
        let error = payload.missing("screen")
        return "\(error.offset.map(String.init) ?? "nil"): \(error)"
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome == "nil: missing required field 'payload.screen'")
  }
}
