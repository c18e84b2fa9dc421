import Rasp
import RaspJSON

/// The hypermedia links of the last REST responses, by relation: where the client can go next.
///
/// This is the REST/HATEOAS example of the RASP seeds. A response replaces the whole set of
/// relations; single links can be added, replaced or removed; the set can be cleared. Relations
/// are kept sorted, so the state has one canonical form. A relation holds one link or, as HAL's
/// arrays do, a list of links (see ``RestRelation``).
///
/// ```swift
/// var rest = RestState()
/// rest.apply(event: .replaceRelations([
///   RestRelation(RestLink(rel: "self", href: "/orders")),
///   RestRelation(rel: "item", list: [RestLink(rel: "item", href: "/orders/123")]),
/// ]))
/// rest.apply(event: .set(RestLink(rel: "item", href: "/orders/124")))
/// rest["self"]                               // "/orders"
/// rest.relation("item")?.links.map(\.href)   // ["/orders/123", "/orders/124"]
/// ```
public struct RestState: RaspState, Equatable, Sendable {
  /// The relations, sorted by relation name, one per name.
  public private(set) var relations: [RestRelation]

  /// Creates a state of single links, by default none.
  ///
  /// ```swift
  /// let rest = RestState(links: [RestLink(rel: "self", href: "/")])
  /// ```
  ///
  /// - Parameter links: The links, each its relation's only one; a relation given twice keeps
  ///   its last link.
  public init(links: [RestLink] = []) {
    relations = []
    for link in links { set(RestRelation(link)) }
  }

  /// Creates a state of relations.
  ///
  /// ```swift
  /// let rest = RestState(relations: [RestRelation(rel: "item", list: [])])
  /// ```
  ///
  /// - Parameter relations: The relations; a relation given twice keeps the last.
  public init(relations: [RestRelation]) {
    self.relations = []
    for relation in relations { set(relation) }
  }

  /// Every link, by relation, each relation's in order.
  ///
  /// ```swift
  /// rest.links.map(\.href)   // ["/orders/123", "/orders/124", "/orders"]
  /// ```
  public var links: [RestLink] { relations.flatMap(\.links) }

  /// The target of the link with relation `rel` — its first link, for a list — or `nil`.
  ///
  /// ```swift
  /// rest["self"]   // "/orders"
  /// ```
  ///
  /// - Parameter rel: A link relation.
  public subscript(rel: String) -> String? {
    relation(rel)?.links.first?.href
  }

  /// The relation named `rel`, or `nil`.
  ///
  /// ```swift
  /// rest.relation("item")?.isList   // true
  /// ```
  ///
  /// - Parameter rel: A link relation.
  /// - Returns: The relation, with its links.
  public func relation(_ rel: String) -> RestRelation? {
    let (index, found) = position(of: rel)
    return found ? relations[index] : nil
  }

  /// What can happen to the set of links.
  ///
  /// ```swift
  /// let event = RestState.Event.remove(rel: "item", href: "/orders/123")
  /// ```
  public enum Event: Sendable, Equatable {
    /// A response brought a new set of single links, replacing all others.
    case replaceAll([RestLink])
    /// A response brought a new set of relations, replacing all others (`rest.response`).
    case replaceRelations([RestRelation])
    /// A link was added or changed (`rest.link`): it replaces a single link's relation; it
    /// joins a list, replacing the link of the same name (or, without a name, the same href).
    case set(RestLink)
    /// Links went away (`rest.unlink`): the whole relation, or only its links with the href and
    /// the name given; a list stays, even empty. Removing what is absent changes nothing.
    case remove(rel: String, href: String? = nil, name: String? = nil)
    /// Every link went away (`rest.clear`).
    case clear
  }

  /// Applies a change to the links; never rejects an event.
  ///
  /// ```swift
  /// rest.apply(event: .clear)
  /// ```
  ///
  /// - Parameter event: The event.
  public mutating func apply(event: Event) {
    switch event {
    case .replaceAll(let newLinks):
      relations.removeAll(keepingCapacity: true)
      for link in newLinks { set(RestRelation(link)) }
    case .replaceRelations(let newRelations):
      relations.removeAll(keepingCapacity: true)
      for relation in newRelations { set(relation) }
    case .set(let link):
      let (index, found) = position(of: link.rel)
      if found {
        relations[index].add(link)
      } else {
        relations.insert(RestRelation(link), at: index)
      }
    case .remove(let rel, let href, let name):
      let (index, found) = position(of: rel)
      guard found else { return }
      if href == nil && name == nil || !relations[index].remove(href: href, name: name) {
        relations.remove(at: index)
      }
    case .clear:
      relations.removeAll()
    }
  }

  /// `true`: the reducer never throws.
  ///
  /// ```swift
  /// RestState.throwsBeforeMutating   // true
  /// ```
  public static var throwsBeforeMutating: Bool { true }

  private mutating func set(_ relation: RestRelation) {
    let (index, found) = position(of: relation.rel)
    if found { relations[index] = relation } else { relations.insert(relation, at: index) }
  }

  private func position(of rel: String) -> (index: Int, found: Bool) {
    var low = 0
    var high = relations.count
    while low < high {
      let middle = (low + high) / 2
      let rel2 = relations[middle].rel
      if rel2 == rel { return (middle, true) }
      if JSONObject.keyPrecedes(rel2, rel) { low = middle + 1 } else { high = middle }
    }
    return (low, false)
  }
}
