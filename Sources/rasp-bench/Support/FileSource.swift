#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspJSON

/// A file read with read(2), as a source for RaspJSON's `JSONLinesReader`; the file is closed at
/// its end or at the first error.
///
/// ```swift
/// guard let source = FileSource(path: "bench-output/events.jsonl") else { return }
/// let lines = JSONLinesReader(source: source)
/// while let line = try lines.next() { handle(line.bytes) }
/// ```
struct FileSource: JSONByteSource {
  /// The open file, or -1 once it is closed.
  private(set) var descriptor: Int32

  /// Opens the file at `path` for reading, or returns `nil` when it cannot be opened.
  ///
  /// - Parameter path: The file.
  init?(path: String) {
    descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
  }

  /// Reads the next bytes of the file.
  ///
  /// - Parameter buffer: Where to read them.
  /// - Returns: How many bytes were read; 0 at the end of the file.
  /// - Throws: ``BenchError/system(_:_:)`` when read(2) fails.
  mutating func read(into buffer: inout MutableRawSpan) throws -> Int {
    guard descriptor >= 0 else { return 0 }
    while true {
      let count = buffer.withUnsafeMutableBytes { [descriptor] space in
        systemRead(descriptor, space.baseAddress, space.count)
      }
      if count > 0 { return count }
      if count < 0, errno == EINTR { continue }
      let code = errno
      close(descriptor)
      descriptor = -1
      if count < 0 { throw BenchError.system("read", code) }
      return 0
    }
  }
}

/// read(2), which ``FileSource/read(into:)`` hides by its name.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}
