#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Streams a JSON-lines input one line at a time, in large chunks, with flat memory.
///
/// The reader never holds more than one chunk plus the line being read, however long the input.
/// It accepts `\n` and `\r\n` line ends, a UTF-8 byte order mark at the very start, and a last
/// line without a line end. A line longer than `maximumLineLength` (not counting its line end) is
/// reported once, as a line whose ``JSONLine/isTooLong`` is `true` and whose bytes are empty, and
/// its bytes are skipped without being stored.
///
/// A line's bytes live in the reader's buffer and stay valid until the next call to ``next()``;
/// created with `keepsLines`, the reader never overwrites them, and they stay valid as long as
/// the ``JSONLinesBlock`` they are in (``currentBlock`` after reading the line) is kept.
///
/// ```swift
/// let reader = JSONLinesReader(source: JSONMemorySource(Array("{\"a\":1}\r\n\n[2]".utf8)))
/// while let line = try reader.next() {
///   print(line.number, line.count)   // 1 7, 2 0, 3 3
/// }
/// ```
public final class JSONLinesReader<Source: JSONByteSource> {
  // One reader serves one thread at a time, so its properties need no runtime exclusivity
  // checks, which cost a thread-local lookup on every line.
  /// The input.
  @exclusivity(unchecked) public private(set) var source: Source
  /// The longest line accepted, in bytes, without its line end.
  public let maximumLineLength: Int
  /// The number of the last line returned (1-based); 0 before the first.
  @exclusivity(unchecked) public private(set) var lineNumber = 0
  /// The number of bytes read from the source so far.
  @exclusivity(unchecked) public private(set) var bytesRead = 0

