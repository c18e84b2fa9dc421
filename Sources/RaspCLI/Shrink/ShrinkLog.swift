import RaspJSON
import RaspReplay

/// The log `rasp shrink` cuts down: its lines, byte for byte, and the candidates made of them.
///
/// A candidate is a subset of the lines, in their order, each with its line end as read: so a
/// log of any line-based format shrinks into a log of the same format, whose lines are lines of
/// the original. With `--key-by`, the lines are grouped by the value at the key's path, read
/// from each line as written; a line that is not JSON or has no value there is in a group of
/// its own, of every such line. The grouping only proposes what to remove together: every
/// candidate is replayed all the same.
///
/// ```swift
/// let log = ShrinkLog(bytes: Array("{\"a\":1}\n{\"a\":2}\n".utf8))
/// log.lines.count                 // 2
/// log.bytes(of: [1])              // {"a":2}\n
/// ```
struct ShrinkLog {
  /// The lines, each with its line end (the last may have none).
  let lines: [ArraySlice<UInt8>]
  /// The first lines of the log, which every candidate keeps: not among ``lines``.
  let prefix: [UInt8]

  /// Splits `bytes` into lines.
  ///
  /// - Parameters:
  ///   - bytes: The whole log.
  ///   - pinned: How many of its first lines every candidate keeps (a DevTools export's
  ///     `@@INIT`).
  init(bytes: [UInt8], pinned: Int = 0) {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
      lines.append(bytes[start...index])
      start = index + 1
    }
    if start < bytes.count { lines.append(bytes[start...]) }
    let pinned = min(pinned, lines.count)
    self.prefix = lines.prefix(pinned).flatMap { $0 }
    self.lines = Array(lines.dropFirst(pinned))
  }

  /// The bytes of the candidate made of the lines at `indices`, in the order given.
  ///
  /// - Parameter indices: Positions in ``lines``, ascending.
  /// - Returns: The candidate log.
  func bytes(of indices: [Int]) -> [UInt8] {
    var bytes = prefix
    bytes.reserveCapacity(indices.reduce(prefix.count) { $0 + lines[$1].count })
    for index in indices { bytes.append(contentsOf: lines[index]) }
    return bytes
  }

  /// The positions of the lines, grouped by the value at `path` in each, the groups in the
  /// order of their first lines.
  ///
  /// - Parameter path: The `--key-by` path.
  /// - Returns: Each group's line positions, ascending.
  func groups(by path: JSONPath) -> [[Int]] {
    var groups: [[Int]] = []
    var groupOfKey: [JSONValue?: Int] = [:]
    for (index, line) in lines.enumerated() {
      let value = line.withUnsafeBufferPointer { buffer -> JSONValue? in
        guard let parsed = try? JSONParser.parse(buffer) else { return nil }
        return path.evaluate(parsed)
      }
      if let group = groupOfKey[value] {
        groups[group].append(index)
      } else {
        groupOfKey[value] = groups.count
        groups.append([index])
      }
    }
    return groups
  }
}
