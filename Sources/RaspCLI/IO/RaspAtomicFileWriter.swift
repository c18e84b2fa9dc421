#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspReplay

/// Writes a file so that its readers see either the old file or the whole new one, never a part.
///
/// The bytes go to a temporary file in the same directory, `.<name>.tmp-<pid>`, created
/// exclusively; ``commit()`` flushes it to the disk with fsync(2) and renames it over the
/// target with rename(2), which replaces the old file in one step, then syncs the directory.
/// If anything fails — a write, the sync, the rename — or the writer is discarded or released
/// before it commits, the temporary file is removed and the old file stays exactly as it was.
/// A new file gets the permissions of the file it replaces (or 0666 less the umask).
///
/// A target that exists and is not a regular file — `/dev/null`, `/dev/stdout`, a named pipe,
/// the `/dev/fd/63` of a shell's `>(gzip > out.gz)` — cannot be replaced without breaking it
/// (renaming over `/dev/null` would put a regular file there for every process on the
/// machine), so it is written in place, as a shell's `>` would write it: opened when the first
/// bytes (or the commit) come, and closed by ``commit()``; what was written before a failure
/// has then already gone out. A directory is refused.
///
/// This is the only way `rasp` writes golden files (`rasp check --update`, `--record missing`).
///
/// ```swift
/// let file = try environment.makeAtomicWriter("expected.jsonl")
/// try file.write(Array("{\"geo\":{}}\n".utf8))
/// try file.commit()   // expected.jsonl now holds the line, or is unchanged if this threw
/// ```
public final class RaspAtomicFileWriter {
  /// The file's path as the user wrote it, for messages.
  public let path: String
  /// The path of the file to replace, resolved against the working directory.
  let targetPath: String
  /// The path of the temporary file.
  let temporaryPath: String
  /// Whether the target is written in place (it exists and is not a regular file).
  let writesInPlace: Bool
  /// The temporary file's descriptor; -1 once closed.
  private var descriptor: Int32
  /// Whether the file was renamed into place.
  public private(set) var isCommitted = false
  /// A failure to simulate, for tests.
  private let fault: RaspWriteFault?
  /// The temporary file's entry in ``RaspInterruptCleanup``, removed on a signal.
  private var interruptToken: UnsafeMutablePointer<CChar>?

  /// Creates the temporary file beside the target.
  ///
  /// ```swift
  /// let file = try RaspAtomicFileWriter(
  ///   path: "expected.jsonl", resolvedPath: "/repo/expected.jsonl")
  /// ```
  ///
  /// - Parameters:
  ///   - path: The path as the user wrote it, for messages.
  ///   - resolvedPath: The path to write.
  ///   - fault: A failure to simulate at one step, for tests.
  /// - Throws: ``RaspCommandError/cannotWrite(_:reason:)`` when the temporary file cannot be
  ///   created (a missing or read-only directory).
  init(path: String, resolvedPath: String, fault: RaspWriteFault? = nil) throws(RaspCommandError) {
    self.path = path
    self.targetPath = resolvedPath
    self.temporaryPath = RaspAtomicFileWriter.temporaryPath(for: resolvedPath, processID: getpid())
    self.fault = fault
    if fault == .create {
      throw .cannotWrite(path, reason: RaspSystemError.message(EACCES))
    }
    var existing = stat()
    let exists = stat(resolvedPath, &existing) == 0
    let kind = existing.st_mode & S_IFMT
    if exists, kind == S_IFDIR {
      throw .cannotWrite(path, reason: RaspSystemError.message(EISDIR))
    }
    writesInPlace = exists && kind != S_IFREG
    if writesInPlace {
      // Opened at the first write: a named pipe's reader would see the end of its input if
      // this only looked and closed again, as `rasp shrink` does before its search.
      descriptor = -1
      guard access(resolvedPath, W_OK) == 0 else {
        throw .cannotWrite(path, reason: RaspSystemError.message(errno))
      }
      return
    }
    interruptToken = RaspInterruptCleanup.track(temporaryPath)
    descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else {
      let code = errno
      RaspInterruptCleanup.untrack(interruptToken)
      throw .cannotWrite(path, reason: RaspSystemError.message(code))
    }
    if exists { _ = fchmod(descriptor, existing.st_mode & 0o7777) }
  }

  deinit {
    if !isCommitted { discard() }
  }

  /// The temporary file's path for a target: `dir/.name.tmp-<pid>`.
  ///
  /// ```swift
  /// RaspAtomicFileWriter.temporaryPath(for: "golden/expected.jsonl", processID: 42)
  /// // "golden/.expected.jsonl.tmp-42"
  /// ```
  static func temporaryPath(for path: String, processID: Int32) -> String {
    let name: Substring
    let directory: Substring
    if let slash = path.lastIndex(of: "/") {
      directory = path[...slash]
      name = path[path.index(after: slash)...]
    } else {
      directory = ""
      name = path[...]
    }
    return "\(directory).\(name).tmp-\(processID)"
  }

