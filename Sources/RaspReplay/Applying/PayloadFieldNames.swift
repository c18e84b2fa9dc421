/// The payload fields of each routed type, by domain and event index, looked up for every
/// event: one flat list, without a copy of a list per lookup.
struct PayloadFieldTable {
  /// The fields of each type, domain after domain; `nil` for a type whose payload is not
  /// checked.
  private let fields: [PayloadFieldNames?]
  /// Where each domain's types start in ``fields``, and how many it has.
  private let starts: [Int]
  private let counts: [Int]

  init(_ byDomain: [[PayloadFieldNames?]]) {
    fields = byDomain.flatMap { $0 }
    counts = byDomain.map(\.count)
    var starts: [Int] = []
    var start = 0
    for count in counts {
      starts.append(start)
      start += count
    }
    self.starts = starts
  }

  /// The fields of a type, or `nil` when its payload is not checked.
  @inline(__always)
  func fields(domain: Int, event: Int) -> PayloadFieldNames? {
    guard domain >= 0, domain < starts.count, event >= 0, event < counts[domain] else {
      return nil
    }
    return fields[starts[domain] + event]
  }
}

/// The payload fields of an event type, as strings for messages and as bytes for the check of
/// every event's keys. Immutable once made: its bytes are shared by the kernels of a pool.
final class PayloadFieldNames: @unchecked Sendable {
  /// The fields' names.
  let names: [String]
  /// The names' UTF-8 bytes, one after the other, and where each ends.
  private let bytes: UnsafeMutableBufferPointer<UInt8>
  private let ends: UnsafeMutableBufferPointer<Int>

  init(_ names: [String]) {
    self.names = names
    let all = names.flatMap { Array($0.utf8) }
    bytes = .allocate(capacity: max(all.count, 1))
    _ = bytes.initialize(from: all)
    ends = .allocate(capacity: max(names.count, 1))
    var end = 0
    for (index, name) in names.enumerated() {
      end += name.utf8.count
      ends[index] = end
    }
  }

  deinit {
    bytes.deallocate()
    ends.deallocate()
  }

  /// Whether a key, as the bytes between its quotes (without escapes), is one of the fields.
  @inline(__always)
  func contains(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
    var start = 0
    for index in 0..<names.count {
      let end = ends[index]
      if end - start == key.count {
        var offset = 0
        while offset < key.count, bytes[start + offset] == key[offset] { offset += 1 }
        if offset == key.count { return true }
      }
      start = end
    }
    return false
  }

  /// Whether every key of the object at `offset` in `line` is one of the fields, at a quick
  /// look: keys compared as bytes, values passed over by their quotes and brackets without
  /// being checked (the domain's decoder checks them). `false` when a key is not a field, and
  /// also when the object is not as expected (a key with escapes, a line cut short): the
  /// careful scan then decides.
  ///
  /// - Complexity: O(*n*) in the object's length; no allocation.
  func holdsAll(in line: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
    let count = line.count
    var index = offset
    let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    @inline(__always) func skipSpace() {
      while index < count, line[index] <= 0x20,
        line[index] == 0x20 || line[index] == 0x0A || line[index] == 0x0D || line[index] == 0x09
      {
        index &+= 1
      }
    }
    guard index < count, line[index] == UInt8(ascii: "{") else { return false }
    index &+= 1
    skipSpace()
    if index < count, line[index] == UInt8(ascii: "}") { return true }
    while true {
      // A key.
      guard index < count, line[index] == quote else { return false }
      let start = index &+ 1
      var end = start
      while end < count, line[end] != quote {
        if line[end] == backslash { return false }
        end &+= 1
      }
      guard end < count, contains(UnsafeBufferPointer(rebasing: line[start..<end])) else {
        return false
      }
      index = end &+ 1
      skipSpace()
      guard index < count, line[index] == UInt8(ascii: ":") else { return false }
      index &+= 1
      skipSpace()
      guard index < count else { return false }
      // Its value, up to the ',' or '}' after it.
      let first = line[index]
      if first == quote {
        index &+= 1
        while index < count, line[index] != quote {
          index &+= line[index] == backslash ? 2 : 1
        }
        index &+= 1
      } else if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
        var depth = 0
        while index < count {
          let byte = line[index]
          if byte == quote {
            index &+= 1
            while index < count, line[index] != quote {
              index &+= line[index] == backslash ? 2 : 1
            }
          } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
            depth &+= 1
          } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
            depth &-= 1
            if depth == 0 { break }
          }
          index &+= 1
        }
        index &+= 1
      } else {
        // A number, true, false or null: letters, digits and signs.
        while index < count, line[index] != UInt8(ascii: ","), line[index] != UInt8(ascii: "}"),
          line[index] > 0x20
        {
          index &+= 1
        }
      }
      skipSpace()
      guard index < count else { return false }
      if line[index] != UInt8(ascii: ",") { return line[index] == UInt8(ascii: "}") }
      index &+= 1
      skipSpace()
    }
  }

}
