import RaspJSON

/// Why an event line could not be applied, and where in the line.
///
/// Decoding errors carry the byte offset in the line of the offending value, so the command
/// line can point at `file:line:column`; errors that concern the whole event (a reducer that
/// rejects it, an unknown type under `--strict`) point at the start of the line.
///
/// ```swift
/// let error = RaspEventError(offset: 31, reason: .wrongType(
///   field: "payload.heading", expected: "a number", found: "a string"))
/// print(error)   // field 'payload.heading' must be a number, found a string
/// ```
public struct RaspEventError: Error, Sendable, CustomStringConvertible {
  /// The byte offset in the line of the problem, or `nil` for the event as a whole.
  public var offset: Int?
  /// What is wrong.
  public var reason: Reason

  /// Creates an error.
  ///
  /// ```swift
  /// let error = RaspEventError(offset: nil, reason: .rejected("the stack is empty"))
  /// ```
  ///
  /// - Parameters:
  ///   - offset: The byte offset in the line, if the problem has a place.
  ///   - reason: What is wrong.
  public init(offset: Int?, reason: Reason) {
    self.offset = offset
    self.reason = reason
  }

  /// The reason as a sentence fragment, without a trailing period.
  ///
  /// ```swift
  /// print(RaspEventError(offset: 0, reason: .missingField("type")))
  /// // missing required field 'type'
  /// ```
  public var description: String { reason.description }

  /// What can be wrong with an event.
  ///
  /// ```swift
  /// let reason = RaspEventError.Reason.unknownType("geo.altitude")
  /// ```
  public enum Reason: Sendable, CustomStringConvertible {
    /// The line is not valid JSON.
    case syntax(JSONError.Reason)
    /// The line is valid JSON but not an object.
    case notAnObject(found: String)
    /// A required field is absent.
    case missingField(String)
    /// A field holds the wrong kind of value.
    case wrongType(field: String, expected: String, found: String)
    /// A field holds a value of the right kind that is not acceptable.
    case invalidValue(field: String, reason: String)
    /// A field appears twice in one object.
    case duplicateField(String)
    /// No domain defines the event's type (an error only under `--strict`), with the nearest
    /// type of its domain when the domain is known (`geo.headin`: `geo.heading`).
    case unknownType(String, nearest: String? = nil)
    /// The payload has a field that its event's type does not define (an error only under
    /// `--strict`), with the nearest one that it does.
    case unknownField(String, nearest: String? = nil)
    /// The domain's reducer rejected the event; the state is unchanged.
    case rejected(String)

    /// The reason as a sentence fragment.
    ///
    /// ```swift
    /// RaspEventError.Reason.rejected("the stack is empty").description
    /// // "event rejected: the stack is empty"
    /// ```
    public var description: String {
      switch self {
      case .syntax(let reason): return reason.description
      case .notAnObject(let found): return "an event must be a JSON object, found \(found)"
      case .missingField(let field): return "missing required field '\(field)'"
      case .wrongType(let field, let expected, let found):
        return "field '\(field)' must be \(expected), found \(found)"
      case .invalidValue(let field, let reason):
        return "invalid value for field '\(field)': \(reason)"
      case .duplicateField(let field): return "duplicate field '\(field)'"
      case .unknownType(let type, let nearest):
        let text = "unknown event type '\(JSONError.abbreviated(type))'"
        return nearest.map { text + "; did you mean '\($0)'?" } ?? text
      case .unknownField(let field, let nearest):
        let text = "unknown field '\(JSONError.abbreviated(field))'"
        return nearest.map { text + "; did you mean '\($0)'?" } ?? text
      case .rejected(let reason): return "event rejected: \(reason)"
      }
    }
  }

  /// The error for a field whose value is of the wrong kind, or the syntax error when the value
  /// is not valid JSON at all.
  ///
  /// A number field holding `ninety` or `NaN` gets the message that says why the text is not
  /// JSON (`invalid literal 'ninety'`), not "must be a number, found 'n'".
  ///
  /// ```swift
  /// throw RaspEventError.wrongType(
  ///   field: "payload.heading", expected: "a number", at: 43, in: scanner)
  /// ```
  ///
  /// - Parameters:
  ///   - field: The field's path, `payload.heading`.
  ///   - expected: What the field must hold, as a noun phrase.
  ///   - offset: The byte offset of the value in the line.
  ///   - scanner: A scanner over the line.
  /// - Returns: The error to throw.
  public static func wrongType(
    field: String, expected: String, at offset: Int, in scanner: JSONScanner
  ) -> RaspEventError {
    if let error = scanner.syntaxError(at: offset) { return RaspEventError(error) }
    return RaspEventError(
      offset: offset,
      reason: .wrongType(field: field, expected: expected, found: scanner.describeValue(at: offset))
    )
  }

  /// Wraps a JSON syntax error.
  ///
  /// ```swift
  /// let error = RaspEventError(JSONError(offset: 3, reason: .nulByte))
  /// ```
  ///
  /// - Parameter error: The syntax error.
  public init(_ error: JSONError) {
    self.init(offset: error.offset, reason: .syntax(error.reason))
  }
}
