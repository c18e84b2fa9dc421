/// What an event type means and which payload fields it takes, for `rasp domains` and the docs.
///
/// ```swift
/// let heading = RaspEventSchema(
///   name: "heading", summary: "The compass heading changed.",
///   fields: [RaspFieldSchema(name: "heading", type: "number (0–360)", isRequired: true,
///                            summary: "Degrees clockwise from north.")])
/// // A cart that empties when the user logs out, whatever domain logs them out.
/// let emptied = RaspEventSchema(
///   name: "emptied", summary: "The cart was emptied.", fields: [],
///   listensTo: ["user.loggedOut"])
/// ```
public struct RaspEventSchema: Sendable, Equatable {
  /// The event's name within its domain (`heading` for `geo.heading`).
  public let name: String
  /// One sentence: what happened and what the reducer does with it.
  public let summary: String
  /// The payload's fields.
  public let fields: [RaspFieldSchema]
  /// Whether the payload may hold fields besides ``fields``, which the reducer leaves alone:
  /// a REST response is the server's resource, with its own members beside `_links`.
  /// `--strict` refuses a field that is not in ``fields`` only when this is `false`.
  public let acceptsOtherFields: Bool
  /// The types of other domains, or of no domain, whose events this event also stands for, as
  /// Redux Toolkit's `extraReducers` makes a slice react to another's action: patterns of
  /// `domain.event` as rasp reads the type, `*` for any text (`user.loggedOut`, `*.reset`), or
  /// a type without a domain (`ADD_TODO`, in a Redux log). When an event of such a type
  /// arrives, the domain decodes it as this event (its ``name``) from the arriving event's
  /// payload; the arriving event's own domain, if any, applies it too, in the order of the
  /// domains' names, all or nothing. Empty for an event of the domain's own type only.
  ///
  /// An event whose ``name`` is empty has no type of its own: it stands only for these.
  public let listensTo: [String]

  /// Creates an event schema.
  ///
  /// ```swift
  /// let clear = RaspEventSchema(name: "clear", summary: "Removes every link.", fields: [])
  /// ```
  ///
  /// - Parameters:
  ///   - name: The event's name within its domain.
  ///   - summary: What happened and what the reducer does.
  ///   - fields: The payload's fields.
  ///   - acceptsOtherFields: Whether the payload may hold other fields too.
  ///   - listensTo: The types of other domains, or of none, that this event also stands for
  ///     (``listensTo``).
  public init(
    name: String, summary: String, fields: [RaspFieldSchema], acceptsOtherFields: Bool = false,
    listensTo: [String] = []
  ) {
    self.name = name
    self.summary = summary
    self.fields = fields
    self.acceptsOtherFields = acceptsOtherFields
    self.listensTo = listensTo
  }
}

/// One payload field of an event type.
///
/// ```swift
/// let field = RaspFieldSchema(name: "accuracy", type: "number (≥ 0)", isRequired: false,
///                             summary: "Horizontal accuracy in metres.")
/// ```
public struct RaspFieldSchema: Sendable, Equatable {
  /// The field's key in the payload.
  public let name: String
  /// The field's type as users read it: `number (0–360)`, `string`, `object`.
  public let type: String
  /// Whether the payload must have the field.
  public let isRequired: Bool
  /// One sentence on what the field means.
  public let summary: String

  /// Creates a field schema.
  ///
  /// ```swift
  /// let rel = RaspFieldSchema(name: "rel", type: "string", isRequired: true,
  ///                           summary: "The link relation.")
  /// ```
  ///
  /// - Parameters:
  ///   - name: The field's key.
  ///   - type: The field's type as users read it.
  ///   - isRequired: Whether the payload must have it.
  ///   - summary: What it means.
  public init(name: String, type: String, isRequired: Bool, summary: String) {
    self.name = name
    self.type = type
    self.isRequired = isRequired
    self.summary = summary
  }
}