  /// Appends bytes to the temporary file.
  ///
  /// ```swift
  /// try file.write(Array("[]\n".utf8))
  /// ```
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``RaspCommandError/cannotWrite(_:reason:)``; the temporary file is then removed.
  public func write(_ bytes: [UInt8]) throws(RaspCommandError) {
    guard !bytes.isEmpty else { return }
    try openInPlaceIfNeeded()
    guard descriptor >= 0 else { throw .cannotWrite(path, reason: "the file was already closed") }
    if fault == .write { try fail(ENOSPC) }
    let code: Int32? = bytes.withUnsafeBytes { raw in
      guard var base = raw.baseAddress else { return nil }
      var remaining = raw.count
      while remaining > 0 {
        #if canImport(Darwin)
          let written = Darwin.write(descriptor, base, remaining)
        #else
          let written = Glibc.write(descriptor, base, remaining)
        #endif
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        remaining -= written
        base += written
      }
      return nil
    }
    if let code { try fail(code) }
  }

  /// Flushes the temporary file to the disk and renames it over the target.
  ///
  /// ```swift
  /// try file.commit()
  /// ```
  ///
  /// - Throws: ``RaspCommandError/cannotWrite(_:reason:)`` when the sync or the rename fails;
  ///   the temporary file is then removed and the target is unchanged.
  public func commit() throws(RaspCommandError) {
    if writesInPlace { return try closeInPlace() }
    guard descriptor >= 0 else { throw .cannotWrite(path, reason: "the file was already closed") }
    if fault == .sync { try fail(EIO) }
    while fsync(descriptor) != 0 {
      if errno != EINTR { try fail(errno) }
    }
    let closed = close(descriptor)
    descriptor = -1
    if closed != 0, errno != EINTR { try fail(errno) }
    if fault == .rename { try fail(EACCES) }
    guard rename(temporaryPath, targetPath) == 0 else { try fail(errno) }
    isCommitted = true
    RaspInterruptCleanup.untrack(interruptToken)
    syncDirectory()
  }

  /// Closes and removes the temporary file, leaving the target as it was.
  ///
  /// ```swift
  /// file.discard()   // the replay failed: keep the old golden file
  /// ```
  public func discard() {
    if descriptor >= 0 {
      _ = close(descriptor)
      descriptor = -1
    }
    if writesInPlace {
      isClosedInPlace = true
      return
    }
    if !isCommitted { _ = unlink(temporaryPath) }
    RaspInterruptCleanup.untrack(interruptToken)
  }

  /// Opens a target written in place, once, truncating it as a shell's `>` would.
  private func openInPlaceIfNeeded() throws(RaspCommandError) {
    guard writesInPlace, descriptor < 0, !isCommitted, !isClosedInPlace else { return }
    repeat {
      descriptor = open(targetPath, O_WRONLY | O_TRUNC | O_CLOEXEC)
    } while descriptor < 0 && errno == EINTR
    if descriptor < 0 { try fail(errno) }
  }

  /// Whether a target written in place was closed after a failure.
  private var isClosedInPlace = false

  /// Commits a target written in place: opens it if nothing was written (so that it is
  /// truncated and a pipe's reader sees its end) and closes it.
  private func closeInPlace() throws(RaspCommandError) {
    guard !isClosedInPlace else {
      throw .cannotWrite(path, reason: "the file was already closed")
    }
    try openInPlaceIfNeeded()
    let closed = close(descriptor)
    descriptor = -1
    isCommitted = true
    if closed != 0, errno != EINTR {
      throw .cannotWrite(path, reason: RaspSystemError.message(errno))
    }
  }

  /// Discards the temporary file and throws the error for `code`.
  private func fail(_ code: Int32) throws(RaspCommandError) -> Never {
    discard()
    throw .cannotWrite(path, reason: RaspSystemError.message(code))
  }

  /// Makes the rename durable; a failure here cannot be undone and is not reported.
  private func syncDirectory() {
    let directory: String
    if let slash = targetPath.lastIndex(of: "/") {
      directory = slash == targetPath.startIndex ? "/" : String(targetPath[..<slash])
    } else {
      directory = "."
    }
    let handle = open(directory, O_RDONLY | O_CLOEXEC)
    guard handle >= 0 else { return }
    _ = fsync(handle)
    _ = close(handle)
  }
}

/// A step at which ``RaspAtomicFileWriter`` can be made to fail, to test that a failed write
/// keeps the old file: as a read-only directory, a full disk, an I/O error or a refused rename
/// would.
enum RaspWriteFault: Equatable {
  /// Creating the temporary file fails.
  case create
  /// Writing to the temporary file fails (a full disk).
  case write
  /// Syncing the temporary file fails (an I/O error).
  case sync
  /// Renaming the temporary file over the target fails.
  case rename
}
