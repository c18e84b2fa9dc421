#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A log file read as it grows, like `tail -F`: `rasp replay --follow`.
///
/// At the end of the file, reading waits for more instead of ending. The file is watched by
/// its path: when the path comes to name another file (the log was rotated: moved away and
/// created anew) or the file shrinks (truncated in place), the rest of the old file is read
/// first, then reading ends that file (a read returns 0) and ``switchFile()`` goes on from the
/// start of the new one. Only an ``ReplayInterruption`` ends a followed file for good.
///
/// ```swift
/// let file = try FollowedFile(path: "app.log", name: "app.log")
/// ```
final class FollowedFile: @unchecked Sendable {
  /// Why reading ended the current file.
  enum Change {
    /// The path names a new file.
    case replaced
    /// The file is shorter than what was read of it.
    case truncated
  }

  /// The path to watch, resolved.
  let path: String
  /// The name for messages.
  let name: String
  // Used by one reading thread at a time.
  private var descriptor: Int32
  private var device: UInt64
  private var inode: UInt64
  /// How many bytes of the current file were read.
  private var offset: Int64 = 0
  /// A change seen and not yet acted on: reads return 0 until ``switchFile()``.
  private var pending: Change?

  /// Opens the file at `path`.
  ///
  /// - Throws: ``RaspInputError`` when it cannot be opened, or is a directory.
  init(path: String, name: String) throws(RaspInputError) {
    self.path = path
    self.name = name
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw RaspInputError(message: RaspSystemError.message(errno)) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else {
      close(descriptor)
      throw RaspInputError(message: RaspSystemError.message(EISDIR))
    }
    self.descriptor = descriptor
    self.device = UInt64(status.st_dev)
    self.inode = UInt64(status.st_ino)
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// The open file, handed over, when it is not a regular file (a named pipe, a device), whose
  /// size cannot be watched; `nil` for a regular file, which stays followed.
  func takeSpecialFile() -> RaspOpenFile? {
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFREG else { return nil }
    defer { descriptor = -1 }
    return RaspOpenFile(descriptor: descriptor)
  }

  /// Reads what the file has beyond what was read; 0 when reading must end this file (see
  /// ``pendingChange``), or when it has nothing more yet.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(RaspInputError) -> Int {
    guard pending == nil else { return 0 }
    let count = try RaspInputSource.read(descriptor, into: buffer)
    offset += Int64(count)
    return count
  }

  /// The change that ended the current file, if one did.
  var pendingChange: Change? { pending }

  /// Whether a read would return bytes now, or 0 because the file was rotated or truncated:
  /// the file grew, or its path names another file, or it shrank.
  func hasBytesReady() -> Bool {
    if pending != nil { return true }
    var status = stat()
    if fstat(descriptor, &status) == 0 {
      if Int64(status.st_size) > offset { return true }
      if Int64(status.st_size) < offset {
        pending = .truncated
        return true
      }
    }
    var named = stat()
    // A path that names nothing yet (moved away, not created anew) is waited for.
    guard stat(path, &named) == 0 else { return false }
    if UInt64(named.st_dev) != device || UInt64(named.st_ino) != inode {
      pending = .replaced
      return true
    }
    return false
  }

  /// Goes on from the start of the new file, or of the truncated one.
  ///
  /// - Returns: What happened, for the user: `'app.log' was replaced; …`; `nil` when there was
  ///   no change, or when the new file cannot be opened yet (the change stays pending).
  func switchFile() -> String? {
    guard let change = pending else { return nil }
    pending = nil
    offset = 0
    switch change {
    case .truncated:
      lseek(descriptor, 0, SEEK_SET)
      return "'\(name)' was truncated; reading it again from its start"
    case .replaced:
      let next = open(path, O_RDONLY | O_CLOEXEC)
      var status = stat()
      guard next >= 0, fstat(next, &status) == 0 else {
        // Gone again before it could be opened: try again later.
        if next >= 0 { close(next) }
        pending = .replaced
        return nil
      }
      close(descriptor)
      descriptor = next
      device = UInt64(status.st_dev)
      inode = UInt64(status.st_ino)
      return "'\(name)' was replaced; reading the new file from its start"
    }
  }
}
