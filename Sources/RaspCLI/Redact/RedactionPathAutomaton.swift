#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspJSON

/// The paths of a policy's rules as an automaton over the keys and indices of a walk, built
/// as it is walked: a state is where each rule's path has got to (a set of positions per rule),
/// and its successor after a key is found among the few keys its paths name next.
///
/// A state's positions are those the paths reach after the steps so far, a `**` standing for
/// any number of steps. After a key, a path goes on where its next step is that key (or a
/// number that is that key's index), `*`, or `**`. Only the keys and indices that the paths of
/// a state name can lead apart; every other key leads to one state, every other index to one,
/// so a state has a handful of successors, each computed once and kept. A walk's step then
/// costs a comparison with those keys, whatever the number of rules.
///
/// ```swift
/// var automaton = RedactionPathAutomaton(patterns: policy.rules.map(\.pattern))
/// let state = automaton.next(RedactionPathAutomaton.start, key: keyBytes)
/// if case .rule(let rule) = automaton.reach(state) { … }
/// ```
struct RedactionPathAutomaton {
  /// Where a value goes: no rule can match below it, some may, or one matches it.
  enum Reach: Equatable {
    case none
    case some
    case rule(Int)
  }

  /// One step of a rule's path.
  private struct Step {
    static let key: UInt8 = 0
    static let index: UInt8 = 1
    static let anyChild: UInt8 = 2
    static let anyDescendants: UInt8 = 3
    let kind: UInt8
    /// A key's bytes, in ``RedactionPathAutomaton/stepKeys``.
    let keyStart: Int
    let keyCount: Int
    /// An index; for a key, the array index its digits denote; `Int.min` for none.
    let index: Int
  }

  /// A rule's path as steps, with where its `**` are.
  private struct Pattern {
    let first: Int
    let count: Int
    /// The positions of `**`, as bits.
    let descendants: UInt64
    /// The bit that says the whole path was matched.
    let matched: UInt64
  }

  /// A key (or index) that a state's paths name, and the state it leads to.
  private struct Label {
    /// The key's bytes in ``labelBytes``; for an index, its value in `start`.
    let start: Int
    let count: Int
    /// The successor, or -1 while not yet computed.
    var next: Int32
  }

  /// What is kept of a state.
  private struct State {
    let reach: Reach
    /// Its keys and indices, in ``labels``.
    let keys: Range<Int>
    let indices: Range<Int>
    /// The successor after any other key, and after any other index; -1 until computed.
    var otherKey: Int32 = -1
    var otherIndex: Int32 = -1
  }

  /// What a successor is computed for.
  private enum Input {
    case key(UnsafeBufferPointer<UInt8>)
    case index(Int)
    case otherKey
    case otherIndex
  }

  /// The state before the first step: the whole value.
  static let start = 0
  /// Beyond this many states, the automaton starts again at the next line: a line adds at most
  /// one state per key it has.
  private static let maximumStates = 4_096

  private let patterns: [Pattern]
  private let steps: [Step]
  private let stepKeys: [UInt8]
  private var states: [State] = []
  /// Each state's positions, one word per rule.
  private var positions: [UInt64] = []
  private var labels: [Label] = []
  private var labelBytes: [UInt8] = []
  private var numbered: [[UInt64]: Int32] = [:]
  /// Scratch positions of a successor being computed.
  private var scratch: [UInt64]

  /// The longest path a rule may have, in steps: one bit each, and one for the end.
  static let maximumSteps = 63

