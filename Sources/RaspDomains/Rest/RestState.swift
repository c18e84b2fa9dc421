import Rasp
import RaspJSON

/// The hypermedia links of the last REST responses, by relation: where the client can go next.
///
/// This is the REST/HATEOAS example of the RASP seeds. A response replaces the whole set of
/// links; single relations can be added, replaced or removed; the set can be cleared. Links are
/// kept sorted by relation, so the state has one canonical form.
///
/// ```swift
/// var rest = RestState()
/// try rest.apply(event: .replaceAll([RestLink(rel: "self", href: "/orders")]))
/// try rest.apply(event: .set(RestLink(rel: "next", href: "/orders?page=2")))
/// rest["next"]       // "/orders?page=2"
/// rest.links.count   // 2
/// ```
public struct RestState: RaspState, Equatable, Sendable {
  /// The links, sorted by relation, one per relation.
  public private(set) var links: [RestLink]

  /// Creates a state, by default without links.
  ///
  /// ```swift
  /// let rest = RestState(links: [RestLink(rel: "self", href: "/")])
  /// ```
  ///
  /// - Parameter links: The links; a relation given twice keeps its last link.
  public init(links: [RestLink] = []) {
    self.links = []
    for link in links { set(link) }
  }

  /// The target of the link with relation `rel`, or `nil`.
  ///
  /// ```swift
  /// rest["self"]   // "/orders"
  /// ```
  ///
  /// - Parameter rel: A link relation.
  public subscript(rel: String) -> String? {
    let (index, found) = position(of: rel)
    return found ? links[index].href : nil
  }

  /// What can happen to the set of links.
  ///
  /// ```swift
  /// let event = RestState.Event.remove(rel: "next")
  /// ```
  public enum Event: Sendable, Equatable {
    /// A response brought a new set of links, replacing all others (`rest.response`).
    case replaceAll([RestLink])
    /// One relation was added or changed (`rest.link`).
    case set(RestLink)
    /// One relation went away (`rest.unlink`); removing an absent relation changes nothing.
    case remove(rel: String)
    /// Every link went away (`rest.clear`).
    case clear
  }

  /// Applies a change to the links; never rejects an event.
  ///
  /// ```swift
  /// try rest.apply(event: .clear)
  /// ```
  ///
  /// - Parameter event: The event.
  public mutating func apply(event: Event) {
    switch event {
    case .replaceAll(let newLinks):
      links.removeAll(keepingCapacity: true)
      for link in newLinks { set(link) }
    case .set(let link):
      set(link)
    case .remove(let rel):
      let (index, found) = position(of: rel)
      if found { links.remove(at: index) }
    case .clear:
      links.removeAll()
    }
  }

  /// `true`: the reducer never throws.
  ///
  /// ```swift
  /// RestState.throwsBeforeMutating   // true
  /// ```
  public static var throwsBeforeMutating: Bool { true }

  private mutating func set(_ link: RestLink) {
    let (index, found) = position(of: link.rel)
    if found { links[index] = link } else { links.insert(link, at: index) }
  }

  private func position(of rel: String) -> (index: Int, found: Bool) {
    var low = 0
    var high = links.count
    while low < high {
      let middle = (low + high) / 2
      let rel2 = links[middle].rel
      if rel2 == rel { return (middle, true) }
      if JSONObject.keyPrecedes(rel2, rel) { low = middle + 1 } else { high = middle }
    }
    return (low, false)
  }
}

/// A hypermedia link: a relation and the URL it points to.
///
/// ```swift
/// let next = RestLink(rel: "next", href: "/orders?page=2")
/// ```
public struct RestLink: Sendable, Equatable {
  /// The link relation: `self`, `next`, `payment`, …
  public var rel: String
  /// The target URL or path.
  public var href: String

  /// Creates a link.
  ///
  /// ```swift
  /// let link = RestLink(rel: "self", href: "/orders/1")
  /// ```
  ///
  /// - Parameters:
  ///   - rel: The relation.
  ///   - href: The target.
  public init(rel: String, href: String) {
    self.rel = rel
    self.href = href
  }
}