  private let chunkSize: Int
  /// Whether to leave the bytes of the lines returned where they are: the reader then reads on
  /// into a new block instead of moving the unread bytes to the start of its buffer.
  public let keepsLines: Bool
  /// The block that holds the buffer.
  @exclusivity(unchecked) private var block: JSONLinesBlock
  @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) private var capacity: Int
  // Read inline by ``offsetOfNextLine``, once per line of a replay that saves checkpoints.
  @exclusivity(unchecked) @usableFromInline internal private(set) var start = 0
  @exclusivity(unchecked) @usableFromInline internal private(set) var end = 0
  @exclusivity(unchecked) private var scanned = 0
  @exclusivity(unchecked) private var isAtEndOfInput = false
  @exclusivity(unchecked) private var isSkippingLongLine = false
  @exclusivity(unchecked) private var checkedByteOrderMark = false

  /// Creates a reader over a source.
  ///
  /// ```swift
  /// let reader = JSONLinesReader(source: JSONMemorySource(bytes), chunkSize: 1 << 16)
  /// ```
  ///
  /// - Parameters:
  ///   - source: Where the bytes come from.
  ///   - chunkSize: How many bytes to ask the source for at a time.
  ///   - maximumLineLength: The longest line accepted, in bytes.
  ///   - keepsLines: Whether to keep each line's bytes after it was handed on.
  public init(
    source: Source, chunkSize: Int = 1 << 20,
    maximumLineLength: Int = JSONLimits.maximumLineLength, keepsLines: Bool = false
  ) {
    self.source = source
    self.chunkSize = max(16, chunkSize)
    self.maximumLineLength = max(1, maximumLineLength)
    self.keepsLines = keepsLines
    self.capacity = self.chunkSize
    self.block = JSONLinesBlock(capacity: self.chunkSize)
    self.buffer = block.bytes
  }

  /// The block that the bytes of the line ``next()`` returned last are in.
  ///
  /// With `keepsLines`, keeping the block keeps those bytes valid, after the reader has moved
  /// on; the reader goes on to a new block when this one is full (see ``blockNumber``).
  ///
  /// ```swift
  /// let reader = JSONLinesReader(source: source, keepsLines: true)
  /// var blocks: [JSONLinesBlock] = []
  /// while let line = try reader.next() {
  ///   if blocks.last !== reader.currentBlock { blocks.append(reader.currentBlock) }
  ///   lines.append(line)   // valid while `blocks` is kept
  /// }
  /// ```
  public var currentBlock: JSONLinesBlock { block }

  /// How many times the reader went on to a new block: a cheap way to tell whether
  /// ``currentBlock`` changed since a line read earlier.
  @exclusivity(unchecked) public private(set) var blockNumber = 0

  /// Returns the next line, or `nil` at the end of the input.
  ///
  /// ```swift
  /// while let line = try reader.next() { handle(line) }
  /// ```
  ///
  /// - Returns: The line; its bytes are valid until the next call.
  /// - Throws: The source's error when reading fails.
  public func next() throws -> JSONLine? {
    // The common case first, a whole line in the buffer: the reading thread of a replay spends
    // a good part of its time here.
    if checkedByteOrderMark, !isSkippingLongLine, scanned < end,
      let found = memchr(buffer + scanned, 0x0A, end - scanned)
    {
      let newline = buffer.distance(to: found.assumingMemoryBound(to: UInt8.self))
      let lineStart = start
      start = newline + 1
      scanned = start
      return makeLine(from: lineStart, to: newline)
    }
    while true {
      switch takeBufferedLine() {
      case .line(let line): return line
      case .end: return nil
      case .needsInput: try fill()
      }
    }
  }

  /// What the reader can return without reading: a line, the end, or nothing until it reads.
  ///
  /// ```swift
  /// if case .line(let line) = reader.takeBufferedLine() { handle(line) }
  /// ```
  public enum BufferedLine {
    /// A whole line (or one found too long).
    case line(JSONLine)
    /// The input ended and every line was returned.
    case end
    /// No whole line is in the buffer: ``readMore()`` must read before the next one.
    case needsInput
  }

  /// Returns the next line if its end is already in the buffer, without reading: for a reader
  /// of a pipe that must not wait for input while it holds lines to hand on.
  ///
  /// A partial last line is held until its line end arrives, or the input ends.
  ///
  /// ```swift
  /// switch reader.takeBufferedLine() {
  /// case .line(let line): handle(line)
  /// case .end: return
  /// case .needsInput: flush(); try reader.readMore()
  /// }
  /// ```
  ///
  /// - Returns: The line, the end, or that input is needed.
  public func takeBufferedLine() -> BufferedLine {
    if !checkedByteOrderMark {
      guard end >= 3 || isAtEndOfInput else { return .needsInput }
      skipByteOrderMark()
    }
    while true {
      if scanned < end, let found = memchr(buffer + scanned, 0x0A, end - scanned) {
        let newline = buffer.distance(to: found.assumingMemoryBound(to: UInt8.self))
        let lineStart = start
        start = newline + 1
        scanned = start
        if isSkippingLongLine {
          isSkippingLongLine = false
          continue
        }
        return .line(makeLine(from: lineStart, to: newline))
      }
      scanned = end
      // A carriage return at the end may be the first half of a CRLF line end.
      var pending = end - start
      if pending > 0, buffer[end - 1] == 0x0D { pending -= 1 }
      if !isSkippingLongLine, pending > maximumLineLength {
        lineNumber += 1
        isSkippingLongLine = true
        start = end
        return .line(JSONLine(number: lineNumber, bytes: emptyBytes, isTooLong: true))
      }
      if isSkippingLongLine {
        start = end
      }
      if isAtEndOfInput {
        guard start < end, !isSkippingLongLine else { return .end }
        let lineStart = start
        start = end
        endedWithoutLineEnd = true
        return .line(makeLine(from: lineStart, to: end))
      }
      return .needsInput
    }
  }

  /// Reads more input into the buffer, waiting for it if the source waits.
  ///
  /// ```swift
  /// if case .needsInput = reader.takeBufferedLine() { try reader.readMore() }
  /// ```
  ///
  /// - Throws: The source's error when reading fails.
  public func readMore() throws {
    try fill()
  }

  /// How many bytes of the input come before the next line: those of every line returned,
  /// line ends included, and of a byte order mark skipped. After a line found too long, it is
  /// where the reader is in that line, not its end, which is not read yet.
  ///
  /// ```swift
  /// let line = try reader.next()
  /// reader.offsetOfNextLine   // the byte after the line's line end
  /// ```
  @inlinable public var offsetOfNextLine: Int { bytesRead - (end - start) }

  /// How many bytes were read that belong to no line returned yet: a partial last line.
  ///
  /// ```swift
  /// if case .needsInput = reader.takeBufferedLine() { print(reader.unfinishedByteCount) }
  /// ```
  public var unfinishedByteCount: Int { end - start }

  /// Whether the input ended with bytes after its last line end, which ``next()`` then
  /// returned as a last line: a log cut off in the middle of a line.
  ///
  /// ```swift
  /// while let line = try reader.next() { lines.append(line) }
  /// if reader.endedWithoutLineEnd { print("the last line was cut off") }
  /// ```
  @exclusivity(unchecked) public private(set) var endedWithoutLineEnd = false

  /// Goes on reading the source after its end, as a new input — for a source that goes on in
  /// a new file, such as a log followed through its rotation: line numbers start again at 1,
  /// and a byte order mark is skipped again. The lines returned before stay valid as long as
  /// their block is kept.
  ///
  /// ```swift
  /// while try reader.next() != nil {}
  /// reader.restart()   // the source now reads the new file
  /// ```
  public func restart() {
    moveUnreadBytes(toNewBlockOf: chunkSize)
    isAtEndOfInput = false
    isSkippingLongLine = false
    checkedByteOrderMark = false
    endedWithoutLineEnd = false
    lineNumber = 0
  }

  /// Numbers the lines from `count + 1` on, for a source that starts after the first `count`
  /// lines of its input (a replay resumed from a checkpoint), and skips no byte order mark,
  /// which only the input's start may have. Call it before the first line is read.
  package func resumeLineNumbers(after count: Int) {
    lineNumber = count
    if count > 0 { checkedByteOrderMark = true }
  }

  private func makeLine(from lineStart: Int, to lineEnd: Int) -> JSONLine {
    lineNumber += 1
    var contentEnd = lineEnd
    if contentEnd > lineStart, buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
    let length = contentEnd - lineStart
    guard length <= maximumLineLength else {
      return JSONLine(number: lineNumber, bytes: emptyBytes, isTooLong: true)
    }
    return JSONLine(
      number: lineNumber, bytes: UnsafeBufferPointer(start: buffer + lineStart, count: length),
      isTooLong: false)
  }

  /// No bytes, for a line that was too long.
  private var emptyBytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: buffer, count: 0)
  }

  /// Skips a UTF-8 byte order mark at the start of the input, once the first bytes are there.
  private func skipByteOrderMark() {
    checkedByteOrderMark = true
    if end >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
      start = 3
      scanned = 3
    }
  }

  /// Makes room — moves the unread bytes to the front, or with `keepsLines` to a new block once
  /// this one is nearly full — grows the buffer if a line fills it, and reads more.
  private func fill() throws {
    if keepsLines {
      // Read on after the lines returned; once the block is nearly full, leave them in it and
      // go on in a new one that starts with the unread bytes, with room for a chunk (or half as
      // much again as a line that long).
      if capacity - end < chunkSize / 2 {
        let pending = end - start
        moveUnreadBytes(toNewBlockOf: max(chunkSize, pending + max(chunkSize / 2, pending / 2)))
      }
    } else {
      if start > 0 {
        let pending = end - start
        if pending > 0 { (buffer).update(from: buffer + start, count: pending) }
        scanned -= start
        end = pending
        start = 0
      }
      if capacity - end < chunkSize / 2 {
        moveUnreadBytes(toNewBlockOf: capacity + max(chunkSize, capacity / 2))
      }
    }
    try read()
  }

  /// Goes on in a new block of `newCapacity` bytes, which starts with the bytes not yet returned;
  /// the old block is freed unless someone keeps it.
  private func moveUnreadBytes(toNewBlockOf newCapacity: Int) {
    let pending = end - start
    let next = JSONLinesBlock(capacity: newCapacity)
    if pending > 0 { next.bytes.update(from: buffer + start, count: pending) }
    block = next
    buffer = next.bytes
    capacity = newCapacity
    blockNumber += 1
    scanned -= start
    end = pending
    start = 0
  }

  /// Reads what the source gives into the buffer's free space.
  private func read() throws {
    let count = try source.read(
      into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
    if count == 0 {
      isAtEndOfInput = true
    }
    end += count
    bytesRead += count
  }
}

