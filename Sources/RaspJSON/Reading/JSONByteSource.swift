/// Something bytes can be read from, a chunk at a time: a file, a pipe, memory.
///
/// ``JSONLinesReader`` reads through this protocol so that it can stream a file of any size with
/// flat memory, and so that tests can feed it from memory in chunks of any size.
///
/// ```swift
/// var source = JSONMemorySource(Array("{}\n".utf8), chunkSize: 1)
/// ```
public protocol JSONByteSource {
  /// Reads up to `buffer.count` bytes into `buffer`.
  ///
  /// ```swift
  /// let count = try source.read(into: buffer)
  /// ```
  ///
  /// - Parameter buffer: Where to put the bytes.
  /// - Returns: The number of bytes read; 0 at the end of the input.
  /// - Throws: An error when the underlying read fails.
  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Bytes held in memory, handed out in chunks of a chosen size.
///
/// ```swift
/// let reader = JSONLinesReader(source: JSONMemorySource(Array("a\nb".utf8), chunkSize: 1))
/// ```
public struct JSONMemorySource: JSONByteSource, Sendable {
  /// The bytes to hand out.
  public let bytes: [UInt8]
  /// The most bytes handed out per read.
  public let chunkSize: Int
  /// How many bytes have been handed out.
  public private(set) var offset = 0

  /// Creates a source over `bytes`.
  ///
  /// ```swift
  /// let source = JSONMemorySource(Array("{}\n".utf8))
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The bytes.
  ///   - chunkSize: The most bytes handed out per read.
  public init(_ bytes: [UInt8], chunkSize: Int = .max) {
    self.bytes = bytes
    self.chunkSize = max(1, chunkSize)
  }

  /// Copies the next chunk into `buffer`.
  ///
  /// ```swift
  /// let count = try source.read(into: buffer)
  /// ```
  ///
  /// - Parameter buffer: Where to put the bytes.
  /// - Returns: The number of bytes copied; 0 at the end.
  /// - Throws: Never: the bytes are in memory.
  public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let count = min(buffer.count, chunkSize, bytes.count - offset)
    guard count > 0 else { return 0 }
    bytes.withUnsafeBytes { all in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + count)]))
    }
    offset += count
    return count
  }
}
