/// The limits rasp enforces on JSON input, so that hostile input fails cleanly.
///
/// Each limit turns input that would exhaust the stack or memory into a
/// `file:line:column` error. They are documented in `docs/reliability.md`.
///
/// ```swift
/// var scanner = JSONScanner(buffer, maximumDepth: JSONLimits.maximumDepth)
/// ```
public enum JSONLimits {
  /// How deeply arrays and objects may nest (jq 1.6 allows 256).
  public static let maximumDepth = 512
  /// How deeply arrays and objects may nest in what rasp itself writes, and reads back: golden
  /// files, snapshots, checkpoints, its own records. A value from an event, as deep as an event
  /// may be, is written a few levels deeper — in a snapshot's domain, a key's record, a
  /// checkpoint's stream — and must read back as it was written.
  public static let maximumWrittenDepth = maximumDepth + 32
  /// The longest line, in bytes, that the JSON-lines reader accepts (16 MiB).
  public static let maximumLineLength = 16 << 20
}