  /// Prepares the rules' paths; no path longer than ``maximumSteps`` steps counts beyond them.
  ///
  /// - Parameter patterns: Each rule's path, in the policy's order.
  init(patterns: [JSONPath]) {
    var compiled: [Pattern] = []
    var steps: [Step] = []
    var stepKeys: [UInt8] = []
    for pattern in patterns {
      let components = pattern.components.prefix(Self.maximumSteps)
      var descendants: UInt64 = 0
      let first = steps.count
      for (position, component) in components.enumerated() {
        switch component {
        case .key(let key):
          let bytes = Array(key.utf8)
          steps.append(
            Step(
              kind: Step.key, keyStart: stepKeys.count, keyCount: bytes.count,
              index: Self.arrayIndex(bytes) ?? Int.min))
          stepKeys += bytes
        case .index(let index):
          steps.append(Step(kind: Step.index, keyStart: 0, keyCount: 0, index: index))
        case .anyChild:
          steps.append(Step(kind: Step.anyChild, keyStart: 0, keyCount: 0, index: Int.min))
        case .anyDescendants:
          descendants |= 1 << UInt64(position)
          steps.append(Step(kind: Step.anyDescendants, keyStart: 0, keyCount: 0, index: Int.min))
        }
      }
      compiled.append(
        Pattern(
          first: first, count: components.count, descendants: descendants,
          matched: 1 << UInt64(components.count)))
    }
    self.patterns = compiled
    self.steps = steps
    self.stepKeys = stepKeys
    self.scratch = [UInt64](repeating: 0, count: compiled.count)
    startAgain()
  }

  /// Forgets every state but the first when there are many: called between lines.
  mutating func trim() {
    if states.count > Self.maximumStates { startAgain() }
  }

  private mutating func startAgain() {
    states.removeAll(keepingCapacity: true)
    positions.removeAll(keepingCapacity: true)
    labels.removeAll(keepingCapacity: true)
    labelBytes.removeAll(keepingCapacity: true)
    numbered.removeAll(keepingCapacity: true)
    for (rule, pattern) in patterns.enumerated() { scratch[rule] = Self.close(1, pattern) }
    _ = intern()
  }

  /// Where a value in `state` goes.
  @inline(__always)
  func reach(_ state: Int) -> Reach { states[state].reach }

  /// The state after an object's key, its decoded bytes.
  @inline(__always)
  mutating func next(_ state: Int, key: UnsafeBufferPointer<UInt8>) -> Int {
    let found = labels.withUnsafeBufferPointer { labels in
      labelBytes.withUnsafeBufferPointer { bytes -> Int in
        for label in states[state].keys where labels[label].count == key.count {
          if key.isEmpty
            || memcmp(
              key.baseAddress.unsafelyUnwrapped,
              bytes.baseAddress.unsafelyUnwrapped + labels[label].start, key.count) == 0
          {
            return label
          }
        }
        return -1
      }
    }
    if found >= 0 {
      let next = labels[found].next
      if next >= 0 { return Int(next) }
      let successor = successor(of: state, after: .key(key))
      labels[found].next = Int32(successor)
      return successor
    }
    let other = states[state].otherKey
    if other >= 0 { return Int(other) }
    let successor = successor(of: state, after: .otherKey)
    states[state].otherKey = Int32(successor)
    return successor
  }

  /// The state after an array's element at `index`.
  @inline(__always)
  mutating func next(_ state: Int, index: Int) -> Int {
    for label in states[state].indices where labels[label].start == index {
      let next = labels[label].next
      if next >= 0 { return Int(next) }
      let successor = successor(of: state, after: .index(index))
      labels[label].next = Int32(successor)
      return successor
    }
    let other = states[state].otherIndex
    if other >= 0 { return Int(other) }
    let successor = successor(of: state, after: .otherIndex)
    states[state].otherIndex = Int32(successor)
    return successor
  }

