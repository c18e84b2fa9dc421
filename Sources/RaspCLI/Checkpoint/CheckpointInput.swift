#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspReplay

/// Where a replay is in one log, for its checkpoints: the byte after the last line it
/// handled, that line's number, and the hash of every byte before.
///
/// A resume hashes the log's bytes up to the checkpoint's offset here, and on up to what the
/// checkpoint read, to check them. A replay hashes what it reads as it reads it
/// (``RaspReplay/ReplayCheckpoint/readHashes``), so a checkpoint does not read the log again;
/// only after a line found too long, whose end the replay could not tell, is the log read
/// again here from the last place known, to count its line ends and hash the bytes.
///
/// ```swift
/// var input = try CheckpointInput(name: "events.jsonl", path: resolved)
/// try input.advance(toLine: 1742, endingAt: 190_348)
/// input.hash   // of the log's first 190,348 bytes
/// ```
struct CheckpointInput {
  /// The log's name, as the user wrote it.
  let name: String
  /// Its path, resolved.
  let path: String
  /// The byte after the last line handled.
  private(set) var offset = 0
  /// The number of the last line handled.
  private(set) var line = 0
  /// The hash of the bytes before ``offset``.
  private(set) var hash = LogHash()

  /// Why a log could not be read again.
  struct ReadError: Error {
    let message: String
  }

  /// A log at its start.
  init(name: String, path: String) {
    self.name = name
    self.path = path
  }

  /// Goes to the end of line `target`, which the replay found at byte `end`, hashing every byte
  /// on the way. When the replay could not tell where the line ends (`end` is -1: a line
  /// found too long), the line ends are counted instead.
  ///
  /// - Throws: ``ReadError`` when the log cannot be read, or is shorter than `end`: it was
  ///   truncated while being replayed.
  mutating func advance(toLine target: Int, endingAt end: Int) throws(ReadError) {
    guard end >= 0 else { return try advance(toLine: target) }
    guard try hash(upTo: end) else {
      throw ReadError(message: "it is shorter than the \(end) bytes replayed: it was truncated")
    }
    line = target
  }

  /// Goes to the end of line `target` by counting line ends, hashing every byte on the way; at
  /// the log's end when it has fewer lines (its last without a line end).
  ///
  /// - Throws: ``ReadError`` when the log cannot be read.
  private mutating func advance(toLine target: Int) throws(ReadError) {
    guard target > line else { return }
    var line = self.line
    var hash = self.hash
    var offset = self.offset
    var isInLine = false
    try Self.read(path, from: offset) { chunk in
      var start = 0
      while line < target, start < chunk.count {
        guard let found = memchr(chunk.baseAddress! + start, 0x0A, chunk.count - start) else {
          start = chunk.count
          isInLine = true
          break
        }
        start = chunk.baseAddress!.distance(to: UnsafeRawPointer(found)) + 1
        isInLine = false
        line += 1
      }
      hash.update(UnsafeRawBufferPointer(rebasing: chunk[0..<start]))
      offset += start
      return line < target
    }
    // A last line without a line end is a line too.
    if line < target, isInLine { line += 1 }
    self.line = line
    self.hash = hash
    self.offset = offset
  }

  /// Hashes the first `count` bytes of the log, whose last line is numbered `line`: where a
  /// checkpoint left it.
  ///
  /// - Returns: Whether the log has `count` bytes.
  /// - Throws: ``ReadError`` when the log cannot be read.
  mutating func skip(bytes count: Int, line: Int) throws(ReadError) -> Bool {
    let isLongEnough = try hash(upTo: count)
    self.line = line
    return isLongEnough
  }

  /// The hash of the log's first `count` bytes, at or after ``offset``, or `nil` when the log
  /// is shorter; where the log is stays as it was.
  ///
  /// - Throws: ``ReadError`` when the log cannot be read.
  func hash(ofFirst count: Int) throws(ReadError) -> LogHash? {
    var copy = self
    return try copy.hash(upTo: count) ? copy.hash : nil
  }

  /// Hashes the bytes from ``offset`` up to `end`, and goes there; to the log's end when it is
  /// shorter.
  ///
  /// - Returns: Whether the log has `end` bytes.
  /// - Throws: ``ReadError`` when the log cannot be read.
  private mutating func hash(upTo end: Int) throws(ReadError) -> Bool {
    guard end > offset else { return end == offset }
    var hash = self.hash
    var offset = self.offset
    try Self.read(path, from: offset) { chunk in
      let taken = min(chunk.count, end - offset)
      hash.update(UnsafeRawBufferPointer(rebasing: chunk[0..<taken]))
      offset += taken
      return offset < end
    }
    self.hash = hash
    self.offset = offset
    return offset == end
  }

  /// The log's size now, or `nil` when it cannot be asked.
  func size() -> Int? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return Int(status.st_size)
  }

  /// Reads the log at `path` from `start` on, a chunk at a time, while `body` asks for more.
  private static func read(
    _ path: String, from start: Int, _ body: (UnsafeRawBufferPointer) -> Bool
  ) throws(ReadError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw ReadError(message: String(cString: strerror(errno))) }
    defer { close(descriptor) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    var position = start
    while true {
      let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(position))
      if count < 0 {
        if errno == EINTR { continue }
        throw ReadError(message: String(cString: strerror(errno)))
      }
      if count == 0 { return }
      position += count
      guard body(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else { return }
    }
  }
}
