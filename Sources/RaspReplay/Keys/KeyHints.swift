/// How the reading thread of a keyed replay reads each event's key before the kernel's turn
/// comes (``ReplayBatch/keyHints``): the kernel then finds the key's number, and asks for its
/// state early, without reading the line for it. In a pool (``KernelPool``), the same reading
/// tells each event's kernel (``KeyPartition``).
///
/// ```swift
/// var hints = KeyHints(keys: ReplayKeys(path: path), router: router)
/// batch.keyHints = hints.read(batch.items)
/// ```
struct KeyHints {
  /// The keys' path, and the scratch space to read a key into.
  var keys: ReplayKeys
  /// The router, to name an event's type for a key of `type`.
  let router: Router

  /// What finding each item's key needs, by index: `nil` for an item that is not an event,
  /// and for a key found in its turn (``ReplayKeys/sought(of:typeName:)``).
  mutating func read(_ items: UnsafeBufferPointer<ReplayItem>) -> [ReplayKeys.Sought?] {
    var hints: [ReplayKeys.Sought?] = []
    hints.reserveCapacity(items.count)
    for item in items {
      switch item.kind {
      case .event(let envelope), .decoded(let envelope, _, _, _), .passedOver(let envelope, _, _):
        let typeName = keys.root == .type ? router.typeName(of: envelope) : ""
        hints.append(keys.sought(of: envelope, typeName: typeName))
      default:
        hints.append(nil)
      }
    }
    return hints
  }
}
