import Rasp
import RaspDomains
import RaspJSON

/// A small domain for the recorder's tests: a tally that adds numbers, keeps the last note,
/// and refuses to go below zero.
struct TallyState: RaspState, Equatable, Sendable {
  enum Event: Sendable, Equatable {
    case add(Int)
    case note(String)
    case reset
  }

  struct BelowZero: Error {}

  var count = 0
  var note: String?

  mutating func apply(event: Event) throws {
    switch event {
    case .add(let amount):
      guard count + amount >= 0 else { throw BelowZero() }
      count += amount
    case .note(let text): note = text
    case .reset: count = 0
    }
  }

  static var throwsBeforeMutating: Bool { true }
}

struct TallyDomain: RaspRecordableDomain {
  var name: String { "tally" }
  var summary: String { "A tally." }
  var events: [RaspEventSchema] {
    [
      RaspEventSchema(name: "add", summary: "Adds.", fields: []),
      RaspEventSchema(name: "note", summary: "Notes.", fields: []),
      RaspEventSchema(name: "reset", summary: "Resets.", fields: []),
    ]
  }
  var initialState: TallyState { TallyState() }

  func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> TallyState.Event {
    var amount: Int64?
    var text: String?
    while let field = try payload.nextField() {
      switch field {
      case "by": amount = try payload.integer()
      case "text": text = try payload.string()
      default: try payload.skip()
      }
    }
    switch name {
    case "add":
      guard let amount else { throw payload.missing("by") }
      return .add(Int(amount))
    case "note":
      guard let text else { throw payload.missing("text") }
      return .note(text)
    default:
      return .reset
    }
  }

  func encode(_ state: TallyState, into writer: inout JSONWriter) {
    writer.writeRaw(#"{"count":"#)
    writer.writeInteger(Int64(state.count))
    writer.writeRaw(#","note":"#)
    if let note = state.note { writer.writeString(note) } else { writer.writeNull() }
    writer.writeRaw("}")
  }

  func encodeEvent(_ event: TallyState.Event, into record: inout RaspEventRecord) {
    switch event {
    case .add(let amount):
      record.name = "add"
      record.payload.writeRaw(#"{"by":"#)
      record.payload.writeInteger(Int64(amount))
      record.payload.writeRaw("}")
    case .note(let text):
      record.name = "note"
      record.payload.writeRaw(#"{"text":"#)
      record.payload.writeString(text)
      record.payload.writeRaw("}")
    case .reset:
      record.name = "reset"
    }
  }
}
