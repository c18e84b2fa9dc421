import Foundation
import RaspTestSupport
import Testing

/// `rasp compare` against an independent reference: each version's states come from a plain
/// `rasp replay --with-event` of the built binary, read with Foundation's JSON parser, and
/// the first divergence is found by this file's own walk over the log's lines — each
/// version's state after a line is its record's, or its state before the line when it
/// printed none; a line only one version rejects diverges. Deliberate mutations of a spec (an
/// operation removed, a path changed) must be reported at exactly the first event they
/// affect, unkeyed and keyed, on one thread and two.
@Suite struct CompareCommandTests {
  /// The spec every mutation starts from: a cart, kept per key with `--key-by source`.
  static var spec: [String: Any] {
    [
      "domains": [
        [
          "name": "cart",
          "initial": ["items": [] as [Any], "total": 0, "last": NSNull()] as [String: Any],
          "events": [
            [
              "name": "add",
              "ops": [
                ["op": "append", "path": "items", "from": "payload.sku"],
                ["op": "increment", "path": "total", "from": "payload.price"],
              ],
            ],
            [
              "name": "remove",
              "ops": [
                ["op": "remove", "path": "items", "value": ["from": "payload.sku"]],
                ["op": "decrement", "path": "total", "from": "payload.price"],
              ],
            ],
            [
              "name": "checkout",
              "ops": [
                ["op": "clear", "path": "items"],
                ["op": "set", "path": "total", "value": 0],
                ["op": "set", "path": "last", "from": "ts"],
              ],
            ],
          ],
        ] as [String: Any]
      ]
    ]
  }

