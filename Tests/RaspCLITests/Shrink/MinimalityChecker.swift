import Foundation
import Testing

/// An independent check of a shrunk log's 1-minimality, written for the tests and sharing no
/// code with `rasp shrink`: it replays the log with plain `rasp replay` (the built binary),
/// decides for itself whether the replay fails, then removes each line in turn and sees the
/// failure go away every time.
///
/// ```swift
/// let checker = MinimalityChecker(replayArguments: ["--spec", spec, "--key-by", "source"]) {
///   replay in replay.status == 2
/// }
/// try checker.expectOneMinimal(lines)
/// ```
struct MinimalityChecker {
  /// What one replay of a candidate did.
  struct Replay {
    /// Its exit status.
    let status: Int32
    /// Its standard output: the snapshots, one per line.
    let snapshots: [String]
  }

  /// The arguments of `rasp replay` before the log's file.
  let replayArguments: [String]
  /// Whether a replay fails.
  let fails: (Replay) -> Bool

  /// Replays `lines` with the built `rasp replay`.
  func replay(_ lines: [String]) async throws -> Replay {
    let directory = try TemporaryDirectory()
    try directory.write("candidate.jsonl", lines.joined())
    let words = ["rasp", "replay"] + replayArguments + [directory.file("candidate.jsonl")]
    let command = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
      .joined(separator: " ")
    let result = try await BuiltBinary.shell(command)
    let snapshots = result.text.split(separator: "\n").map(String.init)
    return Replay(status: result.status, snapshots: snapshots)
  }

  /// Expects `lines` to fail, and each of them to be needed.
  func expectOneMinimal(
    _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    #expect(fails(try await replay(lines)), "the shrunk log fails", sourceLocation: sourceLocation)
    for index in lines.indices {
      var fewer = lines
      fewer.remove(at: index)
      #expect(
        !fails(try await replay(fewer)),
        "without line \(index + 1) of \(lines.count), the shrunk log no longer fails",
        sourceLocation: sourceLocation)
    }
  }

  /// The differing leaf paths of two JSON texts, by Foundation's parser: `a.b`, `a[2]`.
  static func differingPaths(_ expected: String, _ actual: String) -> Set<String> {
    func parse(_ text: String) -> Any? {
      try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }
    var paths: Set<String> = []
    func walk(_ left: Any?, _ right: Any?, _ path: String) {
      if let left = left as? [String: Any], let right = right as? [String: Any] {
        for key in Set(left.keys).union(right.keys) {
          walk(left[key], right[key], path.isEmpty ? key : path + "." + key)
        }
      } else if let left = left as? [Any], let right = right as? [Any] {
        for index in 0..<max(left.count, right.count) {
          walk(
            index < left.count ? left[index] : nil, index < right.count ? right[index] : nil,
            path + "[\(index)]")
        }
      } else if !same(left, right) {
        paths.insert(path)
      }
    }
    walk(parse(expected), parse(actual), "")
    return paths
  }

  /// Whether two parsed JSON leaves are equal: numbers by value, `null` and missing apart.
  private static func same(_ left: Any?, _ right: Any?) -> Bool {
    switch (left, right) {
    case (nil, nil): return true
    case (let left as NSNumber, let right as NSNumber): return left == right
    case (let left as String, let right as String): return left == right
    case (is NSNull, is NSNull): return true
    default: return false
    }
  }
}
