#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspReplay
import Synchronization

/// Stops a replay cleanly, or removes the temporary file of a golden file being written, when
/// the process is interrupted.
///
/// While a replay runs (``RaspReplay/ReplayInterruption/isWatched``), `SIGINT`, `SIGTERM` and
/// `SIGHUP` ask it to stop (``interruption``): it ends at the next line, after printing what it
/// replayed and its summary, and the process then dies of the signal (`RaspCommandLine.main`).
/// More signals meanwhile remove the pending file (its replay will not be recorded) and change
/// nothing else. At any other time, a signal ends the process as follows.
///
/// ``RaspAtomicFileWriter`` never touches the golden file until it renames a complete
/// temporary file over it, so Ctrl-C during `rasp check --update` leaves the old golden file
/// intact whatever happens. Without this, it would also leave `.expected.jsonl.tmp-<pid>`
/// behind. ``install()`` — called by ``RaspCommandLine/main(domains:)``, never by in-process
/// runs — handles `SIGINT`, `SIGTERM` and `SIGHUP`: the handler unlinks the pending temporary
/// file, restores the signal's default action and raises it again, so the shell still sees the
/// command killed by the signal (status 130 for Ctrl-C). A signal the process was started
/// ignoring (`nohup`) stays ignored.
///
/// The handler does only what is safe in a signal handler: an atomic load, `unlink(2)`,
/// `signal(2)` and `raise(3)`. The pending path is a C string allocated before it is published
/// and never freed (a handler running on another thread may still be reading it; it is one
/// short string per golden file written), so the handler never allocates. One file can be
/// pending at a time, which is all a command writes; a second writer in the same process, as
/// in parallel tests, is simply not tracked.
///
/// ```swift
/// RaspInterruptCleanup.install()              // once, in main
/// let token = RaspInterruptCleanup.track(".expected.jsonl.tmp-42")
/// // … write, then rename or unlink …
/// RaspInterruptCleanup.untrack(token)
/// ```
enum RaspInterruptCleanup {
  /// The bit pattern of the pending temporary file's C string, or 0 when none is pending.
  private static let pending = Atomic<Int>(0)

  /// The signals that end the process and deserve a clean-up.
  static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// The request the handler makes of the replay that runs, if one does.
  static let interruption = ReplayInterruption()

  /// Handles ``signals`` for the rest of the process's life, except those it ignores.
  ///
  /// The signals are also unblocked: a process inherits its parent's signal mask, and a parent
  /// that blocks `SIGINT` on its threads (a test runner, a program that waits for signals with
  /// `sigwait(2)`) would otherwise start a `rasp` that Ctrl-C or `kill -INT` never stops. GNU
  /// `timeout` unblocks the signal it sends for the same reason. An ignored signal stays
  /// ignored: that is `nohup`'s choice, made with the disposition, not the mask.
  static func install() {
    // Made now: the handler must not be the first to touch it.
    _ = interruption
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for number in signals {
      let previous = signal(number, handle)
      if isIgnore(previous) { signal(number, SIG_IGN) }
      sigaddset(&unblocked, number)
    }
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
  }

  /// Whether a disposition `signal(2)` returned is `SIG_IGN` (C function pointers are not
  /// `Equatable` in Swift, so they are compared as addresses).
  private static func isIgnore(_ handler: (@convention(c) (Int32) -> Void)?) -> Bool {
    guard let handler else { return false }
    let ignore: (@convention(c) (Int32) -> Void)? = SIG_IGN
    guard let ignore else { return false }
    return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(ignore, to: Int.self)
  }

  /// Marks `path` for removal if a signal arrives before ``untrack(_:)``.
  ///
  /// - Parameter path: The temporary file's path.
  /// - Returns: A token for ``untrack(_:)``: the copy of the path, or `nil` when another file
  ///   is already tracked.
  static func track(_ path: String) -> UnsafeMutablePointer<CChar>? {
    guard let copy = strdup(path) else { return nil }
    let bits = Int(bitPattern: copy)
    guard
      pending.compareExchange(expected: 0, desired: bits, ordering: .sequentiallyConsistent)
        .exchanged
    else {
      free(copy)
      return nil
    }
    return copy
  }

  /// Stops tracking the file of `token`, once it was renamed or removed.
  ///
  /// - Parameter token: What ``track(_:)`` returned.
  static func untrack(_ token: UnsafeMutablePointer<CChar>?) {
    guard let token else { return }
    _ = pending.compareExchange(
      expected: Int(bitPattern: token), desired: 0, ordering: .sequentiallyConsistent)
  }

  /// The path being tracked, for tests.
  static var trackedPath: String? {
    let bits = pending.load(ordering: .sequentiallyConsistent)
    guard let pointer = UnsafePointer<CChar>(bitPattern: bits) else { return nil }
    return String(cString: pointer)
  }

  /// The signal handler: stops the replay that runs, or removes the pending file and dies of
  /// the signal as if unhandled.
  private static let handle: @convention(c) (Int32) -> Void = { number in
    let bits = RaspInterruptCleanup.pending.load(ordering: .sequentiallyConsistent)
    let interruption = RaspInterruptCleanup.interruption
    if interruption.isWatched {
      // The replay stops at its next line, whatever more signals come (`timeout` sends its
      // signal twice: to the command and to its group); what it was writing is not needed.
      if interruption.signal != nil, let pointer = UnsafePointer<CChar>(bitPattern: bits) {
        unlink(pointer)
      }
      interruption.request(signal: number)
      return
    }
    if let pointer = UnsafePointer<CChar>(bitPattern: bits) { unlink(pointer) }
    signal(number, SIG_DFL)
    raise(number)
  }
}
