/// Something bytes can be read from, a chunk at a time: a file, a pipe, memory.
///
/// ``JSONLinesReader`` reads through this protocol so that it can stream a file of any size with
/// flat memory, and so that tests can feed it from memory in chunks of any size.
///
/// ```swift
/// var source = JSONMemorySource(Array("{}\n".utf8), chunkSize: 1)
/// ```
public protocol JSONByteSource {
  /// Reads up to `buffer.byteCount` bytes into the start of `buffer`.
  ///
  /// The span lends the reader's free space for the call; a source stores its bytes from the
  /// span's first byte on and says how many it stored.
  ///
  /// ```swift
  /// var chunk = [UInt8](repeating: 0, count: 4096)
  /// var elements = chunk.mutableSpan
  /// var space = elements.mutableBytes
  /// let count = try source.read(into: &space)   // chunk[..<count] holds the bytes read
  /// ```
  ///
  /// - Parameter buffer: Where to put the bytes.
  /// - Returns: The number of bytes read; 0 at the end of the input.
  /// - Throws: An error when the underlying read fails.
  mutating func read(into buffer: inout MutableRawSpan) throws -> Int
}

extension JSONByteSource {
  /// Reads up to `buffer.count` bytes into memory the caller keeps valid: the readers of the
  /// package, which read into their buffers in place (``read(into:)-(MutableRawSpan)`` is the
  /// public form, and the one a source implements).
  ///
  /// ```swift
  /// let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
  /// ```
  ///
  /// - Parameter buffer: Where to put the bytes.
  /// - Returns: The number of bytes read; 0 at the end of the input.
  /// - Throws: An error when the underlying read fails.
  @inlinable
  package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    var span = MutableRawSpan(_unsafeBytes: buffer)
    return try read(into: &span)
  }
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

  /// Copies the next chunk into the start of `buffer`.
  ///
  /// ```swift
  /// var source = JSONMemorySource(Array("{}\n".utf8))
  /// var chunk = [UInt8](repeating: 0, count: 2)
  /// var elements = chunk.mutableSpan
  /// var space = elements.mutableBytes
  /// let count = try source.read(into: &space)   // 2: chunk is "{}"
  /// ```
  ///
  /// - Parameter buffer: Where to put the bytes.
  /// - Returns: The number of bytes copied; 0 at the end.
  /// - Throws: Never: the bytes are in memory.
  public mutating func read(into buffer: inout MutableRawSpan) throws -> Int {
    let count = min(buffer.byteCount, chunkSize, bytes.count - offset)
    guard count > 0 else { return 0 }
    bytes.withUnsafeBytes { all in
      buffer.withUnsafeMutableBytes { space in
        space.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + count)]))
      }
    }
    offset += count
    return count
  }
}
