import RaspDomains
import RaspJSON

/// Which `--ignore` paths have matched something in the snapshots compared, so that one that
/// matched nothing — a typo, `geo.headng` — is told of rather than ignoring nothing silently.
///
/// Each snapshot is walked only while some path has matched nothing yet: usually the first
/// snapshot matches them all and the rest cost nothing. A path that never matches stops the
/// walking after the first 10,000 snapshots (each side's), so that a long comparison stays
/// as fast; the warning then says so. The paths seen are kept (a bounded number) for a
/// did-you-mean.
///
/// ```swift
/// var ignored = IgnoredPaths(texts: ["geo.headng"], paths: options.ignoring)
/// ignored.note(snapshot)
/// ignored.warning   // rasp: warning: --ignore 'geo.headng' matched nothing …
/// ```
struct IgnoredPaths {
  /// The paths as given, and as parsed.
  private let texts: [String]
  private let paths: [JSONPath]
  /// The positions of the paths that have matched nothing yet.
  private var unmatched: [Int]
  /// Paths seen, written as `--select` paths, for suggestions.
  private var seen: Set<String> = []
  private static let maximumSeen = 10_000
  /// The snapshots walked, and the most that are.
  private var noted = 0
  private static let maximumNoted = 20_000

  init(texts: [String], paths: [JSONPath]) {
    self.texts = texts
    self.paths = paths
    unmatched = Array(paths.indices)
  }

  /// Whether some path has not matched yet, so that snapshots are still worth walking.
  var isWaiting: Bool { !unmatched.isEmpty && noted < Self.maximumNoted }

  /// Notes every member and element of a snapshot.
  mutating func note(_ snapshot: JSONValue) {
    guard isWaiting else { return }
    noted += 1
    var path: [JSONPath.Component] = []
    walk(snapshot, path: &path, text: "")
  }

  private mutating func walk(_ value: JSONValue, path: inout [JSONPath.Component], text: String) {
    if !path.isEmpty {
      unmatched.removeAll { paths[$0].matches(path) }
      if seen.count < Self.maximumSeen { seen.insert(text) }
    }
    switch value {
    case .object(let object):
      for member in object.members {
        path.append(.key(member.key))
        walk(member.value, path: &path, text: text.isEmpty ? member.key : text + "." + member.key)
        path.removeLast()
      }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        path.append(.index(index))
        walk(element, path: &path, text: text + "[\(index)]")
        path.removeLast()
      }
    default:
      break
    }
  }

  /// A warning for each path that matched nothing, with the nearest path seen; `nil` when
  /// every path matched something.
  var warning: String? {
    guard !unmatched.isEmpty else { return nil }
    let candidates = seen.sorted()
    return unmatched.map { index in
      let scope =
        noted < Self.maximumNoted ? "any snapshot" : "the first \(Self.maximumNoted / 2) snapshots"
      var line = "rasp: warning: --ignore '\(texts[index])' matched nothing in \(scope)"
      if let near = RaspSpelling.nearest(to: texts[index], among: candidates) {
        line += "; did you mean '\(near)'?"
      }
      return line + "\n"
    }.joined()
  }
}
