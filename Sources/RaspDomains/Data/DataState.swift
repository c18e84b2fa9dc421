import Rasp
import RaspJSON

/// The app's keyed data: any JSON value under each string key, like a small document store
/// (a cart, the signed-in user, feature flags).
///
/// A value can be set, deep-merged, removed, and the store cleared. Merging follows the shape
/// of the values: where both sides hold an object, their members merge recursively; anywhere
/// else the merged value replaces what was there (arrays are replaced, not concatenated). Unlike
/// a JSON Merge Patch (RFC 7396), a `null` in the merged value is stored as `null`: it does not
/// delete the member. Merging into a key that holds something other than an object is rejected,
/// because it most likely means the log mixed up two kinds of data under one key.
///
/// ```swift
/// var data = DataState()
/// try data.apply(event: .set(key: "cart", value: ["items": ["sku-1"], "total": 25]))
/// try data.apply(event: .merge(key: "cart", value: JSONObject(sortedMembers: [("total", 40)])))
/// data["cart"]   // {"items":["sku-1"],"total":40}
/// ```
public struct DataState: RaspState, Equatable, Sendable {
  /// The values by key, in key order.
  public var store: JSONObject

  /// Creates a state, by default an empty store.
  ///
  /// ```swift
  /// let data = DataState(store: JSONObject(sortedMembers: [("theme", "dark")]))
  /// ```
  ///
  /// - Parameter store: The values by key.
  public init(store: JSONObject = JSONObject()) {
    self.store = store
  }

  /// The value under `key`, or `nil` when there is none.
  ///
  /// ```swift
  /// data["theme"]   // "dark"
  /// ```
  ///
  /// - Parameter key: A key.
  public subscript(key: String) -> JSONValue? {
    store[key]
  }

  /// What can happen to the store.
  ///
  /// ```swift
  /// let event = DataState.Event.remove(key: "cart")
  /// ```
  public enum Event: Sendable, Equatable {
    /// A value was stored under a key, replacing any other (`data.set`); `null` is a value.
    case set(key: String, value: JSONValue)
    /// An object was deep-merged into the value under a key (`data.merge`).
    case merge(key: String, value: JSONObject)
    /// A key was removed (`data.remove`); removing an absent key changes nothing.
    case remove(key: String)
    /// Every key was removed (`data.clear`).
    case clear
  }

  /// Applies a change to the store, or throws without changing anything.
  ///
  /// ```swift
  /// try data.apply(event: .set(key: "count", value: 1))
  /// try data.apply(event: .merge(key: "count", value: JSONObject()))
  /// // throws DataError.notAnObject(key: "count", found: "number")
  /// ```
  ///
  /// - Parameter event: The event.
  /// - Throws: ``DataError/notAnObject(key:found:)`` when merging into a key that holds
  ///   something other than an object; the state is then unchanged.
  public mutating func apply(event: Event) throws(DataError) {
    switch event {
    case .set(let key, let value):
      store[key] = value
    case .merge(let key, let patch):
      switch store[key] {
      case .none:
        store[key] = .object(patch)
        return
      case .object?:
        break
      case let other?:
        throw .notAnObject(key: key, found: other.kindName)
      }
      var object = DataState.takeObject(key, from: &store)
      DataState.merge(patch, into: &object)
      store[key] = .object(object)
    case .remove(let key):
      store[key] = nil
    case .clear:
      store = JSONObject()
    }
  }

  /// `true`: the reducer checks a merge before it changes anything.
  ///
  /// ```swift
  /// DataState.throwsBeforeMutating   // true
  /// ```
  public static var throwsBeforeMutating: Bool { true }

  /// Merges `patch` into `target` member by member: objects recursively, anything else by
  /// replacement.
  ///
  /// ```swift
  /// var target: JSONObject = …   // {"a":{"b":1,"c":2}}
  /// DataState.merge(patch, into: &target)
  /// // with patch {"a":{"c":3,"d":null}}, target is {"a":{"b":1,"c":3,"d":null}}
  /// ```
  ///
  /// - Parameters:
  ///   - patch: The object to merge in.
  ///   - target: The object to change.
  /// - Complexity: O(*m* log *n*) for *m* members in `patch`, plus the insertions of new keys.
  public static func merge(_ patch: JSONObject, into target: inout JSONObject) {
    for (key, value) in patch.members {
      guard case .object(let inner) = value, case .object? = target[key] else {
        target[key] = value
        continue
      }
      var child = takeObject(key, from: &target)
      merge(inner, into: &child)
      target[key] = .object(child)
    }
  }

  /// Takes the object under `key` out of `object`, leaving `null` in its place, so that the
  /// caller holds the only reference and can change it without copying.
  private static func takeObject(_ key: String, from object: inout JSONObject) -> JSONObject {
    guard case .object(let taken)? = object[key] else { return JSONObject() }
    object[key] = .null
    return taken
  }
}

/// Why the data state rejected an event.
///
/// Its description is the message `rasp replay` prints after `event rejected:`.
///
/// ```swift
/// print(DataError.notAnObject(key: "count", found: "number"))
/// // cannot merge into 'count': it holds a number
/// ```
public enum DataError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A merge found a value that is not an object under the key; `found` is the value's kind
  /// (`number`, `string`, `boolean`, `array` or `null`).
  case notAnObject(key: String, found: String)

  /// The reason as a sentence fragment, without a trailing period.
  ///
  /// ```swift
  /// DataError.notAnObject(key: "tags", found: "array").description
  /// // "cannot merge into 'tags': it holds an array"
  /// ```
  public var description: String {
    switch self {
    case .notAnObject(let key, let found):
      let phrase: String
      switch found {
      case "null": phrase = "null"
      case "array", "object": phrase = "an \(found)"
      default: phrase = "a \(found)"
      }
      return "cannot merge into '\(key)': it holds \(phrase)"
    }
  }
}
