import RaspTestSupport

/// A log with a planted culprit, for `rasp shrink`: thousands of harmless events of many keys,
/// and three deposits of one key that, together and only together, overflow its vault's total
/// (6e307 × 3 is beyond the largest double), so that the third of them is a bad line.
///
/// The harmless events are `geo.heading`, `nav.push` and small `vault.deposit`s, none of which
/// can be rejected; the `vault` domain is `fixtures/shrink-vault/vault.json`.
///
/// ```swift
/// let log = PlantedCulpritLog(events: 10_000, keys: 100, seed: 1)
/// log.text            // 10,000 lines
/// log.culpritLines    // the three lines a shrink must end with
/// ```
struct PlantedCulpritLog {
  /// The log's lines, each with its line end.
  let lines: [String]
  /// The positions of the three planted lines, ascending.
  let culprits: [Int]

  /// Generates `events` events over `keys` keys.
  init(events: Int, keys: Int, seed: UInt64) {
    var random = RandomEvents(seed: seed)
    var lines: [String] = []
    lines.reserveCapacity(events)
    for _ in 0..<events {
      let key = "user-\(random.int(keys))"
      switch random.int(3) {
      case 0:
        let heading = random.int(361)
        lines.append(
          #"{"type":"geo.heading","source":"\#(key)","payload":{"heading":\#(heading)}}"# + "\n")
      case 1:
        let screen = ["home", "cart", "search", "settings"][random.int(4)]
        lines.append(
          #"{"type":"nav.push","source":"\#(key)","payload":{"screen":"\#(screen)"}}"# + "\n")
      default:
        let amount = 1 + random.int(99)
        lines.append(
          #"{"type":"vault.deposit","source":"\#(key)","payload":{"amount":\#(amount)}}"# + "\n")
      }
    }
    // Three positions far apart, none the same.
    var culprits: Set<Int> = []
    while culprits.count < 3 { culprits.insert(random.int(events)) }
    self.culprits = culprits.sorted()
    let victim = "user-\(random.int(keys))"
    for (number, position) in self.culprits.enumerated() {
      lines[position] =
        #"{"type":"vault.deposit","source":"\#(victim)","payload":{"amount":6e307,"n":\#(number)}}"#
        + "\n"
    }
    self.lines = lines
  }

  /// The whole log.
  var text: String { lines.joined() }

  /// The planted lines, in order: what a shrink must leave.
  var culpritLines: String { culprits.map { lines[$0] }.joined() }
}

/// `count` deposits to the vault, of amounts from 1 to 99 drawn from `seed` but 500 at the
/// positions `large` (from 0), each line with its line end: the log of the golden-check
/// shrinks, whose spec with a bug counts a deposit of 500 twice.
func vaultDeposits(count: Int, seed: UInt64, largeAt large: Set<Int>) -> [String] {
  var random = RandomEvents(seed: seed)
  return (0..<count).map { index in
    let amount = large.contains(index) ? 500 : 1 + random.int(99)
    return #"{"type":"vault.deposit","payload":{"amount":\#(amount)}}"# + "\n"
  }
}
