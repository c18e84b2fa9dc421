import Rasp

/// A tally of integer events that refuses to go below zero: an event that would take it there
/// throws before it changes anything. Equal counts are equal states, so `.whenChanged` can
/// skip snapshots.
struct NonNegativeTally: RaspState, Sendable, Equatable {
  struct BelowZero: Error {}
  var count = 0

  mutating func apply(event: Int) throws {
    guard count + event >= 0 else { throw BelowZero() }
    count += event
  }

  static var throwsBeforeMutating: Bool { true }
}
