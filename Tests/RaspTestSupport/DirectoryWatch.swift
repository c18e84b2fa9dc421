#if canImport(Glibc)
  import Glibc
#endif

/// Waits for something to happen in a directory — a file appears, grows, is renamed — by
/// asking the kernel to say when it changes (inotify), never by sleeping between looks.
///
/// The condition is looked at once, then again after every change: a test waits exactly as
/// long as the program it watches takes, on a fast machine or a loaded one. It blocks its
/// thread, so call it on a thread of its own (``onThreadOfItsOwn(_:)``).
///
/// ```swift
/// let watch = try DirectoryWatch(directory.path)
/// #expect(try await onThreadOfItsOwn { watch.wait { directory.bytes("stdout") == expected } })
/// ```
public final class DirectoryWatch: @unchecked Sendable {
  /// Why a directory cannot be watched.
  public struct Failure: Error, CustomStringConvertible {
    /// What the kernel refused, with its `errno`.
    public let description: String
  }

  private let descriptor: Int32

  /// Watches `path`, a directory, from now on.
  ///
  /// - Throws: ``Failure`` when the kernel refuses the watch.
  public init(_ path: String) throws {
    descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard descriptor >= 0 else { throw Failure(description: "inotify_init1: \(errno)") }
    let events = UInt32(IN_CREATE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
    guard inotify_add_watch(descriptor, path, events | UInt32(IN_CLOSE_WRITE)) >= 0 else {
      close(descriptor)
      throw Failure(description: "inotify_add_watch '\(path)': \(errno)")
    }
  }

  deinit { close(descriptor) }

  /// Blocks until `condition` holds, looking again after each change in the directory.
  ///
  /// - Parameters:
  ///   - limit: How long to wait at most: it only keeps a broken build from hanging the run,
  ///     and says nothing about speed.
  ///   - condition: What the test waits to see.
  /// - Returns: Whether `condition` held before `limit`.
  public func wait(limit: Duration = .seconds(300), until condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + limit
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !condition() {
      let left = deadline - .now
      guard left > .zero else { return false }
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(min(left.components.seconds * 1000 + 1, 60_000))
      guard poll(&request, 1, milliseconds) >= 0 || errno == EINTR else { return condition() }
      // The events themselves do not matter: any of them is a reason to look again.
      while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
    return true
  }
}
