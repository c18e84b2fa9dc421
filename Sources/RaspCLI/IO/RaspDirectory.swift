#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A directory of the file system, read with the C library's `stat` and `readdir`: what
/// `rasp compare` needs to take a directory of logs, without Foundation, whose libraries
/// (ICU's among them) would otherwise be loaded at every start of `rasp`.
///
/// ```swift
/// if RaspDirectory.exists(atPath: "fixtures/bench") {
///   let names = try RaspDirectory.names(atPath: "fixtures/bench")  // ["events.jsonl", …]
/// }
/// ```
enum RaspDirectory {
  /// Whether `path` names a directory, a symbolic link to one included.
  static func exists(atPath path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
  }

  /// The names of the directory's entries, `.` and `..` left out, in the order the system
  /// lists them.
  ///
  /// - Throws: The `errno` of `opendir` or `readdir` when the directory cannot be read.
  static func names(atPath path: String) throws(RaspDirectoryError) -> [String] {
    guard let directory = opendir(path) else { throw RaspDirectoryError(code: errno) }
    defer { closedir(directory) }
    var names: [String] = []
    while true {
      errno = 0
      guard let entry = readdir(directory) else {
        if errno != 0 { throw RaspDirectoryError(code: errno) }
        return names
      }
      let name = withUnsafePointer(to: &entry.pointee.d_name) {
        String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
      }
      if name != "." && name != ".." { names.append(name) }
    }
  }
}

/// Why a directory could not be read: the `errno` of the call that failed.
struct RaspDirectoryError: Error, Equatable {
  /// The system's error number.
  var code: Int32
}
