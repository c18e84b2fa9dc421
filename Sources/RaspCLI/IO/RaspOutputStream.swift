#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspReplay

/// Somewhere the command writes bytes: standard output or error, or memory in tests.
///
/// ```swift
/// let output = RaspMemoryOutput()
/// try output.write(Array("hello\n".utf8))
/// output.text   // "hello\n"
/// ```
public protocol RaspOutputStream: AnyObject {
  /// Writes all of `bytes`.
  ///
  /// The span lends the bytes for the call: a stream that keeps them copies them.
  ///
  /// ```swift
  /// let line = Array(#"{"a":1}"#.utf8) + [0x0A]
  /// try output.write(line.span.bytes)
  /// ```
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``RaspOutputError`` when the reader went away or the write failed.
  func write(_ bytes: RawSpan) throws(RaspOutputError)

  /// Whether the stream is a terminal, where colour may be used.
  var isTerminal: Bool { get }

  /// What the stream writes to: a terminal, a pipe, a file; by default a terminal when
  /// ``isTerminal``, otherwise a file.
  var destination: RaspOutputDestination { get }

  /// The width of the terminal the stream writes to, in columns, when it is one and says.
  var terminalColumns: Int? { get }
}

extension RaspOutputStream {
  /// A terminal when ``isTerminal``, otherwise a file.
  public var destination: RaspOutputDestination {
    isTerminal ? .terminal(device: nil) : .file
  }

  /// Not known.
  public var terminalColumns: Int? { nil }

  /// Writes an array of bytes.
  ///
  /// ```swift
  /// try output.write(Array("text".utf8))
  /// ```
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``RaspOutputError`` when the write failed.
  public func write(_ bytes: [UInt8]) throws(RaspOutputError) {
    try write(bytes.span.bytes)
  }

  /// Writes bytes in memory the caller keeps valid: the package's own writers, which write
  /// from their buffers in place (``write(_:)-(RawSpan)`` is the public form, and the one a
  /// stream implements).
  ///
  /// ```swift
  /// try output.write(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
  /// ```
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``RaspOutputError`` when the write failed.
  @inlinable
  package func write(_ bytes: UnsafeRawBufferPointer) throws(RaspOutputError) {
    try write(RawSpan(_unsafeBytes: bytes))
  }

  /// Writes text as UTF-8.
  ///
  /// ```swift
  /// try output.write("done\n")
  /// ```
  ///
  /// - Parameter text: The text.
  /// - Throws: ``RaspOutputError`` when the write failed.
  public func write(_ text: String) throws(RaspOutputError) {
    try write(Array(text.utf8))
  }
}

/// Why output could not be written.
///
/// ```swift
/// catch RaspOutputError.brokenPipe { return 0 }   // the reader went away: stop quietly
/// ```
public enum RaspOutputError: Error, Equatable {
  /// The reading end of a pipe was closed (`rasp … | head -1`): not an error, just the end.
  case brokenPipe
  /// The write failed for another reason, with the system's message.
  case failed(String)
}

/// A file descriptor: standard output, standard error, or a file.
///
/// ```swift
/// let standardOutput = RaspFileOutput(descriptor: 1)
/// ```
public final class RaspFileOutput: RaspOutputStream {
  /// The descriptor written to.
  public let descriptor: Int32

  /// Wraps an open descriptor; the caller keeps ownership.
  ///
  /// ```swift
  /// let standardError = RaspFileOutput(descriptor: 2)
  /// ```
  ///
  /// - Parameter descriptor: An open file descriptor.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Whether the descriptor is a terminal.
  public var isTerminal: Bool { isatty(descriptor) == 1 }

  /// What the descriptor writes to.
  public var destination: RaspOutputDestination { .of(descriptor: descriptor) }

