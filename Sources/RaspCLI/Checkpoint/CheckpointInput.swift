#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Dispatch
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
/// let read = try input.resume(at: 190_348, line: 1742, hashedUpTo: 1_048_576)
/// read?.hexadecimal   // the hash the checkpoint must have
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
  private(set) var hash: SegmentedLogHash

  /// Why a log could not be read again.
  struct ReadError: Error {
    let message: String
  }

  /// A log at its start.
  ///
  /// - Parameters:
  ///   - name: The log's name in messages.
  ///   - path: The log's path.
  ///   - segmentSize: The bytes of the hash's segments: the standard size but in tests.
  init(name: String, path: String, segmentSize: Int = SegmentedLogHash.standardSegmentSize) {
    self.name = name
    self.path = path
    hash = SegmentedLogHash(segmentSize: segmentSize)
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

  /// Goes to where a checkpoint left the log — byte `offset`, after line `line` — with the
  /// hash of the bytes before, and returns the hash of the log's first `hashed` bytes (at least
  /// `offset`), what the checkpoint read, to compare with its own; `nil` when the log is
  /// shorter. The whole segments are hashed on every core at once.
  ///
  /// - Throws: ``ReadError`` when the log cannot be read.
  mutating func resume(at offset: Int, line: Int, hashedUpTo hashed: Int) throws(ReadError)
    -> SegmentedLogHash?
  {
    let size = hash.segmentSize
    let whole = hashed / size
    guard let segments = try Self.hashSegments(path, count: whole, size: size) else {
      return nil
    }
    // The bytes of the offset's segment before it, where the next checkpoint goes on.
    let segment = offset / size
    var beforeOffset = LogHash()
    guard try Self.hash(path, from: segment * size, to: offset, into: &beforeOffset) else {
      return nil
    }
    var afterSegments = segment == whole ? beforeOffset : LogHash()
    let start = segment == whole ? offset : whole * size
    guard try Self.hash(path, from: start, to: hashed, into: &afterSegments) else { return nil }
    self.hash = SegmentedLogHash(
      segments: Array(segments.prefix(segment)), last: beforeOffset, segmentSize: size)
    self.offset = offset
    self.line = line
    return SegmentedLogHash(segments: segments, last: afterSegments, segmentSize: size)
  }

  /// The hash of the log's first `count` bytes as a checkpoint of version 1 made it, one
  /// ``RaspReplay/LogHash`` of them all; `nil` when the log is shorter.
  ///
  /// - Throws: ``ReadError`` when the log cannot be read.
  func plainHash(ofFirst count: Int) throws(ReadError) -> LogHash? {
    var hash = LogHash()
    return try Self.hash(path, from: 0, to: count, into: &hash) ? hash : nil
  }

  /// The hashes of the log's first `count` segments of `size` bytes, hashed on every core at
  /// once; `nil` when the log is shorter.
  private static func hashSegments(_ path: String, count: Int, size: Int) throws(ReadError)
    -> [UInt64]?
  {
    let results = UnsafeMutableBufferPointer<Result<UInt64?, ReadError>>.allocate(
      capacity: count)
    results.initialize(repeating: .success(nil))
    defer { results.deallocate() }
    let shared = SharedResults(results)
    DispatchQueue.concurrentPerform(iterations: count) { index in
      var hash = LogHash()
      shared.results[index] = Result { () throws(ReadError) in
        try Self.hash(path, from: index * size, to: (index + 1) * size, into: &hash)
          ? hash.value : nil
      }
    }
    var segments: [UInt64] = []
    segments.reserveCapacity(count)
    for result in results {
      guard let value = try result.get() else { return nil }
      segments.append(value)
    }
    return segments
  }

  /// Where the segments' threads write their results, each its own.
  private struct SharedResults: @unchecked Sendable {
    let results: UnsafeMutableBufferPointer<Result<UInt64?, ReadError>>
    init(_ results: UnsafeMutableBufferPointer<Result<UInt64?, ReadError>>) {
      self.results = results
    }
  }

  /// Hashes the log's bytes from `start` up to `end` into `hash`.
  ///
  /// - Returns: Whether the log has them all.
  private static func hash(_ path: String, from start: Int, to end: Int, into hash: inout LogHash)
    throws(ReadError) -> Bool
  {
    try read(path, from: start, upTo: end) { hash.update($0) } == max(start, end)
  }

  /// Hashes the bytes from ``offset`` up to `end`, and goes there; to the log's end when it is
  /// shorter.
  ///
  /// - Returns: Whether the log has `end` bytes.
  /// - Throws: ``ReadError`` when the log cannot be read.
  private mutating func hash(upTo end: Int) throws(ReadError) -> Bool {
    guard end > offset else { return end == offset }
    var hash = self.hash
    offset = try Self.read(path, from: offset, upTo: end) { hash.update($0) }
    self.hash = hash
    return offset == end
  }

  /// Reads the log's bytes from `start` up to `end`, a chunk at a time, into `body`.
  ///
  /// - Returns: Where it stopped: `end`, or the log's end when it is shorter.
  private static func read(
    _ path: String, from start: Int, upTo end: Int, _ body: (UnsafeRawBufferPointer) -> Void
  ) throws(ReadError) -> Int {
    guard end > start else { return start }
    var position = start
    try read(path, from: start) { chunk in
      let taken = min(chunk.count, end - position)
      body(UnsafeRawBufferPointer(rebasing: chunk[0..<taken]))
      position += taken
      return position < end
    }
    return position
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