  /// A mutation of the spec: its name and the mutated spec.
  struct Mutation: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    var testDescription: String { name }
  }

  /// Every operation removed, one at a time, and every operation's path changed.
  static let mutations: [Mutation] = {
    var mutations: [Mutation] = []
    guard let domains = spec["domains"] as? [[String: Any]],
      let events = domains[0]["events"] as? [[String: Any]]
    else { return [] }
    for (eventIndex, event) in events.enumerated() {
      guard let ops = event["ops"] as? [[String: Any]] else { continue }
      for opIndex in ops.indices {
        for kind in ["removed", "path changed"] {
          var newOps = ops
          if kind == "removed" {
            newOps.remove(at: opIndex)
          } else {
            newOps[opIndex]["path"] = "\(newOps[opIndex]["path"] ?? "")X"
          }
          var newEvents = events
          newEvents[eventIndex]["ops"] = newOps
          var domain = domains[0]
          domain["events"] = newEvents
          let name = "\(event["name"] ?? "?") op \(opIndex) \(kind)"
          mutations.append(Mutation(name: name, text: json(["domains": [domain]])))
        }
      }
    }
    return mutations
  }()

  static func json(_ value: Any) -> String {
    let data =
      (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// A log of cart events, valid under the spec: items removed are in the cart of their
  /// source (each key's own).
  static func log(seed: UInt64, events: Int) -> String {
    var random = SplitMix64(seed: seed)
    let skus = ["A-1", "B-2", "C-3", "D-4"]
    let sources = ["ios", "web", "kiosk"]
    var carts: [String: [(sku: String, price: Int)]] = [:]
    var lines: [String] = []
    for index in 0..<events {
      let source = sources[Int(random.next() % 3)]
      let ts = String(format: "2026-11-22T10:%02d:%02dZ", index / 60 % 60, index % 60)
      let roll = random.next() % 10
      var cart = carts[source] ?? []
      if roll < 5 || (roll < 8 && cart.isEmpty) {
        let sku = skus[Int(random.next() % 4)]
        let price = Int(random.next() % 50) + 1
        cart.append((sku, price))
        let payload = #"{"sku":"\#(sku)","price":\#(price)}"#
        lines.append(
          #"{"type":"cart.add","ts":"\#(ts)","source":"\#(source)","payload":\#(payload)}"#)
      } else if roll < 8 {
        let item = cart.remove(at: Int(random.next() % UInt64(cart.count)))
        // The spec removes the first element equal to the sku, whichever price it had.
        let payload = #"{"sku":"\#(item.sku)","price":\#(item.price)}"#
        lines.append(
          #"{"type":"cart.remove","ts":"\#(ts)","source":"\#(source)","payload":\#(payload)}"#)
      } else {
        cart = []
        lines.append(#"{"type":"cart.checkout","ts":"\#(ts)","source":"\#(source)"}"#)
      }
      carts[source] = cart
    }
    return lines.map { $0 + "\n" }.joined()
  }

  /// What one plain replay printed: each line's record, and the lines it rejected.
  struct Replayed {
    var states: [Int: Any] = [:]
    var rejected: Set<Int> = []
  }

  static func run(_ arguments: [String]) async throws -> (String, String, Int32) {
    let result = try await TestProcess.run(
      BuiltBinary.path, arguments, environment: BuiltBinary.environment)
    return (
      String(decoding: result.standardOutput, as: UTF8.self), result.standardError, result.status
    )
  }

  static func replay(spec: String, log: String, keyed: Bool) async throws -> Replayed {
    let (output, errors, _) = try await run(
      ["replay", "--spec", spec, "--with-event", "--on-error", "skip"]
        + (keyed ? ["--key-by", "source"] : []) + [log])
    var replayed = Replayed()
    for line in output.split(separator: "\n") {
      let record = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let number = try #require(record["line"] as? Int)
      replayed.states[number] = record["state"]
    }
    for line in errors.split(separator: "\n") where line.hasPrefix(log + ":") {
      let parts = line.dropFirst(log.count + 1).split(separator: ":")
      if parts.count > 2, parts[2].hasPrefix(" error"), let number = Int(parts[0]) {
        replayed.rejected.insert(number)
      }
    }
    return replayed
  }

  /// The state before any event: the final state of an empty log.
  static func initialState(spec: String, empty: String) async throws -> Any {
    let (output, _, _) = try await run(["replay", "--spec", spec, "--final", empty])
    return try JSONSerialization.jsonObject(with: Data(output.utf8))
  }

  /// The reference's first divergence: the line, and each version's state after it.
  struct Expected {
    let line: Int
    let old: Any
    let new: Any
    let oldRejects: Bool
    let newRejects: Bool
  }

  static func expectedDivergence(
    old: Replayed, new: Replayed, oldInitial: Any, newInitial: Any, logText: String,
    keyed: Bool
  ) throws -> Expected? {
    var oldStates: [String: Any] = [:]
    var newStates: [String: Any] = [:]
    for (index, text) in logText.split(separator: "\n").enumerated() {
      let line = index + 1
      let event = try #require(
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
      let key = keyed ? (event["source"] as? String ?? "") : ""
      let oldState = old.states[line] ?? oldStates[key] ?? oldInitial
      let newState = new.states[line] ?? newStates[key] ?? newInitial
      let oldRejects = old.rejected.contains(line)
      let newRejects = new.rejected.contains(line)
      if oldRejects != newRejects
        || !NSDictionary(dictionary: ["v": oldState]).isEqual(
          to: ["v": newState])
      {
        return Expected(
          line: line, old: oldState, new: newState, oldRejects: oldRejects,
          newRejects: newRejects)
      }
      oldStates[key] = oldState
      newStates[key] = newState
    }
    return nil
  }

  /// The value at an RFC 6901 pointer, or `nil` where there is none.
  static func resolve(_ pointer: String, in value: Any) -> Any? {
    var current: Any? = value
    for part in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
      let name = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(
        of: "~0", with: "~")
      if let object = current as? [String: Any] {
        current = object[name]
      } else if let array = current as? [Any], let index = Int(name), array.indices.contains(index)
      {
        current = array[index]
      } else {
        return nil
      }
    }
    return current
  }

  static func same(_ a: Any?, _ b: Any?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (let a?, let b?): return NSDictionary(dictionary: ["v": a]).isEqual(to: ["v": b])
    default: return false
    }
  }

  @Test(arguments: mutations)
  func reportsAMutationAtTheFirstEventItAffects(_ mutation: Mutation) async throws {
    let directory = try TemporaryDirectory()
    try directory.write("old.json", Self.json(Self.spec))
    try directory.write("new.json", mutation.text)
    let text = Self.log(seed: 44, events: 120)
    try directory.write("events.jsonl", text)
    let log = directory.file("events.jsonl")
    try directory.write("empty.jsonl", "")
    let empty = directory.file("empty.jsonl")
    let oldInitial = try await Self.initialState(spec: directory.file("old.json"), empty: empty)
    let newInitial = try await Self.initialState(spec: directory.file("new.json"), empty: empty)
    for keyed in [false, true] {
      let old = try await Self.replay(spec: directory.file("old.json"), log: log, keyed: keyed)
      let new = try await Self.replay(spec: directory.file("new.json"), log: log, keyed: keyed)
      let expected = try Self.expectedDivergence(
        old: old, new: new, oldInitial: oldInitial, newInitial: newInitial, logText: text,
        keyed: keyed)
      for jobs in ["1", "2"] {
        let (output, errors, status) = try await Self.run(
          [
            "compare", "--old-spec", directory.file("old.json"), "--new-spec",
            directory.file("new.json"), "--format", "json", "-j", jobs,
          ]
            + (keyed ? ["--key-by", "source"] : []) + [log])
        let context = "\(mutation.name), keyed \(keyed), -j \(jobs): \(errors)"
        let report = try #require(
          try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(context)")
        let entry = try #require((report["logs"] as? [[String: Any]])?.first, "\(context)")
        guard let expected else {
          #expect(entry["status"] as? String == "identical", "\(context)")
          #expect(status == 0, "\(context)")
          continue
        }
        #expect(status == 1, "\(context)")
        #expect(entry["status"] as? String == "divergent", "\(context)")
        let divergence = try #require(entry["divergence"] as? [String: Any], "\(context)")
        // One event per line, no blank line: the event's number is its line's.
        #expect(divergence["line"] as? Int == expected.line, "\(context)")
        #expect(divergence["event"] as? Int == expected.line, "\(context)")
        let oldDid = (divergence["old"] as? [String: Any])?["did"] as? String
        let newDid = (divergence["new"] as? [String: Any])?["did"] as? String
        #expect((oldDid == "rejected") == expected.oldRejects, "\(context)")
        #expect((newDid == "rejected") == expected.newRejects, "\(context)")
        if keyed {
          let event = try #require(
            try JSONSerialization.jsonObject(
              with: Data(text.split(separator: "\n")[expected.line - 1].utf8)) as? [String: Any])
          #expect(divergence["key"] as? String == event["source"] as? String, "\(context)")
        }
        let differences = divergence["differences"] as? [[String: Any]] ?? []
        if !expected.oldRejects, !expected.newRejects {
          #expect(!differences.isEmpty, "\(context)")
        }
        for difference in differences {
          let pointer = try #require(difference["path"] as? String)
          let oldValue = Self.resolve(pointer, in: expected.old)
          let newValue = Self.resolve(pointer, in: expected.new)
          #expect(!Self.same(oldValue, newValue), "\(context): \(pointer)")
          #expect(Self.same(newValue, difference["value"]), "\(context): new value at \(pointer)")
          #expect(
            Self.same(oldValue, difference["expected"]), "\(context): old value at \(pointer)")
        }
      }
    }
  }
}
