import RaspJSON

/// The numeric fields of a replay over its events, for the report's plots: every number in the
/// snapshot, and the length of every array and object, each time an event changes it.
///
/// After each event the builder hands over the paths its patch touched; the value there is
/// walked, and each number under it, and each container's length (`nav.stack|length`), is a
/// point of the series of its path. A field that goes away (a location set to `null`) gets a
/// gap. At the end, series whose value never changes are dropped, and the rest are reduced to
/// the pixels a plot has: per column, the first, lowest, highest and last point.
///
/// ```swift
/// var series = ReportSeries()
/// series.record(tokens: ["geo"], in: snapshot, event: 1)
/// let plots = series.finished(times: times, columns: 1200)
/// ```
struct ReportSeries {
  /// One field's points: the event after which it took each value, `nil` for a gap.
  struct Series {
    var label: String
    var events: [Int32] = []
    var values: [Double?] = []
    /// The last event that recorded a point, to leave a gap under a path that was replaced.
    var lastEvent: Int32 = -1
  }

  /// The most series followed; fields first seen after that are counted, not plotted.
  let limit: Int
  /// The most numbers walked under one changed path, so that one event replacing a huge
  /// value cannot stall the report.
  let walkLimit = 4096
  private(set) var series: [Series] = []
  private var indexByPath: [String: Int] = [:]
  /// Fields seen beyond ``limit``.
  private(set) var untracked = 0
  private var untrackedPaths: Set<String> = []
  /// The paths of the containers above the followed fields, where a change may remove some.
  private var ancestors: Set<String> = [""]
  /// What the paths and labels of the fields being recorded start with: a key's, in a keyed
  /// replay, whose states are recorded one by one.
  private var scope = ""

  /// What labels start with: the path of `--select`, whose value is the whole document.
  let labelPrefix: String

  init(limit: Int = 64, labelPrefix: String = "") {
    self.limit = limit
    self.labelPrefix = labelPrefix
  }

  /// Records the numbers and lengths in `value`, now at `tokens` (the RFC 6901 `pointer`) of
  /// `document`, after `event`, and a gap for the followed fields under it that are gone;
  /// `value` is `nil` when the event removed what was there.
  mutating func record(
    tokens: [String], pointer: String, value: JSONValue?, in document: JSONValue, event: Int32,
    scope: String = ""
  ) {
    self.scope = scope
    var budget = walkLimit
    let key = scope + pointer
    if let value {
      walk(value, tokens: tokens, key: key, document: document, event: event, budget: &budget)
    }
    // A number under the path that this event did not record is gone.
    guard indexByPath[key] != nil || ancestors.contains(key) else { return }
    for (path, index) in indexByPath where series[index].lastEvent != event {
      if path == key || path.hasPrefix(key + "/") || path.hasPrefix(key + "|") {
        if series[index].values.last != .some(nil) { point(index, event: event, value: nil) }
      }
    }
  }

  /// Records the length of the container at `tokens` (the RFC 6901 `pointer`), an array or
  /// object whose members an event added or removed.
  mutating func recordLength(
    tokens: [String], pointer: String, in document: JSONValue, event: Int32, scope: String = ""
  ) {
    self.scope = scope
    guard let value = ReportPointer.value(at: tokens[...], in: document) else { return }
    switch value {
    case .array(let elements):
      lengthPoint(tokens, scope + pointer, document, elements.count, event)
    case .object(let object):
      lengthPoint(tokens, scope + pointer, document, object.count, event)
    default: break
    }
  }

  private mutating func walk(
    _ value: JSONValue, tokens: [String], key: String, document: JSONValue, event: Int32,
    budget: inout Int
  ) {
    guard budget > 0 else { return }
    budget -= 1
    switch value {
    case .number(let number):
      guard let index = seriesIndex(path: key, tokens: tokens, document: document) else { return }
      point(index, event: event, value: number.doubleValue)
    case .array(let elements):
      lengthPoint(tokens, key, document, elements.count, event)
      for (position, element) in elements.enumerated() {
        walk(
          element, tokens: tokens + [String(position)], key: key + "/" + String(position),
          document: document, event: event, budget: &budget)
      }
    case .object(let object):
      lengthPoint(tokens, key, document, object.count, event)
      for member in object.members {
        walk(
          member.value, tokens: tokens + [member.key],
          key: key + "/" + ReportPointer.escaped(member.key), document: document, event: event,
          budget: &budget)
      }
    default:
      break
    }
  }

