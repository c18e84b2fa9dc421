import RaspJSON
import RaspReplay

/// What `rasp compare` found for one log: its states the same under both versions, different
/// only as `--allow` says they may be, divergent at an event, or not comparable.
///
/// ```swift
/// switch verdict {
/// case .identical: print("identical")
/// case .allowed(let events): print("only allowed differences (\(events))")
/// case .divergent(let divergence): print(divergence.event)
/// case .failed(let reason): print(reason)
/// }
/// ```
enum LogVerdict {
  /// Every state the same, by meaning, under `--ignore` and `--precision`.
  case identical
  /// Some states differ, all only as `--allow` says they may: how many events' states.
  case allowed(events: Int)
  /// The first event after which the states differ otherwise, or only one version rejects.
  case divergent(Divergence)
  /// The log could not be compared to its end: it cannot be read, or both versions stop at
  /// the same bad line (the message says where).
  case failed(String)
  /// A request to stop (Ctrl-C) ended the comparison, with the signal's number.
  case interrupted(Int32)
}

/// The first unintended difference between two versions' replays of a log.
struct Divergence {
  /// The event's number among the events of the log, counting from 1: every event read,
  /// whether either version applied it.
  let event: Int
  /// The log, as the user named it.
  let file: String
  /// The event's line.
  let line: Int
  /// Where the event is in a DevTools export (`--log-format devtools`): the action's line
  /// and column in the file, and its JSON path; `nil` in a log of lines.
  var place: (JSONTextPosition, path: String)?
  /// The event's key (canonical JSON) with `--key-by`, or `nil`.
  let key: [UInt8]?
  /// The event as rasp read it, in rasp's own format, when a version applied it.
  var eventAsRead: [UInt8]?
  /// What each version did at the event.
  let old: Side
  let new: Side
  /// Each version's state after the event (its key's), when there is one to compare.
  let oldState: JSONValue?
  let newState: JSONValue?
  /// The differences that `--allow` does not allow, from the old state to the new.
  let differences: [JSONDifference]
  /// The differences it allows, which the report leaves out of the tree.
  let allowedDifferences: [JSONDifference]
  /// Each version's key, when the two differ (a map that reads the key elsewhere).
  let keys: (old: [UInt8], new: [UInt8])?

  /// What one version did with the event.
  enum Side {
    /// It applied it, as its event number `seq`.
    case applied(seq: Int)
    /// It did not apply it (unknown type, domain left out, dropped).
    case ignored
    /// It rejected the line.
    case rejected(ReplayDiagnostic)
    /// Its replay had ended before the event.
    case ended

    /// The event's number in this version's replay, when it applied it.
    var seq: Int? {
      if case .applied(let seq) = self { return seq }
      return nil
    }

    /// The rejection, when it rejected the line.
    var rejection: ReplayDiagnostic? {
      if case .rejected(let diagnostic) = self { return diagnostic }
      return nil
    }
  }
}
