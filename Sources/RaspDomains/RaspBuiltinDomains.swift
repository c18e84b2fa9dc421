/// The domains that `rasp` knows without a spec file or code of the user's own.
///
/// ```swift
/// let configuration = ReplayConfiguration(domains: RaspBuiltinDomains.all)
/// RaspBuiltinDomains.all.map(\.name)   // ["data", "geo", "lifecycle", "motion", "nav", "rest"]
/// ```
public enum RaspBuiltinDomains {
  /// Every built-in domain, in name order.
  ///
  /// ```swift
  /// for domain in RaspBuiltinDomains.all { print(domain.name) }
  /// ```
  public static var all: [any RaspDomain] {
    [DataDomain(), GeoDomain(), LifecycleDomain(), MotionDomain(), NavDomain(), RestDomain()]
  }
}
