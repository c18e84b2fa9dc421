#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspJSON

/// Where an event log is read from: a file rasp opened, a descriptor it was given, or memory
/// in tests.
///
/// ```swift
/// let source = RaspInputSource.memory(JSONMemorySource(Array("{}\n".utf8)))
/// ```
public enum RaspInputSource: JSONByteSource, Sendable {
  /// A file opened for this source, closed when the last copy of the source is released —
  /// whether the log was read to its end or the replay stopped early.
  case file(RaspOpenFile)
  /// A descriptor owned by someone else (standard input), never closed here.
  case descriptor(Int32)
  /// Bytes in memory.
  case memory(JSONMemorySource)

  /// Reads the next chunk into the start of `buffer`.
  ///
  /// A file or a descriptor is read with one `read(2)` (again after a signal interrupted it),
  /// which may store fewer bytes than there is room for: a pipe gives what has arrived.
  ///
  /// ```swift
  /// var source = RaspInputSource.memory(JSONMemorySource(Array("{}\n".utf8)))
  /// var chunk = [UInt8](repeating: 0, count: 4096)
  /// var elements = chunk.mutableSpan
  /// var space = elements.mutableBytes
  /// let count = try source.read(into: &space)   // 3: chunk starts with "{}\n"
  /// ```
  ///
  /// - Parameter buffer: Where to put the bytes.
  /// - Returns: The number of bytes read; 0 at the end.
  /// - Throws: ``RaspInputError`` when the system call fails (a directory, an I/O error).
  public mutating func read(into buffer: inout MutableRawSpan) throws -> Int {
    try buffer.withUnsafeMutableBytes { bytes in try read(into: bytes) }
  }

  /// Reads the next chunk into memory the caller keeps valid: the replay's own readers, which
  /// read into their buffers in place (``read(into:)-(MutableRawSpan)`` is the public form).
  ///
  /// ```swift
  /// let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
  /// ```
  ///
  /// - Parameter buffer: Where to put the bytes.
  /// - Returns: The number of bytes read; 0 at the end.
  /// - Throws: ``RaspInputError`` when the system call fails (a directory, an I/O error).
  package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    switch self {
    case .file(let file):
      return try RaspInputSource.read(file.descriptor, into: buffer)
    case .descriptor(let descriptor):
      return try RaspInputSource.read(descriptor, into: buffer)
    case .memory(var source):
      self = .memory(JSONMemorySource([]))
      defer { self = .memory(source) }
      return try source.read(into: buffer)
    }
  }

  /// Reads from a descriptor, again after an interruption by a signal.
  static func read(
    _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer
  ) throws(RaspInputError) -> Int {
    while true {
      #if canImport(Darwin)
        let count = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
      #else
        let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
      #endif
      if count >= 0 { return count }
      let code = errno
      if code == EINTR { continue }
      throw RaspInputError(message: RaspSystemError.message(code))
    }
  }
}

extension RaspInputSource {
  /// Whether reading may wait for bytes that are not there yet: a pipe, a socket or a terminal.
  /// Files and memory are read in large blocks, as fast as they go; a live source is read as
  /// its bytes arrive.
  ///
  /// ```swift
  /// RaspInputSource.descriptor(0).isLive   // true for `tail -f log | rasp replay -`
  /// ```
  public var isLive: Bool {
    switch self {
    case .file(let file): return RaspInputSource.isLive(file.descriptor)
    case .descriptor(let descriptor): return RaspInputSource.isLive(descriptor)
    case .memory: return false
    }
  }

  /// Whether the source is a terminal: a person types what is read.
  ///
  /// ```swift
  /// RaspInputSource.descriptor(0).isTerminal   // true for `rasp replay` at a prompt
  /// ```
  public var isTerminal: Bool {
    switch self {
    case .file(let file): return isatty(file.descriptor) == 1
    case .descriptor(let descriptor): return isatty(descriptor) == 1
    case .memory: return false
    }
  }

  /// The number of bytes left to read, when the source is a regular file or memory: what a
  /// progress display counts towards; `nil` for pipes, terminals and sockets.
  ///
  /// ```swift
  /// RaspInputSource.file(try RaspOpenFile(path: "events.jsonl")).byteCount   // 1742
  /// ```
  public var byteCount: Int? {
    let descriptor: Int32
    switch self {
    case .file(let file): descriptor = file.descriptor
    case .descriptor(let number): descriptor = number
    case .memory(let source): return source.bytes.count - source.offset
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    let position = lseek(descriptor, 0, SEEK_CUR)
    return max(0, Int(status.st_size) - max(0, Int(position)))
  }

  /// Moves a file's reading position to `offset`, for a replay that resumes after a
  /// checkpoint.
  ///
  /// - Returns: Whether it moved: `false` for anything but a regular file.
  func seek(to offset: Int) -> Bool {
    guard case .file(let file) = self else { return false }
    var status = stat()
    guard fstat(file.descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      return false
    }
    return lseek(file.descriptor, off_t(offset), SEEK_SET) == off_t(offset)
  }

  private static func isLive(_ descriptor: Int32) -> Bool {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return false }
    let type = status.st_mode & S_IFMT
    return type == S_IFIFO || type == S_IFSOCK || type == S_IFCHR
  }

  /// Waits until a read would not block, the input ended, or `milliseconds` passed.
  ///
  /// - Parameter milliseconds: How long to wait at most; 0 only asks.
  /// - Returns: Whether a read would return at once, with bytes or at the end.
  func waitUntilReadable(milliseconds: Int32) -> Bool {
    let descriptor: Int32
    switch self {
    case .file(let file): descriptor = file.descriptor
    case .descriptor(let number): descriptor = number
    case .memory: return true
    }
    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let count = poll(&request, 1, milliseconds)
    // A signal cut the wait short: nothing is known yet. Any other error, or any event (data,
    // the end, an error on the descriptor), means that a read will not wait.
    if count < 0 { return errno != EINTR }
    return count != 0
  }
}

/// A file descriptor that rasp opened, closed exactly once, when the last reference goes.
///
/// A replay that stops early — a bad line with `--on-error fail`, a closed pipe, a second file
/// that cannot be opened — leaves no descriptor open, and a reading thread still holding the
/// file keeps it open until it lets go, so no descriptor is closed while in use.
///
/// ```swift
/// let source = RaspInputSource.file(RaspOpenFile(descriptor: open(path, O_RDONLY)))
/// ```
public final class RaspOpenFile: Sendable {
  /// The open descriptor.
  public let descriptor: Int32

  /// Takes ownership of an open descriptor.
  ///
  /// - Parameter descriptor: A descriptor that nothing else will close.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit {
    _ = close(descriptor)
  }
}

/// A failure to read input, with the system's message.
///
/// ```swift
/// catch let error as RaspInputError { print(error.message) }   // Is a directory
/// ```
public struct RaspInputError: Error, CustomStringConvertible {
  /// The system's message.
  public let message: String

  /// The message.
  public var description: String { message }
}
