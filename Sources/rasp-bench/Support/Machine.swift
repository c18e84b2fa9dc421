#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The machine a benchmark ran on, as Linux describes it, and when.
///
/// ```swift
/// let machine = Machine.current()
/// print(machine.summary)   // AMD EPYC, 2 processors, 23.5 GiB memory, Linux 6.1.0
/// ```
struct Machine {
  /// The processor's model name from `/proc/cpuinfo`.
  var processor: String
  /// The processors online (what `nproc` prints).
  var processorCount: Int
  /// `MemTotal` from `/proc/meminfo`, in kibibytes.
  var memoryKilobytes: Int
  /// The kernel's name and release.
  var kernel: String

  /// Reads the description of this machine.
  static func current() -> Machine {
    let cpuinfo = String(decoding: FileBytes.contents(of: "/proc/cpuinfo") ?? [], as: UTF8.self)
    let meminfo = String(decoding: FileBytes.contents(of: "/proc/meminfo") ?? [], as: UTF8.self)
    var processor = "unknown processor"
    for line in cpuinfo.split(separator: "\n") where line.hasPrefix("model name") {
      if let colon = line.firstIndex(of: ":") {
        processor = line[line.index(after: colon)...].trimmingSpaces()
      }
      break
    }
    var memory = 0
    for line in meminfo.split(separator: "\n") where line.hasPrefix("MemTotal:") {
      memory = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    var names = utsname()
    uname(&names)
    let system = withUnsafeBytes(of: names.sysname) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    let release = withUnsafeBytes(of: names.release) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    return Machine(
      processor: processor, processorCount: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
      memoryKilobytes: memory, kernel: system + " " + release)
  }

  /// One line: processor, count, memory, kernel.
  var summary: String {
    let memory = BenchFormat.decimal(Double(memoryKilobytes) / 1_048_576, digits: 1)
    return "\(processor), \(processorCount) processors (nproc), \(memory) GiB memory, \(kernel)"
  }

  /// The load average over the last minute, from `/proc/loadavg`: how many processes were
  /// running or waiting for a processor, a sign of other work disturbing the figures.
  static func loadAverage() -> Double? {
    let text = String(decoding: FileBytes.contents(of: "/proc/loadavg") ?? [], as: UTF8.self)
    return text.split(separator: " ").first.flatMap { Double($0) }
  }

  /// The current time in UTC, as `YYYY-MM-DD hh:mm UTC`.
  static func now() -> String {
    var seconds = time(nil)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
      + " \(two(parts.tm_hour)):\(two(parts.tm_min)) UTC"
  }
}

extension Substring {
  fileprivate func trimmingSpaces() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
