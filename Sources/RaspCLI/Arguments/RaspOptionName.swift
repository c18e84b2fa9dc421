/// The long name of every option of every command, by which commands declare and read them.
///
/// Options are read by these names, not by strings, so that a misspelt option does not
/// compile: `parsed.value(.selct)` is an error, where `parsed.value("selct")` would quietly read
/// nothing. The raw value is the name as typed after `--`. Options of the same name in several
/// commands (`--json`, `--spec`) mean the same thing in each.
///
/// ```swift
/// let spec = RaspOptionSpec(name: .select, valueName: "path", help: "Print only <path>.")
/// let path = parsed.value(.select)   // "geo.heading" for --select geo.heading
/// ```
///
/// To add an option: add its name here, in alphabetical order, declare its ``RaspOptionSpec``
/// in the command's spec, and read it from ``RaspParsedArguments``.
enum RaspOptionName: String, CaseIterable, Sendable {
  case allow
  case appliedLines = "applied-lines"
  case assert
  case assertFile = "assert-file"
  case assertFinal = "assert-final"
  case at
  case budget
  case changesOnly = "changes-only"
  case check
  case checkpointEvery = "checkpoint-every"
  case cmd
  case color
  case concat
  case context
  case domain
  case drop
  case emit
  case every
  case failsWith = "fails-with"
  case `final`
  case first
  case follow
  case format
  case fromStart = "from-start"
  case golden
  case hide
  case ignore
  case jobs
  case json
  case keyBy = "key-by"
  case keyFile = "key-file"
  case logFormat = "log-format"
  case man
  case map
  case maxDiffs = "max-diffs"
  case maxFailures = "max-failures"
  case names
  case new
  case newMap = "new-map"
  case newSpec = "new-spec"
  case noProgress = "no-progress"
  case old
  case oldMap = "old-map"
  case oldSpec = "old-spec"
  case onError = "on-error"
  case output
  case payloads
  case policy
  case precision
  case pretty
  case progress
  case rawOutput = "raw-output"
  case record
  case resume
  case saveState = "save-state"
  case select
  case since
  case spec
  case stats
  case strict
  case time
  case until
  case update
  case verify
  case version
  case withEvent = "with-event"
  case withState = "with-state"
}

extension RaspOptionName: CustomStringConvertible {
  /// The name as typed after `--`, so that a name in a message reads as the user types it:
  /// `changes-only`, not `changesOnly`.
  var description: String { rawValue }
}
