import RaspJSON
import RaspTestSupport
import Testing

@Suite struct JSONPathTests {
  @Test func buildsFromComponents() throws {
    let path = JSONPath(components: [.key("geo"), .key("heading")])
    #expect(path.description == "geo.heading")
    #expect(!path.selectsLength)
    #expect(path == (try JSONPath("geo.heading")))
    #expect(JSONPath(components: [], selectsLength: true).description == ".|length")
  }

  @Test(arguments: [
    ("geo.heading", "geo.heading"),
    (".geo.heading", "geo.heading"),
    ("nav.stack[0]", "nav.stack[0]"),
    ("nav.stack[-1]", "nav.stack[-1]"),
    (#"data["a.b"]"#, #"data["a.b"]"#),
    (#"["a"]"#, "a"),
    (#"data[ "x" ] "#, "data.x"),
    ("rest.links|length", "rest.links|length"),
    (" rest.links | length ", "rest.links|length"),
    (".", "."),
    ("", "."),
    ("|length", ".|length"),
    (". | length", ".|length"),
    ("stack.0", "stack.0"),
    ("[0]", "[0]"),
    ("[0][1]", "[0][1]"),
    ("[0].a", "[0].a"),
    ("a.[0]", "a[0]"),
    ("a[01]", "a[1]"),
    (#"a["\u0041"]"#, "a.A"),
    (#"a["x y"]"#, #"a["x y"]"#),
    (#"a[""]"#, #"a[""]"#),
    (#"a["*"]"#, #"a["*"]"#),
    (#"a["\""]"#, #"a["\""]"#),
    ("a/b", #"["a/b"]"#),
    ("a-b.$c.@d._e", "a-b.$c.@d._e"),
    ("café.ü", "café.ü"),
  ])
  func describesItselfNormalized(text: String, description: String) throws {
    let path = try JSONPath(text)
    #expect(path.description == description)
    #expect(try JSONPath(description) == path, "the description parses back to the same path")
  }

  @Test(arguments: [
    ("*", "*"), ("**.ts", "**.ts"), ("geo.*", "geo.*"), ("a[*]", "a.*"), ("**", "**"),
    ("a.**.b", "a.**.b"), ("[0].*", "[0].*"), ("*|length", "*|length"),
  ])
  func describesPatterns(text: String, description: String) throws {
    let path = try JSONPath(text, allowsPatterns: true)
    #expect(path.isPattern)
    #expect(path.description == description)
    #expect(try JSONPath(description, allowsPatterns: true) == path)
  }

  @Test func descriptionsOfRandomPathsParseBack() throws {
    var generator = SplitMix64(seed: 13)
    for _ in 0..<3_000 {
      var components: [JSONPath.Component] = []
      for _ in 0..<Int.random(in: 0..<5, using: &generator) {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: components.append(.index(Int.random(in: -3...20, using: &generator)))
        case 1: components.append(.anyChild)
        case 2: components.append(.anyDescendants)
        default: components.append(.key(RandomJSON.key(using: &generator)))
        }
      }
      let path = JSONPath(components: components, selectsLength: Bool.random(using: &generator))
      #expect(try JSONPath(path.description, allowsPatterns: true) == path, "\(path)")
    }
  }

  @Test(arguments: [
    ("nav.stack[]", "nav.stack[]"),
    ("nav.stack.[]", "nav.stack[]"),
    (".[]", "[]"),
    ("a[ 2 : 4 ]", "a[2:4]"),
    ("a[:-1]", "a[:-1]"),
    ("a[1:]", "a[1:]"),
    ("a | keys", "a|keys"),
    ("|keys", ".|keys"),
    ("a|first", "a[0]"),
    ("a|last.b", "a[-1].b"),
    ("a[]|first", "a[][0]"),
    (#"a[]["x y"].b"#, #"a[]["x y"].b"#),
    ("a|length|length", "a|length|length"),
    ("a|keys|length", "a|keys|length"),
    ("a|keys[0]", "a|keys[0]"),
    ("a[].0", "a[].0"),
  ])
  func describesFiltersNormalized(text: String, description: String) throws {
    let path = try JSONPath(text, allowsFilters: true)
    #expect(path.description == description)
    #expect(try JSONPath(description, allowsFilters: true) == path)
  }

  @Test func descriptionsOfRandomFiltersParseBack() throws {
    var generator = SplitMix64(seed: 17)
    for _ in 0..<3_000 {
      var components: [JSONPath.Component] = []
      for _ in 0..<Int.random(in: 0..<3, using: &generator) {
        components.append(
          Bool.random(using: &generator)
            ? .index(Int.random(in: -3...20, using: &generator))
            : .key(RandomJSON.key(using: &generator)))
      }
      var filters: [JSONPath.Filter] = []
      for _ in 0..<Int.random(in: 0..<5, using: &generator) {
        func bound() -> Int? {
          Bool.random(using: &generator) ? nil : Int.random(in: -5...5, using: &generator)
        }
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: filters.append(.key(RandomJSON.key(using: &generator)))
        case 1: filters.append(.index(Int.random(in: -3...20, using: &generator)))
        case 2: filters.append(.slice(start: bound() ?? 0, end: bound()))
        case 3: filters.append(.each)
        case 4: filters.append(.length)
        default: filters.append(.keys)
        }
      }
      let path = JSONPath(components: components, filters: filters)
      #expect(try JSONPath(path.description, allowsFilters: true) == path, "\(path)")
    }
  }

  @Test func movesLeadingKeysAndIndicesOfFiltersToTheComponents() {
    let path = JSONPath(
      components: [.key("a")], filters: [.index(0), .key("b"), .each, .key("c")])
    #expect(path.components == [.key("a"), .index(0), .key("b")])
    #expect(path.filters == [.each, .key("c")])
    #expect(
      path
        == JSONPath(components: [.key("a"), .index(0), .key("b")], filters: [.each, .key("c")]))
    let length = JSONPath(components: [.key("a")], filters: [.length])
    #expect(length.selectsLength)
    #expect(length == JSONPath(components: [.key("a")], selectsLength: true))
  }

  @Test(arguments: [
    ([JSONPath.Component.key("geo"), .key("heading")], "/geo/heading"),
    ([], ""),
    ([.key("a/b"), .index(0)], "/a~1b/0"),
    ([.key("~")], "/~0"),
    ([.key("~1")], "/~01"),
    ([.key("/~")], "/~1~0"),
    ([.key("a~/b")], "/a~0~1b"),
    ([.key("")], "/"),
    ([.key(""), .key("")], "//"),
    ([.key("~\u{301}")], "/~0\u{301}"),
    ([.key("/\u{301}")], "/~1\u{301}"),
    ([.key("é 😀")], "/é 😀"),
  ])
  func writesRFC6901Pointers(components: [JSONPath.Component], pointer: String) {
    #expect(
      JSONPath(components: components).pointer.unicodeScalars.elementsEqual(pointer.unicodeScalars))
  }

  @Test func knowsPatternsAndTheFirstKey() throws {
    #expect(try JSONPath("**.ts", allowsPatterns: true).isPattern)
    #expect(try JSONPath("a[*]", allowsPatterns: true).isPattern)
    #expect(try !JSONPath("a[0]").isPattern)
    #expect(try JSONPath("geo.heading").firstKey == "geo")
    #expect(try JSONPath("[0].a").firstKey == nil)
    #expect(try JSONPath(".").firstKey == nil)
  }
}
