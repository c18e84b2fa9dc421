/// Storage for bytes that items point into besides their lines: events rasp wrote from a line
/// — an OTLP record made plain JSON, a Kafka message's payload unescaped. Stored bytes never
/// move: the arena grows by new chunks, and frees them all at once with its batch.
///
/// ```swift
/// var arena = ByteArena()
/// let event = arena.store(written)   // valid until arena.release()
/// ```
struct ByteArena {
  /// The smallest chunk allocated.
  static let chunkSize = 1 << 16

  private var chunks: [UnsafeMutableBufferPointer<UInt8>] = []
  /// How much of the last chunk is used.
  private var used = 0

  /// Copies `bytes` into the arena and returns where they are.
  mutating func store(_ bytes: [UInt8]) -> UnsafeBufferPointer<UInt8> {
    if chunks.isEmpty || used + bytes.count > chunks[chunks.count - 1].count {
      chunks.append(.allocate(capacity: max(Self.chunkSize, bytes.count)))
      used = 0
    }
    let chunk = chunks[chunks.count - 1]
    let start = used
    _ = bytes.withUnsafeBufferPointer { source in
      UnsafeMutableBufferPointer(rebasing: chunk[start..<start + source.count])
        .initialize(fromContentsOf: source)
    }
    used += bytes.count
    return UnsafeBufferPointer(rebasing: chunk[start..<start + bytes.count])
  }

  /// Lets `write` fill up to `maximumCount` bytes of the arena, and returns the bytes it
  /// wrote, whose count it returns.
  mutating func write(
    maximumCount: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Int
  ) -> UnsafeBufferPointer<UInt8> {
    if chunks.isEmpty || used + maximumCount > chunks[chunks.count - 1].count {
      chunks.append(.allocate(capacity: max(Self.chunkSize, maximumCount)))
      used = 0
    }
    let chunk = chunks[chunks.count - 1]
    let start = used
    let room = UnsafeMutableBufferPointer(rebasing: chunk[start..<start + maximumCount])
    let count = min(max(0, write(room)), maximumCount)
    used += count
    return UnsafeBufferPointer(rebasing: chunk[start..<start + count])
  }

  /// Frees every chunk; what was stored must not be read after.
  func release() {
    for chunk in chunks { chunk.deallocate() }
  }
}
