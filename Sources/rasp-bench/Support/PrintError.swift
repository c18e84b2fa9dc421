#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes `message` and a newline to standard error, where diagnostics belong.
func printError(_ message: String) {
  var line = message + "\n"
  line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

/// Tells of a benchmark's progress on standard error, after the tool's name.
func printProgress(_ message: String) {
  printError("rasp-bench: " + message)
}
