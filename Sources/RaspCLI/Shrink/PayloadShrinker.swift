import RaspJSON

/// The payloads pass of `rasp shrink --payloads`: makes one event's JSON smaller where the
/// failure stays — drops object members, empties and halves strings, drops array elements —
/// one change tried at a time, depth first, in key order.
///
/// A member is tried away first; if it is needed, its value is shrunk in turn. An array is
/// tried empty, then without each element, then each element is shrunk. A string is tried
/// empty, then halved while the failure stays. Numbers, booleans and `null` are kept. The
/// line's `type` is kept, so that the event stays one of its type.
///
/// ```swift
/// let shrinker = PayloadShrinker()
/// let smaller = try shrinker.shrink(event) { candidate in stillFails(candidate) }
/// shrinker.droppedFields   // 3
/// ```
final class PayloadShrinker {
  /// How many object members were dropped.
  private(set) var droppedFields = 0

  /// Shrinks `value`, an event's line.
  ///
  /// - Parameters:
  ///   - value: The event as read.
  ///   - stillFails: Whether the log with the event replaced by a candidate still fails.
  /// - Returns: The smallest event found.
  /// - Throws: What `stillFails` throws, which stops the search.
  func shrink<Failure: Error>(
    _ value: JSONValue, stillFails: (JSONValue) throws(Failure) -> Bool
  ) throws(Failure) -> JSONValue {
    try shrink(value, isEvent: true, stillFails: stillFails)
  }

  private func shrink<Failure: Error>(
    _ value: JSONValue, isEvent: Bool, stillFails: (JSONValue) throws(Failure) -> Bool
  ) throws(Failure) -> JSONValue {
    switch value {
    case .object(let object):
      var members = object.members
      var index = 0
      while index < members.count {
        if isEvent, members[index].key == "type" {
          index += 1
          continue
        }
        var fewer = members
        fewer.remove(at: index)
        if try stillFails(.object(JSONObject(sortedMembers: fewer))) {
          members = fewer
          droppedFields += 1
          continue
        }
        let current = members
        let position = index
        members[index].value = try shrink(members[index].value, isEvent: false) {
          (candidate: JSONValue) throws(Failure) -> Bool in
          var trial = current
          trial[position].value = candidate
          return try stillFails(.object(JSONObject(sortedMembers: trial)))
        }
        index += 1
      }
      return .object(JSONObject(sortedMembers: members))
    case .array(let array):
      guard !array.isEmpty else { return value }
      if try stillFails(.array([])) { return .array([]) }
      var elements = array
      var index = 0
      while index < elements.count {
        var fewer = elements
        fewer.remove(at: index)
        if try stillFails(.array(fewer)) {
          elements = fewer
          continue
        }
        let current = elements
        let position = index
        elements[index] = try shrink(elements[index], isEvent: false) {
          (candidate: JSONValue) throws(Failure) -> Bool in
          var trial = current
          trial[position] = candidate
          return try stillFails(.array(trial))
        }
        index += 1
      }
      return .array(elements)
    case .string(let text):
      guard !text.isEmpty else { return value }
      if try stillFails(.string("")) { return .string("") }
      var kept = text
      while kept.count > 1 {
        let half = String(kept.prefix(kept.count / 2))
        guard try stillFails(.string(half)) else { break }
        kept = half
      }
      return .string(kept)
    case .null, .bool, .number:
      return value
    }
  }
}
