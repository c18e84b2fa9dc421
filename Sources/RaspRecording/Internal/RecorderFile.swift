import Foundation

/// A log file the recorder writes, in parts when it has a size limit: `session.jsonl`, then
/// `session.1.jsonl`, `session.2.jsonl`, … in the order they were written.
///
/// A part is never renamed or rewritten once the next has begun, so a finished part can be
/// replayed, copied or checked while the recording goes on. Lines are never split between
/// parts. Creating the file removes the parts a previous recording to the same path left
/// (`session.<number>.jsonl`), so that the parts beside a log are always its own; replay them
/// in their order (`RaspRecorderSummary/partPaths`) with `rasp replay --concat`.
final class RecorderFile {
  /// The first part's path, as given.
  let path: String
  /// The size at which a new part begins, or `nil`.
  private let maxPartBytes: Int?
  /// The open part's descriptor.
  private var descriptor: Int32
  /// The open part's number: 0 for `path` itself.
  private(set) var partIndex = 0
  /// The bytes in the open part.
  private var partBytes = 0

  /// Creates (or empties) the file, and removes a previous recording's later parts.
  init(path: String, maxPartBytes: Int?) throws(RaspRecorderError) {
    self.path = path
    self.maxPartBytes = maxPartBytes.map { max(1, $0) }
    descriptor = try Self.create(path)
    Self.removeParts(of: path)
  }

  /// Removes every `<stem>.<number><extension>` beside `path`: an earlier recording's parts.
  private static func removeParts(of path: String) {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[...$0]) } ?? ""
    guard
      let names = try? FileManager.default.contentsOfDirectory(
        atPath: directory.isEmpty ? "." : directory)
    else { return }
    for name in names {
      let candidate = directory + name
      guard candidate != path, let number = partNumber(of: candidate, base: path), number > 0
      else { continue }
      unlink(candidate)
    }
  }

  /// The part number of `candidate` when it is a part of `base`, such as 2 for
  /// `session.2.jsonl` beside `session.jsonl`; `nil` otherwise.
  static func partNumber(of candidate: String, base: String) -> Int? {
    let probe = partPath(base, index: 1)
    // `probe` is the base with `.1` put in: what comes before and after the `1`.
    guard let marker = probe.range(of: ".1", options: .backwards) else { return nil }
    let before = probe[..<marker.lowerBound] + "."
    let after = probe[marker.upperBound...]
    guard candidate.hasPrefix(before), candidate.hasSuffix(after),
      candidate.count > before.count + after.count
    else { return nil }
    let digits = candidate.dropFirst(before.count).dropLast(after.count)
    guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.first != "0" else {
      return nil
    }
    return Int(digits)
  }

  deinit {
    if descriptor >= 0 { Foundation.close(descriptor) }
  }

  /// The path of part `index` of `path`: the number goes before the extension.
  ///
  /// `session.jsonl` → `session.1.jsonl`; `logs/session` → `logs/session.1`.
  static func partPath(_ path: String, index: Int) -> String {
    guard index > 0 else { return path }
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
      return path + ".\(index)"
    }
    let stem = path.dropLast(name.distance(from: dot, to: name.endIndex))
    return stem + ".\(index)" + name[dot...]
  }

  /// The path of the open part.
  var currentPath: String { Self.partPath(path, index: partIndex) }

  /// Writes whole lines, going on in a new part whenever the open one would exceed the limit.
  func write(_ bytes: [UInt8]) throws(RaspRecorderError) {
    try bytes.withUnsafeBufferPointer { buffer throws(RaspRecorderError) in
      var rest = buffer[...]
      while !rest.isEmpty {
        guard let maxPartBytes, partBytes + rest.count > maxPartBytes else {
          try writeAll(UnsafeBufferPointer(rebasing: rest))
          return
        }
        // The whole lines that fit; at least one in an empty part.
        var end = rest.startIndex
        var index = rest.startIndex
        while index < rest.endIndex, partBytes + (index - rest.startIndex) < maxPartBytes {
          if rest[index] == 0x0A { end = index + 1 }
          index += 1
        }
        if end == rest.startIndex && partBytes == 0 {
          end = rest[rest.startIndex...].firstIndex(of: 0x0A).map { $0 + 1 } ?? rest.endIndex
        }
        if end > rest.startIndex {
          try writeAll(UnsafeBufferPointer(rebasing: rest[..<end]))
          rest = rest[end...]
        }
        if !rest.isEmpty { try startNextPart() }
      }
    }
  }

  /// Closes the open part.
  func close() throws(RaspRecorderError) {
    guard descriptor >= 0 else { return }
    let result = Foundation.close(descriptor)
    descriptor = -1
    if result != 0 { throw .cannotWrite(path: currentPath, code: errno) }
  }

  /// Closes the open part and creates the next.
  private func startNextPart() throws(RaspRecorderError) {
    try close()
    let next = partIndex + 1
    descriptor = try Self.create(Self.partPath(path, index: next))
    partIndex = next
    partBytes = 0
  }

  /// Writes every byte, through short writes and interruptions.
  private func writeAll(_ buffer: UnsafeBufferPointer<UInt8>) throws(RaspRecorderError) {
    guard let base = buffer.baseAddress else { return }
    var offset = 0
    while offset < buffer.count {
      let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw .cannotWrite(path: currentPath, code: errno)
      }
      offset += written
    }
    partBytes += buffer.count
  }

  /// Creates or empties a file for writing.
  private static func create(_ path: String) throws(RaspRecorderError) -> Int32 {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .cannotCreate(path: path, code: errno) }
    return descriptor
  }
}