  private mutating func lengthPoint(
    _ tokens: [String], _ key: String, _ document: JSONValue, _ count: Int, _ event: Int32
  ) {
    // The snapshot's own top level and a domain's whole state keep their members.
    guard tokens.count >= 2 else { return }
    guard
      let index = seriesIndex(
        path: key + "|length", tokens: tokens, document: document, suffix: "|length")
    else { return }
    point(index, event: event, value: Double(count))
  }

  private mutating func seriesIndex(
    path: String, tokens: [String], document: JSONValue, suffix: String = ""
  ) -> Int? {
    if let index = indexByPath[path] { return index }
    guard series.count < limit else {
      if untrackedPaths.count < 100_000, untrackedPaths.insert(path).inserted { untracked += 1 }
      return nil
    }
    var field = ReportPointer.label(tokens[...], in: document)
    if !labelPrefix.isEmpty {
      field =
        field.isEmpty || field.hasPrefix("[") ? labelPrefix + field : labelPrefix + "." + field
    }
    field += suffix
    let label = scope.isEmpty ? field : scope + " " + field
    series.append(Series(label: label.isEmpty ? "value" : label))
    // Every proper prefix of the path, at its slashes, and the scope alone.
    var prefix = path.hasSuffix("|length") ? String(path.dropLast(7)) : path
    while let slash = prefix.lastIndex(of: "/"), prefix.count > scope.count {
      prefix = String(prefix[..<slash])
      ancestors.insert(prefix)
    }
    ancestors.insert(scope)
    indexByPath[path] = series.count - 1
    return series.count - 1
  }

  private mutating func point(_ index: Int, event: Int32, value: Double?) {
    if let value, !value.isFinite { return }
    if series[index].events.last == event {
      // A later operation of the same event: its value is the event's, and none when it is
      // back to the one before.
      let count = series[index].values.count
      if count >= 2, series[index].values[count - 2] == value {
        series[index].events.removeLast()
        series[index].values.removeLast()
      } else {
        series[index].values[count - 1] = value
      }
    } else {
      if series[index].values.last == .some(value) { return }
      series[index].events.append(event)
      series[index].values.append(value)
    }
    series[index].lastEvent = event
  }

  /// The series whose value changes, reduced to `columns` columns of the x range, where event
  /// `i`'s x is `positions[i]` (`positions[0]` is the initial snapshot's).
  func finished(positions: [Double], columns: Int) -> [Series] {
    let first = positions.first ?? 0
    let last = positions.last ?? 0
    let width = max(last - first, 1e-9)
    return series.filter { series in
      let distinct = Set(series.values.compactMap { $0 })
      return distinct.count > 1 || (distinct.count == 1 && series.values.contains(nil))
    }.map { whole in
      guard whole.events.count > columns * 4 else { return whole }
      var reduced = Series(label: whole.label)
      var start = 0
      while start < whole.events.count {
        let column = Int(Double(columns) * (positions[Int(whole.events[start])] - first) / width)
        var end = start + 1
        while end < whole.events.count,
          Int(Double(columns) * (positions[Int(whole.events[end])] - first) / width) == column
        {
          end += 1
        }
        // First, lowest, highest and last of the column, in event order; a gap kept as one.
        var keep: Set<Int> = [start, end - 1]
        var lowest: (index: Int, value: Double)?
        var highest: (index: Int, value: Double)?
        for index in start..<end {
          guard let value = whole.values[index] else {
            keep.insert(index)
            continue
          }
          if lowest.map({ value < $0.value }) ?? true { lowest = (index, value) }
          if highest.map({ value > $0.value }) ?? true { highest = (index, value) }
        }
        if let lowest { keep.insert(lowest.index) }
        if let highest { keep.insert(highest.index) }
        for index in keep.sorted() {
          reduced.events.append(whole.events[index])
          reduced.values.append(whole.values[index])
        }
        start = end
      }
      return reduced
    }
  }
}
