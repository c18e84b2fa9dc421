import Testing
import RaspDomains
import RaspJSON

@Suite struct DataStateTests {
  @Test func setStoresAnyValueIncludingNull() throws {
    var data = DataState()
    try data.apply(event: .set(key: "theme", value: "dark"))
    try data.apply(event: .set(key: "flags", value: ["beta": true]))
    try data.apply(event: .set(key: "deleted", value: nil))
    #expect(data["theme"] == "dark")
    #expect(data["deleted"] == .null)
    #expect(data["missing"] == nil)
    #expect(data.store.keys == ["deleted", "flags", "theme"])
    try data.apply(event: .set(key: "theme", value: 3))
    #expect(data["theme"] == 3)
  }

  @Test func mergeIntoAnAbsentKeyStoresTheObject() throws {
    var data = DataState()
    try data.apply(event: .merge(key: "cart", value: object(["items": [], "total": 0])))
    #expect(data["cart"] == ["items": [], "total": 0])
  }

  @Test func mergeIsDeepForObjectsAndReplacesEverythingElse() throws {
    var data = DataState()
    try data.apply(
      event: .set(
        key: "cart",
        value: [
          "address": ["city": "Berlin", "zip": "10115"], "items": ["sku-1"], "note": "ring twice",
          "total": 25,
        ]))
    try data.apply(
      event: .merge(
        key: "cart",
        value: object([
          "address": ["zip": "10117", "floor": 3], "items": ["sku-1", "sku-2"], "note": nil,
          "coupon": ["code": "X"], "total": ["amount": 40],
        ])))
    #expect(
      data["cart"] == [
        "address": ["city": "Berlin", "floor": 3, "zip": "10117"], "coupon": ["code": "X"],
        "items": ["sku-1", "sku-2"], "note": nil, "total": ["amount": 40],
      ])
  }

  @Test func mergeReplacesANestedNonObjectWithAnObject() throws {
    var data = DataState(store: object(["user": ["prefs": "none"]]))
    try data.apply(event: .merge(key: "user", value: object(["prefs": ["lang": "de"]])))
    #expect(data["user"] == ["prefs": ["lang": "de"]])
  }

  @Test func mergeIntoANonObjectThrowsAndChangesNothing() {
    let cases: [(JSONValue, String)] = [
      (1, "a number"), ("x", "a string"), (true, "a boolean"), ([1], "an array"), (nil, "null"),
    ]
    for (value, phrase) in cases {
      var data = DataState(store: object(["k": value]))
      #expect(throws: DataError.notAnObject(key: "k", found: value.kindName)) {
        try data.apply(event: .merge(key: "k", value: object(["a": 1])))
      }
      #expect(data == DataState(store: object(["k": value])))
      #expect(
        "\(DataError.notAnObject(key: "k", found: value.kindName))"
          == "cannot merge into 'k': it holds \(phrase)")
    }
  }

  @Test func mergeDoesNotChangeACopyOfTheState() throws {
    let before = DataState(store: object(["cart": ["a": ["b": 1]]]))
    var after = before
    try after.apply(event: .merge(key: "cart", value: object(["a": ["c": 2]])))
    #expect(before["cart"] == ["a": ["b": 1]])
    #expect(after["cart"] == ["a": ["b": 1, "c": 2]])
  }

  @Test func removeAndClear() throws {
    var data = DataState(store: object(["a": 1, "b": 2]))
    try data.apply(event: .remove(key: "a"))
    #expect(data == DataState(store: object(["b": 2])))
    try data.apply(event: .remove(key: "absent"))
    #expect(data == DataState(store: object(["b": 2])))
    try data.apply(event: .clear)
    #expect(data == DataState())
    #expect(DataState.throwsBeforeMutating)
  }

  private func object(_ value: JSONValue) -> JSONObject {
    guard case .object(let object) = value else { return JSONObject() }
    return object
  }
}
