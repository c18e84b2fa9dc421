import RaspReplay

/// Takes the event as rasp read it at one event number of a replay, then ends the replay:
/// how `rasp compare` shows the event at a divergence, read again only for a log that
/// diverges.
///
/// ```swift
/// let capture = EventCapture(seq: 4)
/// configuration.stateObserver = capture
/// // … replay …
/// capture.event   // {"payload":{…},"ts":…,"type":"cart.add"}
/// ```
final class EventCapture: ReplayStateObserver {
  /// The number of the event to take.
  let seq: Int
  /// The event, once the replay reached it.
  private(set) var event: [UInt8]?

  init(seq: Int) { self.seq = seq }

  func observe(_ event: ReplayAppliedEvent, eventAsRead: () -> [UInt8]) {
    if event.seq == seq { self.event = eventAsRead() }
  }

  var isFinished: Bool { event != nil }
}
