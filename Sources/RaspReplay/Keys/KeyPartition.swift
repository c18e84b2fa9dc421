/// How the reading thread tells which kernel of a replay split by key (``KernelPool``) handles
/// each event: the share of its key (``ReplayKeys/share(of:typeName:among:)``).
///
/// ```swift
/// var partition = KeyPartition(keys: ReplayKeys(path: path), router: router, count: 2)
/// item.share = partition.share(of: envelope)   // 0 or 1
/// ```
struct KeyPartition {
  /// The keys' path, and the scratch space to read a key into.
  var keys: ReplayKeys
  /// The router, to name an event's type for a key of `type`.
  let router: Router
  /// How many kernels there are.
  let count: Int

  /// The kernel that handles the event of `envelope`.
  mutating func share(of envelope: Envelope) -> UInt8 {
    let typeName = keys.root == .type ? router.typeName(of: envelope) : ""
    return UInt8(truncatingIfNeeded: keys.share(of: envelope, typeName: typeName, among: count))
  }
}