/// Bytes a ``JSONLinesReader`` read into, which the lines it returned point into.
///
/// A reader created with `keepsLines` never writes over the bytes of a line it returned, so
/// keeping the block a line is in keeps the line's bytes valid, on any thread: the reader only
/// writes bytes beyond the lines it returned.
///
/// ```swift
/// let block = reader.currentBlock   // keeps the last line's bytes
/// ```
public final class JSONLinesBlock: @unchecked Sendable {
  /// The start of the block's bytes.
  let bytes: UnsafeMutablePointer<UInt8>

  init(capacity: Int) {
    bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
  }

  deinit {
    bytes.deallocate()
  }
}

/// One line of a JSON-lines input.
///
/// The line's bytes stay in the reader's buffer: they are lent to a closure as a `Span`
/// (``withSpan(_:)``), valid only inside it, or copied (``array``).
///
/// ```swift
/// if let line = try reader.next(), !line.isBlank {
///   let value = try line.withSpan { try JSONParser.parse($0) }
/// }
/// ```
public struct JSONLine {
  /// The line's number, counting from 1.
  public let number: Int
  /// The line's bytes, without the line end; valid until the reader's next call. The
  /// package's own readers use them in place; the public forms are ``withSpan(_:)`` and
  /// ``array``.
  package let bytes: UnsafeBufferPointer<UInt8>

