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
  /// The longest line, in bytes, that the JSON-lines reader accepts (16 MiB).
  public static let maximumLineLength = 16 << 20
}