  /// Computes the state after a step from `state`, as each rule's positions go on.
  @inline(never)
  private mutating func successor(of state: Int, after input: Input) -> Int {
    let count = patterns.count
    for rule in 0..<count {
      let pattern = patterns[rule]
      var reached = positions[state * count + rule]
      var next: UInt64 = 0
      while reached != 0 {
        let position = reached.trailingZeroBitCount
        reached &= reached &- 1
        guard position < pattern.count else { continue }
        let step = steps[pattern.first + position]
        let matches: Bool
        switch step.kind {
        case Step.anyDescendants:
          next |= 1 << UInt64(position)
          continue
        case Step.anyChild:
          matches = true
        case Step.key:
          switch input {
          case .key(let key):
            let end = step.keyStart + step.keyCount
            matches = stepKeys.withUnsafeBufferPointer {
              Redactor.same(key, UnsafeBufferPointer(rebasing: $0[step.keyStart..<end]))
            }
          case .index(let index): matches = step.index == index
          case .otherKey, .otherIndex: matches = false
          }
        default:
          switch input {
          case .key(let key): matches = Self.arrayIndex(key) == step.index
          case .index(let index): matches = step.index == index
          case .otherKey, .otherIndex: matches = false
          }
        }
        if matches { next |= 1 << UInt64(position + 1) }
      }
      if pattern.descendants != 0 { next = Self.close(next, pattern) }
      scratch[rule] = next
    }
    return intern()
  }

  /// The number of the state whose positions are ``scratch``, made when new.
  private mutating func intern() -> Int {
    if let known = numbered[scratch] { return Int(known) }
    let number = states.count
    var reach = Reach.none
    let keysStart = labels.count
    for (rule, pattern) in patterns.enumerated() {
      let reached = scratch[rule]
      if reached & pattern.matched != 0 {
        if case .rule = reach {} else { reach = .rule(rule) }
      } else if reached != 0, case .none = reach {
        reach = .some
      }
      forEachStep(reached, pattern) { step in
        if step.kind == Step.key {
          addKey(stepKeys[step.keyStart..<step.keyStart + step.keyCount], from: keysStart)
        } else if step.kind == Step.index, step.index >= 0 {
          addKey(Array(String(step.index).utf8), from: keysStart)
        }
      }
    }
    let indicesStart = labels.count
    for (rule, pattern) in patterns.enumerated() {
      forEachStep(scratch[rule], pattern) { step in
        guard step.kind == Step.key || step.kind == Step.index, step.index >= 0 else { return }
        if !labels[indicesStart...].contains(where: { $0.start == step.index }) {
          labels.append(Label(start: step.index, count: 0, next: -1))
        }
      }
    }
    states.append(
      State(reach: reach, keys: keysStart..<indicesStart, indices: indicesStart..<labels.count))
    positions += scratch
    numbered[scratch] = Int32(number)
    return number
  }

  private func forEachStep(_ reached: UInt64, _ pattern: Pattern, _ body: (Step) -> Void) {
    var reached = reached
    while reached != 0 {
      let position = reached.trailingZeroBitCount
      reached &= reached &- 1
      if position < pattern.count { body(steps[pattern.first + position]) }
    }
  }

  private mutating func addKey(_ key: some Collection<UInt8>, from first: Int) {
    for label in labels[first...] where label.count == key.count {
      if labelBytes[label.start..<label.start + label.count].elementsEqual(key) { return }
    }
    labels.append(Label(start: labelBytes.count, count: key.count, next: -1))
    labelBytes += key
  }

  /// The positions a `**` can also be left at without a step.
  private static func close(_ positions: UInt64, _ pattern: Pattern) -> UInt64 {
    var positions = positions
    var stars = pattern.descendants
    while stars != 0 {
      let star = stars.trailingZeroBitCount
      stars &= stars - 1
      if positions & (1 << UInt64(star)) != 0 { positions |= 1 << UInt64(star + 1) }
    }
    return positions
  }

  /// The array index a key denotes, as `JSONPath` reads it: `0`, or digits without a leading
  /// zero.
  private static func arrayIndex(_ key: some Collection<UInt8>) -> Int? {
    guard let first = key.first, key.count <= 18 else { return nil }
    guard first != UInt8(ascii: "0") || key.count == 1 else { return nil }
    var value = 0
    for byte in key {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }
}
