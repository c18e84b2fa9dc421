import Synchronization

/// How far a replay has read, counted as it reads, for a progress display to sample from
/// another thread.
///
/// The replay adds to it once per block read (bytes) and once per batch of lines (lines), not
/// once per event, so counting costs nothing measurable; a display reads it as often as it
/// redraws. ``totalBytes`` is the size of the inputs when every one is a regular file, for a
/// percentage and an estimated time left.
///
/// ```swift
/// let progress = ReplayProgress(totalBytes: 1_000_000)
/// configuration.progress = progress
/// // on another thread, every 100 ms:
/// print(progress.bytesRead, progress.linesRead)
/// ```
public final class ReplayProgress: Sendable {
  /// The bytes read so far, from every input.
  private let bytes = Atomic<Int>(0)
  /// The lines read so far, from every input.
  private let lines = Atomic<Int>(0)

  /// The size of all the inputs, or `nil` when one of them has no known size (a pipe, a
  /// terminal, a followed file).
  public let totalBytes: Int?

  /// Creates a counter at zero.
  ///
  /// ```swift
  /// let progress = ReplayProgress(totalBytes: nil)   // a pipe: no percentage
  /// ```
  ///
  /// - Parameter totalBytes: The size of the inputs, when known.
  public init(totalBytes: Int?) {
    self.totalBytes = totalBytes
  }

  /// The bytes read so far.
  ///
  /// ```swift
  /// progress.bytesRead   // 262144 after the first block
  /// ```
  public var bytesRead: Int { bytes.load(ordering: .relaxed) }

  /// The lines read so far: events, bad lines, ignored and blank lines alike.
  ///
  /// ```swift
  /// progress.linesRead   // 4096 after the first batch
  /// ```
  public var linesRead: Int { lines.load(ordering: .relaxed) }

  /// Counts a block of bytes read.
  func add(bytes count: Int) {
    bytes.add(count, ordering: .relaxed)
  }

  /// Counts a batch of lines read.
  func add(lines count: Int) {
    lines.add(count, ordering: .relaxed)
  }
}
