/// The links of one relation, in the shape the response gave them: one link, or a list.
///
/// HAL writes a relation either as one link object or as an array of link objects, and asks
/// servers never to switch a relation from one to the other, because clients are written for
/// the shape they were given (draft-kelly-json-hal §4.1.1). rasp keeps that shape: a relation
/// that came as an array stays a list, even with one link or none, and is written as an array;
/// its links keep the order the response gave them.
///
/// ```swift
/// let item = RestRelation(rel: "item", list: [
///   RestLink(rel: "item", href: "/orders/123"), RestLink(rel: "item", href: "/orders/124"),
/// ])
/// item.isList            // true
/// item.links.map(\.href) // ["/orders/123", "/orders/124"]
/// let next = RestRelation(RestLink(rel: "next", href: "/orders?page=2"))
/// next.isList            // false
/// ```
public struct RestRelation: Sendable, Equatable {
  /// The relation: `self`, `item`, `curies`, …
  public let rel: String
  /// The link, or the list of links. A plain link — the common case — is kept as its href
  /// alone, and the relation is then no bigger than a plain link was before HAL was read.
  var storage: Storage

  enum Storage: Sendable, Equatable {
    /// One plain link: its href.
    case href(String)
    /// One link that is templated, named or deprecated; boxed, as it is rare.
    indirect case link(RestLink)
    /// A list of links.
    case list([RestLink])
  }

  /// Creates a relation of one link, the link's own.
  ///
  /// ```swift
  /// let relation = RestRelation(RestLink(rel: "self", href: "/orders"))
  /// ```
  ///
  /// - Parameter link: The link.
  public init(_ link: RestLink) {
    rel = link.rel
    storage = link.isPlain ? .href(link.href) : .link(link)
  }

  /// Creates a relation of one plain link.
  init(rel: String, href: String) {
    self.rel = rel
    storage = .href(href)
  }

  /// Creates a relation that is a list of links, as HAL's arrays are.
  ///
  /// ```swift
  /// let empty = RestRelation(rel: "item", list: [])   // written "item":[]
  /// ```
  ///
  /// - Parameters:
  ///   - rel: The relation.
  ///   - links: The links, in order; each one's ``RestLink/rel`` becomes `rel`.
  public init(rel: String, list links: [RestLink]) {
    self.rel = rel
    var links = links
    for index in links.indices where links[index].rel != rel { links[index].rel = rel }
    storage = .list(links)
  }

  /// The relation's links, in order: one, or those of the list.
  ///
  /// ```swift
  /// relation.links.first?.href   // "/orders/123"
  /// ```
  public var links: [RestLink] {
    switch storage {
    case .href(let href): [RestLink(rel: rel, href: href)]
    case .link(let link): [link]
    case .list(let links): links
    }
  }

  /// Whether the relation is a list of links (a HAL array) rather than one link.
  ///
  /// ```swift
  /// RestRelation(rel: "item", list: []).isList   // true
  /// ```
  public var isList: Bool {
    if case .list = storage { return true }
    return false
  }

  /// Adds a link to a list, replacing the one it stands for: the link with the same name, when
  /// it has one, or else with the same href. A link that stands for none is appended.
  mutating func add(_ link: RestLink) {
    guard case .list(var links) = storage else {
      storage = link.isPlain ? .href(link.href) : .link(link)
      return
    }
    storage = .list([])  // the array is uniquely referenced while it changes
    let same =
      if let name = link.name {
        links.firstIndex { $0.name == name }
      } else {
        links.firstIndex { $0.href == link.href }
      }
    if let same { links[same] = link } else { links.append(link) }
    storage = .list(links)
  }

  /// Removes the links that have every one of the href and the name given, and tells whether
  /// the relation remains: a list does, even empty; a single link does not once removed.
  mutating func remove(href: String?, name: String?) -> Bool {
    switch storage {
    case .href(let target):
      return !RestLink(rel: rel, href: target).matches(href: href, name: name)
    case .link(let link):
      return !link.matches(href: href, name: name)
    case .list(var links):
      storage = .list([])
      links.removeAll { $0.matches(href: href, name: name) }
      storage = .list(links)
      return true
    }
  }
}
