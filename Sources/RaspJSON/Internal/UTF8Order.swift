#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Byte-wise comparison of strings, the order and equality JSON uses for keys and strings.
///
/// Swift's `String` comparison treats canonically equivalent text as equal (`"é"` written as
/// one scalar or as `e` plus a combining accent). JSON does not: keys and strings are
/// sequences of code points, and `jq` compares them byte by byte. These helpers do the same.
package enum UTF8Order {
  /// Compares the UTF-8 bytes of two strings: negative, zero or positive.
  @inlinable
  static func compare(_ a: String, _ b: String) -> Int {
    // Read where they are when both strings' bytes are contiguous, as native and small strings'
    // are: copied into variables for `withUTF8` first, each would be retained and released —
    // on the path of every event that sets or removes a REST link.
    let inPlace = a.utf8.withContiguousStorageIfAvailable { left in
      b.utf8.withContiguousStorageIfAvailable { right in compare(left, right) }
    }
    if let inPlace, let order = inPlace { return order }
    var a = a
    var b = b
    return a.withUTF8 { left in
      b.withUTF8 { right in compare(left, right) }
    }
  }

  /// Compares two byte buffers lexicographically: negative, zero or positive.
  @inlinable
  static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>)
    -> Int
  {
    let common = min(left.count, right.count)
    var index = 0
    while index < common {
      let difference = Int(left[index]) - Int(right[index])
      if difference != 0 { return difference }
      index += 1
    }
    return left.count - right.count
  }

  /// Whether two strings have the same UTF-8 bytes.
  @inlinable
  static func equal(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count && compare(a, b) == 0
  }

  /// Whether two byte buffers hold the same bytes.
  ///
  /// Compared with `memcmp`: the standard library's `elementsEqual` walks both buffers through
  /// iterators, a byte at a time, and costs about 200 instructions for a six-byte key — on the
  /// path of every event of a keyed replay, which compares each line's member names with its
  /// path (`--key-by device`).
  ///
  /// ```swift
  /// UTF8Order.equal(scanner.bytes(of: member), keyBytes)
  /// ```
  @inlinable
  package static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    guard a.count == b.count else { return false }
    guard let left = a.baseAddress, let right = b.baseAddress else { return true }
    return memcmp(left, right, a.count) == 0
  }
}
