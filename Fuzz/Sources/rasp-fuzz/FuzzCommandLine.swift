/// The `rasp replay` command line for one input, and the log it replays.
///
/// An input that starts with `{`, like every seed made from the fixtures, is the log itself,
/// replayed with the baseline `replay --stats --on-error skip -`. Any other input starts with
/// two bytes of options, and the log is the rest; only the low seven bits of each count, so that
/// every combination has a first byte other than `{`:
///
/// | Bit | First byte                         | Second byte                                      |
/// |-----|------------------------------------|--------------------------------------------------|
/// | 0   | `--on-error fail` instead of skip  | `--domain geo --domain nav --domain rest`        |
/// | 1   | `--final`                          | `--pretty`                                       |
/// | 2   | `--select`, with bit 3 (below)     | also replay the log from a file, merged by time  |
/// | 3   | `--select`, with bit 2 (below)     | `--changes-only` (with `--emit diff`)            |
/// | 4   | `--emit diff`                      | standard input in chunks of 7 bytes, not 4096    |
/// | 5   | `--strict`                         | read the log from a file, not standard input     |
/// | 6   | `--with-event`                     |                                                  |
///
/// Bits 2 and 3 of the first byte, as a number, select nothing (0), `geo.heading` (1),
/// `nav.stack[-1]` (2) or `rest.links|length` (3).
///
/// Every combination is a valid command line, so every run must end with the `--stats` summary.
struct FuzzCommandLine {
  /// The log to replay.
  let log: [UInt8]
  /// Whether bad lines stop the replay (`--on-error fail`) rather than being skipped.
  let stopsAtBadLine: Bool
  /// Whether the output is indented, so that its lines are not one value each.
  let isPretty: Bool
  /// Whether the log is replayed a second time from a file, merged by time.
  let readsTwice: Bool
  /// Whether the log is read from a file rather than from standard input.
  let readsFromFile: Bool
  /// How many bytes standard input hands out per read.
  let inputChunkSize: Int
  /// The arguments, without the files.
  let options: [String]

  init(_ input: [UInt8]) {
    let first: UInt8
    let second: UInt8
    if input.count < 2 || input[0] == UInt8(ascii: "{") {
      (first, second, log) = (0, 0, input)
    } else {
      (first, second, log) = (input[0] & 0x7F, input[1] & 0x7F, Array(input.dropFirst(2)))
    }
    func bit(_ byte: UInt8, _ index: UInt8) -> Bool { byte & (1 << index) != 0 }
    stopsAtBadLine = bit(first, 0)
    isPretty = bit(second, 1)
    readsTwice = bit(second, 2)
    readsFromFile = bit(second, 5)
    inputChunkSize = bit(second, 4) ? 7 : 4096
    var options = ["replay", "--stats", "--on-error", stopsAtBadLine ? "fail" : "skip"]
    if bit(first, 1) { options.append("--final") }
    switch (first >> 2) & 3 {
    case 1: options += ["--select", "geo.heading"]
    case 2: options += ["--select", "nav.stack[-1]"]
    case 3: options += ["--select", "rest.links|length"]
    default: break
    }
    if bit(first, 4) {
      options += ["--emit", "diff"]
      if bit(second, 3) { options.append("--changes-only") }
    }
    if bit(first, 5) { options.append("--strict") }
    if bit(first, 6) { options.append("--with-event") }
    if bit(second, 0) { options += ["--domain", "geo", "--domain", "nav", "--domain", "rest"] }
    if isPretty { options.append("--pretty") }
    if bit(second, 6) {
      // Another log format: batches, OTLP requests, Kafka messages.
      let formats = ["fsa", "cloudevents", "segment", "otel", "kcat"]
      options += ["--log-format", formats[Int(first ^ second) % formats.count]]
    }
    self.options = options
  }
}
