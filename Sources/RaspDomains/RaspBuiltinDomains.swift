/// The domains that `rasp` knows without a spec file or code of the user's own.
///
/// ```swift
/// let snapshot = RaspSnapshotState(domains: RaspBuiltinDomains.all)
/// RaspBuiltinDomains.all.map(\.name)   // ["geo", "rest"]
/// ```
public enum RaspBuiltinDomains {
  /// Every built-in domain, in name order.
  ///
  /// ```swift
  /// for domain in RaspBuiltinDomains.all { print(domain.name) }
  /// ```
  public static var all: [any RaspDomain] {
    [GeoDomain(), RestDomain()]
  }
}
