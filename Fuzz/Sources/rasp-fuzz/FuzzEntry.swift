#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// libFuzzer's entry point: checks one input as a JSON-lines log, then replays it.
///
/// Each input is read directly with ``RaspJSON/JSONLinesReader`` and parsed line by line (see
/// ``ReaderCheck``), then replayed in-process through `RaspCommandLine.run`, with options taken
/// from its first two bytes unless it starts with `{` (see ``FuzzCommandLine`` and
/// ``ReplayCheck``). A broken invariant
/// calls ``FuzzFailure/fail(_:)``, which aborts, so that libFuzzer records the input as a crash.
///
/// - Parameters:
///   - data: The input's bytes.
///   - size: How many bytes there are.
/// - Returns: 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  ReaderCheck.run(input)
  ReplayCheck.run(FuzzCommandLine(input))
  return 0
}

/// Reports a broken invariant and aborts.
enum FuzzFailure {
  /// Writes `rasp-fuzz: <message>` to standard error and aborts the process.
  ///
  /// ```swift
  /// FuzzFailure.fail("read 3 lines, expected 2")
  /// ```
  ///
  /// - Parameter message: What went wrong.
  static func fail(_ message: String) -> Never {
    log("invariant broken: \(message)")
    abort()
  }

  /// Writes `rasp-fuzz: <message>` to standard error.
  static func log(_ message: String) {
    let text = Array("rasp-fuzz: \(message)\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  }
}
