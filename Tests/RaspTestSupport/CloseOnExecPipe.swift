#if canImport(Glibc)
  import Glibc
#endif

/// glibc's `pipe2`, which Swift's Glibc module leaves out (it is behind `_GNU_SOURCE`).
@_silgen_name("pipe2")
private func systemPipe2(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// Makes a pipe whose two ends close when this process starts another program: a test's pipe
/// never leaks into a child that another test spawns at the same moment.
///
/// A leaked write end would keep a child's standard input open until that other child ends,
/// and two such tests would wait on each other (what `ProgressDisplayTests` did on a busy
/// machine). `posix_spawn_file_actions_adddup2` clears the flag on the copy a child gets.
///
/// ```swift
/// var ends: [Int32] = [-1, -1]
/// guard makeCloseOnExecPipe(&ends) else { throw Failure(description: "pipe: \(errno)") }
/// ```
///
/// - Parameter ends: The read end and the write end, once made.
/// - Returns: Whether the pipe was made (`errno` says why not).
public func makeCloseOnExecPipe(_ ends: inout [Int32]) -> Bool {
  precondition(ends.count == 2)
  return ends.withUnsafeMutableBufferPointer { systemPipe2($0.baseAddress!, O_CLOEXEC) } == 0
}
