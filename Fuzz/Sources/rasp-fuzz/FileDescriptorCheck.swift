#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks that a run closes the log files it opened, as a program that calls
/// `RaspCommandLine.run` many times needs: a descriptor left open per run ends, after some
/// thousands of runs, in "Too many open files".
///
/// It looks in `/proc/self/fd` for descriptors open on the file, so that what the process opens
/// once and keeps (libdispatch's event descriptors) does not count.
///
/// ```swift
/// _ = RaspCommandLine.run(arguments: ["replay", path], environment: environment)
/// FileDescriptorCheck.expectClosed(path, context: "rasp replay \(path)")
/// ```
enum FileDescriptorCheck {
  /// Fails when any descriptor is still open on `path`.
  ///
  /// - Parameters:
  ///   - path: An absolute path, as it was opened.
  ///   - context: The command line, for the message.
  static func expectClosed(_ path: String, context: @autoclosure () -> String) {
    let leaked = descriptors(openOn: path)
    guard leaked.isEmpty else {
      FuzzFailure.fail("\(context()) left descriptors \(leaked) open on '\(path)'")
    }
  }

  /// The descriptors of this process open on `path`.
  private static func descriptors(openOn path: String) -> [Int32] {
    guard let directory = opendir("/proc/self/fd") else {
      FuzzFailure.fail("cannot list /proc/self/fd: errno \(errno)")
    }
    defer { closedir(directory) }
    var found: [Int32] = []
    var target = [CChar](repeating: 0, count: 4096)
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard let descriptor = Int32(name), descriptor != dirfd(directory) else { continue }
      let count = readlink("/proc/self/fd/\(name)", &target, target.count)
      guard count > 0 else { continue }
      let link = String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if link == path { found.append(descriptor) }
    }
    return found
  }
}