  /// The number of the line's bytes, without the line end.
  ///
  /// ```swift
  /// print(line.count)   // 7 for {"a":1}
  /// ```
  public var count: Int { bytes.count }

  /// A copy of the line's bytes, without the line end, that stays valid after the reader
  /// reads on.
  ///
  /// ```swift
  /// lines.append(line.array)
  /// ```
  public var array: [UInt8] { Array(bytes) }

  /// Calls `body` with the line's bytes, without the line end, as a span valid only inside the
  /// call, and returns what it returns.
  ///
  /// The span reads the reader's buffer in place, without a copy; it cannot outlive the call,
  /// so it cannot be read after the reader has read on and reused the buffer.
  ///
  /// ```swift
  /// let value = try line.withSpan { try JSONParser.parse($0) }
  /// let isArray = line.withSpan { !$0.isEmpty && $0[0] == UInt8(ascii: "[") }
  /// ```
  ///
  /// - Parameter body: What to do with the bytes.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withSpan<Result, Failure: Error>(
    _ body: (Span<UInt8>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body(Span(_unsafeElements: bytes))
  }
  /// Whether the line exceeded the reader's limit; its bytes were skipped and ``bytes`` is empty.
  public let isTooLong: Bool

  /// Whether the line holds nothing but spaces and tabs.
  ///
  /// ```swift
  /// if line.isBlank { blankLines += 1 }
  /// ```
  public var isBlank: Bool {
    !isTooLong && JSONLine.isBlank(bytes)
  }

  /// Whether `bytes` hold nothing but spaces, tabs and carriage returns: a line that holds
  /// no value, which readers of JSON lines pass over.
  ///
  /// ```swift
  /// JSONLine.isBlank(Array(" \t\r".utf8).span)   // true
  /// JSONLine.isBlank(Array(" {}".utf8).span)      // false
  /// ```
  ///
  /// - Parameter bytes: A line's bytes, without its line feed.
  /// - Returns: `true` for an empty or blank line.
  public static func isBlank(_ bytes: Span<UInt8>) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in isBlank(buffer) }
  }

  /// Whether bytes in memory the caller keeps valid hold nothing but spaces, tabs and carriage
  /// returns: the replay's own path (the form that takes a `Span` is the public one).
  ///
  /// ```swift
  /// JSONLine.isBlank(bytes)   // true for "  \t"
  /// ```
  ///
  /// - Parameter bytes: A line's bytes.
  /// - Returns: `true` for an empty or blank line.
  @inlinable
  package static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    // Most lines start with '{': decide at the first byte.
    for byte in bytes where byte != 0x20 && byte != 0x09 && byte != 0x0D { return false }
    return true
  }
}
