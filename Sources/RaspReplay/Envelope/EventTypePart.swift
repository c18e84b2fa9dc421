import RaspJSON

/// One part of an event type, `geo` or `heading` in `geo.heading`, read from the line's bytes.
///
/// ```swift
/// if envelope.domain.equals(Array("geo".utf8)) { … }
/// ```
package struct EventTypePart {
  private let line: UnsafeBufferPointer<UInt8>
  /// The part's range in the line, or the whole type's when it is written with escapes.
  private let start: Int
  private let end: Int
  /// For a type written with escapes: whether this is the domain part; `nil` otherwise.
  private let escapedIsDomain: Bool?

  init(line: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
    self.line = line
    self.start = start
    self.end = end
    self.escapedIsDomain = nil
  }

  init(line: UnsafeBufferPointer<UInt8>, escapedType type: JSONRawString, isDomain: Bool) {
    self.line = line
    self.start = type.start
    self.end = type.end
    self.escapedIsDomain = isDomain
  }

  /// The part as a string.
  ///
  /// ```swift
  /// event.name.string   // "heading"
  /// ```
  package var string: String {
    guard let isDomain = escapedIsDomain else {
      return String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
    }
    let text = JSONScanner(line).string(JSONRawString(start: start, end: end, hasEscapes: true))
    guard let dot = text.firstIndex(of: ".") else { return text }
    return isDomain ? String(text[..<dot]) : String(text[text.index(after: dot)...])
  }

  /// The part's length and first eight bytes, for comparing names as integers; `nil` when
  /// the type is written with escapes.
  @inline(__always)
  var nameKey: (count: Int, head: UInt64)? {
    guard escapedIsDomain == nil else { return nil }
    let count = end - start
    if line.count - start >= 8, let base = line.baseAddress {
      // The part is followed by at least its closing quote and the line's closing brace, so
      // eight bytes are usually there to load at once; the bytes past the part are masked off.
      let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
      return (count, count >= 8 ? word : word & ((1 << (UInt64(count) &* 8)) &- 1))
    }
    var head: UInt64 = 0
    var shift: UInt64 = 0
    var index = start
    let stop = start + Swift.min(count, 8)
    while index < stop {
      head |= UInt64(line[index]) << shift
      shift += 8
      index += 1
    }
    return (count, head)
  }

  /// Whether the bytes after the first eight equal `tail`, for a name of the part's length.
  @inline(__always)
  func tailEquals(_ tail: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = end - start
    guard count > 8 else { return true }
    for index in 8..<count where tail[index - 8] != line[start + index] { return false }
    return true
  }

  /// Whether the part is exactly `utf8`.
  ///
  /// ```swift
  /// event.domain.equals(Array("geo".utf8))
  /// ```
  ///
  /// - Parameter utf8: The bytes to compare with.
  /// - Returns: `true` when they are equal.
  @inline(__always)
  package func equals(_ utf8: [UInt8]) -> Bool {
    guard escapedIsDomain == nil else { return string.utf8.elementsEqual(utf8) }
    let count = end - start
    guard count == utf8.count else { return false }
    return utf8.withUnsafeBufferPointer { other in
      for index in 0..<count where other[index] != line[start + index] { return false }
      return true
    }
  }
}
