#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading and writing whole files, and counting lines, without Foundation.
enum FileBytes {
  /// The bytes of the file at `path`, or `nil` when it cannot be read.
  static func contents(of path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes.append(contentsOf: block[..<count])
      } else if count == 0 || errno != EINTR {
        return count == 0 ? bytes : nil
      }
    }
  }

  /// Writes `text` to the file at `path`, replacing it.
  ///
  /// - Throws: ``BenchError/file(_:)`` when the file cannot be written.
  static func save(_ text: String, to path: String) throws(BenchError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw .file("cannot write '\(path)'") }
    defer { close(descriptor) }
    var text = text
    let failure = text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    guard failure == nil else { throw .file("cannot write '\(path)'") }
  }

  /// Writes all of `buffer` to `descriptor`, retrying short and interrupted writes.
  ///
  /// ```swift
  /// if let code = bytes.withUnsafeBytes({ FileBytes.writeAll($0, to: 1) }) { report(code) }
  /// ```
  ///
  /// - Parameters:
  ///   - buffer: The bytes.
  ///   - descriptor: An open file descriptor.
  /// - Returns: `nil` when every byte was written, else the `errno` of the write that failed.
  static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    var offset = 0
    while offset < buffer.count {
      let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      guard written > 0 else { return EIO }
      offset += written
    }
    return nil
  }

  /// The size of the file at `path` in bytes and its number of lines, read in 1 MiB blocks.
  ///
  /// - Throws: ``BenchError/file(_:)`` when the file cannot be read.
  static func measure(_ path: String) throws(BenchError) -> (bytes: Int, lines: Int) {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw .file("cannot read '\(path)'") }
    defer { close(descriptor) }
    var sample = OutputSample(limit: 0)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = read(descriptor, buffer.baseAddress, buffer.count)
      if count > 0 {
        sample.consume(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
      } else if count == 0 {
        return (sample.byteCount, sample.lineCount)
      } else if errno != EINTR {
        throw .file("cannot read '\(path)'")
      }
    }
  }
}
