/// A hypermedia link: a relation, the URL it points to, and what a client must know to follow it.
///
/// A link keeps the HAL link attributes that decide where and how the client can go: whether
/// the href is a URI template to expand first (`templated`), which of a relation's links it is
/// (`name`, HAL's secondary key, also the prefix a curie defines), and whether it is going away
/// (`deprecation`). The label and the hints about the target's representation (`title`, `type`,
/// `profile`, `hreflang`) describe what the client will find there, not where it can go, and
/// are not kept. A link with none of the kept attributes is written as its href alone.
///
/// ```swift
/// let next = RestLink(rel: "next", href: "/orders?page=2")
/// let find = RestLink(rel: "find", href: "/orders{?id}", isTemplated: true)
/// next.isPlain   // true: written "/orders?page=2"
/// find.isPlain   // false: written {"href":"/orders{?id}","templated":true}
/// ```
public struct RestLink: Sendable, Equatable {
  /// The link relation: `self`, `next`, `payment`, `acme:widgets`, …
  public var rel: String
  /// The target URL or path, or a URI template when ``isTemplated``.
  public var href: String
  /// Whether ``href`` is a URI template (RFC 6570) to expand before following it.
  public var isTemplated: Bool
  /// The link's name: which of its relation's links it is; for a curie, its prefix.
  public var name: String?
  /// Where the link's deprecation is explained, when the link is going away.
  public var deprecation: String?

  /// Creates a link.
  ///
  /// ```swift
  /// let link = RestLink(rel: "self", href: "/orders/1")
  /// let acme = RestLink(
  ///   rel: "curies", href: "https://docs.acme.com/relations/{rel}", isTemplated: true,
  ///   name: "acme")
  /// ```
  ///
  /// - Parameters:
  ///   - rel: The relation.
  ///   - href: The target, or a URI template.
  ///   - isTemplated: Whether `href` is a URI template.
  ///   - name: The link's name among its relation's links.
  ///   - deprecation: Where the link's deprecation is explained.
  public init(
    rel: String, href: String, isTemplated: Bool = false, name: String? = nil,
    deprecation: String? = nil
  ) {
    self.rel = rel
    self.href = href
    self.isTemplated = isTemplated
    self.name = name
    self.deprecation = deprecation
  }

  /// Whether the link is nothing but a relation and an href: not templated, without a name or a
  /// deprecation. Such a link is written as its href string.
  ///
  /// ```swift
  /// RestLink(rel: "self", href: "/").isPlain                // true
  /// RestLink(rel: "item", href: "/a", name: "a").isPlain    // false
  /// ```
  public var isPlain: Bool { !isTemplated && name == nil && deprecation == nil }

  /// Whether the link has every one of the href and the name given.
  func matches(href: String?, name: String?) -> Bool {
    (href == nil || self.href == href) && (name == nil || self.name == name)
  }
}
