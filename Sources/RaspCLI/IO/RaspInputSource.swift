#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspJSON

/// Where an event log is read from: a file descriptor, or memory in tests.
///
/// ```swift
/// let source = RaspInputSource.memory(JSONMemorySource(Array("{}\n".utf8)))
/// ```
public enum RaspInputSource: JSONByteSource {
  /// An open file descriptor, closed when reading ends if `closes` is true.
  case descriptor(Int32, closes: Bool)
  /// Bytes in memory.
  case memory(JSONMemorySource)

  /// Reads the next chunk.
  ///
  /// ```swift
  /// let count = try source.read(into: buffer)
  /// ```
  ///
  /// - Parameter buffer: Where to put the bytes.
  /// - Returns: The number of bytes read; 0 at the end.
  /// - Throws: ``RaspInputError`` when the system call fails (a directory, an I/O error).
  public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    switch self {
    case .descriptor(let descriptor, let closes):
      while true {
        #if canImport(Darwin)
          let count = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
        #else
          let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
        #endif
        if count >= 0 {
          if count == 0, closes { _ = close(descriptor) }
          return count
        }
        let code = errno
        if code == EINTR { continue }
        throw RaspInputError(message: RaspSystemError.message(code))
      }
    case .memory(var source):
      self = .memory(JSONMemorySource([]))
      defer { self = .memory(source) }
      return try source.read(into: buffer)
    }
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