  /// The terminal's width, as the terminal says now (it changes when its window does).
  public var terminalColumns: Int? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// Writes all bytes, retrying after interruptions and short writes.
  ///
  /// ```swift
  /// let output = RaspFileOutput(descriptor: 1)
  /// try output.write(Array("hello\n".utf8).span.bytes)
  /// ```
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``RaspOutputError/brokenPipe`` on `EPIPE`, ``RaspOutputError/failed(_:)`` otherwise.
  public func write(_ bytes: RawSpan) throws(RaspOutputError) {
    try bytes.withUnsafeBytes { (raw) throws(RaspOutputError) in try write(raw) }
  }

  /// Writes all bytes in memory the caller keeps valid, as ``write(_:)-(RawSpan)`` does.
  ///
  /// ```swift
  /// try output.write(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
  /// ```
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``RaspOutputError/brokenPipe`` on `EPIPE`, ``RaspOutputError/failed(_:)`` otherwise.
  package func write(_ bytes: UnsafeRawBufferPointer) throws(RaspOutputError) {
    guard var base = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
      #if canImport(Darwin)
        let written = Darwin.write(descriptor, base, remaining)
      #else
        let written = Glibc.write(descriptor, base, remaining)
      #endif
      if written < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EPIPE { throw .brokenPipe }
        throw .failed(RaspSystemError.message(code))
      }
      remaining -= written
      base += written
    }
  }
}

/// Output kept in memory, for tests and for composing output before writing it.
///
/// ```swift
/// let output = RaspMemoryOutput()
/// try output.write("a\n")
/// output.text   // "a\n"
/// ```
public final class RaspMemoryOutput: RaspOutputStream {
  /// Everything written so far.
  public private(set) var bytes: [UInt8] = []
  /// Whether to claim to be a terminal.
  public var isTerminal: Bool
  /// Whether to claim to be a pipe, as `| less` is, when not a terminal.
  public var isPipe = false
  /// The width to claim, when a terminal.
  public var terminalColumns: Int?
  /// After how many bytes to fail with a broken pipe, to simulate `| head`; `nil` never.
  public var brokenPipeAfter: Int?

  /// Creates an empty output.
  ///
  /// ```swift
  /// let output = RaspMemoryOutput(brokenPipeAfter: 100)
  /// ```
  ///
  /// - Parameters:
  ///   - isTerminal: Whether to claim to be a terminal.
  ///   - brokenPipeAfter: After how many bytes writes fail with a broken pipe.
  public init(isTerminal: Bool = false, brokenPipeAfter: Int? = nil) {
    self.isTerminal = isTerminal
    self.brokenPipeAfter = brokenPipeAfter
  }

  /// A terminal, a pipe or a file, as claimed.
  public var destination: RaspOutputDestination {
    isTerminal ? .terminal(device: nil) : isPipe ? .pipe : .file
  }

  /// Everything written so far, as UTF-8 text.
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Appends a copy of the bytes.
  ///
  /// ```swift
  /// let output = RaspMemoryOutput()
  /// try output.write(Array("a\n".utf8).span.bytes)
  /// output.text   // "a\n"
  /// ```
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``RaspOutputError/brokenPipe`` once ``brokenPipeAfter`` bytes were written.
  public func write(_ bytes: RawSpan) throws(RaspOutputError) {
    try bytes.withUnsafeBytes { (raw) throws(RaspOutputError) in try write(raw) }
  }

  /// Appends a copy of bytes in memory the caller keeps valid, as ``write(_:)-(RawSpan)`` does.
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``RaspOutputError/brokenPipe`` once ``brokenPipeAfter`` bytes were written.
  package func write(_ bytes: UnsafeRawBufferPointer) throws(RaspOutputError) {
    if let limit = brokenPipeAfter, self.bytes.count + bytes.count > limit {
      self.bytes.append(contentsOf: bytes.prefix(max(0, limit - self.bytes.count)))
      throw .brokenPipe
    }
    self.bytes.append(contentsOf: bytes)
  }
}
