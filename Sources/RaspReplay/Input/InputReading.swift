#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspJSON

/// The bytes of one ``ReplayInput`` as the replay reads them: in large blocks from a file, as
/// they arrive from a live input, and never past a request to stop.
///
/// A read from a live input waits for bytes in short slices, asking between them whether the
/// replay was stopped (``ReplayInterruption``) or abandoned, so that waiting on a quiet pipe or
/// a followed file never keeps a replay from ending.
struct InputReading: JSONByteSource {
  /// Why a read gave up: the replay was asked to stop.
  struct Stopped: Error {}

  /// The input's name, for messages.
  let name: String
  /// The source, unless the input is a followed file.
  private var source: RaspInputSource?
  /// The followed file, for `--follow`.
  let followed: FollowedFile?
  /// Whether reads wait for bytes (pipes, terminals, followed files).
  let isLive: Bool
  /// Whether the replay was asked to stop, or abandoned.
  let shouldStop: @Sendable () -> Bool
  /// Where the bytes read are counted, for a progress display.
  let progress: ReplayProgress?
  /// The hash of every byte of the input read so far, before where the reading started
  /// included, for checkpoints; `nil` when not asked for.
  private(set) var hash: SegmentedLogHash?

  /// How long one slice of waiting lasts, in milliseconds: the longest a stop request waits
  /// to be seen while an input is quiet.
  static let waitSlice: Int32 = 50

  init(
    _ input: ReplayInput, progress: ReplayProgress? = nil,
    shouldStop: @escaping @Sendable () -> Bool
  ) {
    self.name = input.name
    self.source = input.source
    self.followed = input.followed
    self.isLive = input.isLive
    self.progress = progress
    self.shouldStop = shouldStop
  }

  /// Reading that hashes the bytes it reads, going on from `hash`, the hash of the input's
  /// bytes before where it starts.
  func hashing(from hash: SegmentedLogHash) -> InputReading {
    var reading = self
    reading.hash = hash
    return reading
  }

  /// Reads the next bytes into the start of `buffer`, as the form below does.
  mutating func read(into buffer: inout MutableRawSpan) throws -> Int {
    try buffer.withUnsafeMutableBytes { bytes in try read(into: bytes) }
  }

  /// Reads the next bytes, counts them for the progress display, and hashes them when asked.
  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let count = try readBytes(into: buffer)
    progress?.add(bytes: count)
    hash?.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    return count
  }

  private mutating func readBytes(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    while true {
      if isLive {
        while !hasBytesReady(waitingUpTo: Self.waitSlice) {
          if shouldStop() { throw Stopped() }
        }
      }
      if shouldStop() { throw Stopped() }
      guard let followed else { return try source?.read(into: buffer) ?? 0 }
      // A followed file ends only when it changed: a read that finds nothing — the file was
      // truncated between asking and reading — goes back to waiting, and finds the change.
      let count = try followed.read(into: buffer)
      if count > 0 || followed.pendingChange != nil { return count }
    }
  }

  /// Waits one slice, as a read of a quiet input does.
  ///
  /// - Throws: ``Stopped`` when the replay was asked to stop.
  func pause() throws(Stopped) {
    if shouldStop() { throw Stopped() }
    _ = poll(nil, 0, Self.waitSlice)
    if shouldStop() { throw Stopped() }
  }

  /// Whether a read would return at once, asking without waiting: always for a file.
  func hasBytesReady() -> Bool {
    hasBytesReady(waitingUpTo: 0)
  }

  /// Whether a read would return at once, waiting up to `milliseconds` for it to.
  private func hasBytesReady(waitingUpTo milliseconds: Int32) -> Bool {
    if let followed {
      if followed.hasBytesReady() { return true }
      if milliseconds > 0 { _ = poll(nil, 0, milliseconds) }
      return false
    }
    switch source {
    case .memory?:
      // A memory input marked live (in tests) behaves as a pipe whose every read is the
      // last that was ready.
      return !isLive || milliseconds > 0
    case let source?: return source.waitUntilReadable(milliseconds: milliseconds)
    case nil: return true
    }
  }
}
