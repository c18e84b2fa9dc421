import Rasp
import RaspJSON

/// The app's lifecycle: its phase, when the phase last changed, how often it launched and how
/// many memory warnings it received.
///
/// A launch moves the app from any phase to ``LifecyclePhase/inactive`` and counts one launch;
/// a launch while the app runs is a relaunch after a crash. After the app terminated, every
/// other event is rejected until it launches again. Before the first launch, events are
/// accepted: a log often begins in the middle of a session (a ring buffer, a rotated file), and
/// its first `enterBackground` says that the app runs. Among the running phases every move is
/// accepted, whatever the order: logs often miss a step, such as the `resignActive` before
/// `enterBackground`. An event whose target phase is the current one changes nothing (a second
/// `enterBackground` in the background is harmless).
///
/// ``changedAt`` is the `ts` of the event that last changed the phase, exactly as the log wrote
/// it — a string or a number — or `nil` when that event had none.
///
/// ```swift
/// var app = LifecycleState()
/// try app.apply(event: .launch(at: "2026-11-22T09:30:00Z"))
/// try app.apply(event: .becomeActive(at: "2026-11-22T09:30:01Z"))
/// app.phase       // .active
/// app.changedAt   // "2026-11-22T09:30:01Z"
/// app.launches    // 1
/// ```
public struct LifecycleState: RaspState, Equatable, Sendable {
  /// The current phase.
  public var phase: LifecyclePhase
  /// The `ts` of the event that last changed the phase, as the log wrote it, or `nil`.
  public var changedAt: JSONValue?
  /// How many times the app launched, relaunches included.
  public var launches: Int
  /// How many memory warnings the app received.
  public var memoryWarnings: Int

  /// Creates a state, by default that of an app that never ran.
  ///
  /// ```swift
  /// let app = LifecycleState(phase: .background, launches: 1)
  /// ```
  ///
  /// - Parameters:
  ///   - phase: The phase.
  ///   - changedAt: When the phase last changed.
  ///   - launches: The number of launches.
  ///   - memoryWarnings: The number of memory warnings.
  public init(
    phase: LifecyclePhase = .notRunning, changedAt: JSONValue? = nil, launches: Int = 0,
    memoryWarnings: Int = 0
  ) {
    self.phase = phase
    self.changedAt = changedAt
    self.launches = launches
    self.memoryWarnings = memoryWarnings
  }

  /// Whether the app runs: its phase is neither ``LifecyclePhase/notRunning`` nor
  /// ``LifecyclePhase/terminated``.
  ///
  /// ```swift
  /// LifecycleState(phase: .background).isRunning   // true
  /// ```
  public var isRunning: Bool { phase != .notRunning && phase != .terminated }

  /// What can happen to the app; each phase change carries the event's `ts`, if it had one.
  ///
  /// ```swift
  /// let event = LifecycleState.Event.enterBackground(at: 1795336200)
  /// ```
  public enum Event: Sendable, Equatable {
    /// The app launched or relaunched (`lifecycle.launch`): inactive, one more launch.
    case launch(at: JSONValue?)
    /// The app became active (`lifecycle.becomeActive`).
    case becomeActive(at: JSONValue?)
    /// The app resigned being active (`lifecycle.resignActive`): inactive.
    case resignActive(at: JSONValue?)
    /// The app entered the background (`lifecycle.enterBackground`).
    case enterBackground(at: JSONValue?)
    /// The app came back to the foreground (`lifecycle.enterForeground`): inactive.
    case enterForeground(at: JSONValue?)
    /// The app terminated (`lifecycle.terminate`).
    case terminate(at: JSONValue?)
    /// The system warned the app about memory (`lifecycle.memoryWarning`); the phase stays.
    case memoryWarning

    /// The event's name in the log, `enterBackground` for `lifecycle.enterBackground`.
    ///
    /// ```swift
    /// LifecycleState.Event.memoryWarning.name   // "memoryWarning"
    /// ```
    public var name: String {
      switch self {
      case .launch: return "launch"
      case .becomeActive: return "becomeActive"
      case .resignActive: return "resignActive"
      case .enterBackground: return "enterBackground"
      case .enterForeground: return "enterForeground"
      case .terminate: return "terminate"
      case .memoryWarning: return "memoryWarning"
      }
    }

    /// The phase the event moves the app to and the event's time, or `nil` for a memory
    /// warning.
    var transition: (phase: LifecyclePhase, at: JSONValue?)? {
      switch self {
      case .launch(let at): return (.inactive, at)
      case .becomeActive(let at): return (.active, at)
      case .resignActive(let at): return (.inactive, at)
      case .enterBackground(let at): return (.background, at)
      case .enterForeground(let at): return (.inactive, at)
      case .terminate(let at): return (.terminated, at)
      case .memoryWarning: return nil
      }
    }
  }

  /// Applies a lifecycle event, or throws without changing anything.
  ///
  /// ```swift
  /// var app = LifecycleState(phase: .terminated)
  /// // throws: cannot memoryWarning: the app has terminated; …
  /// try app.apply(event: .memoryWarning)
  /// ```
  ///
  /// - Parameter event: The event.
  /// - Throws: ``LifecycleError/terminated(event:)`` for any event but a launch after the app
  ///   terminated; the state is then unchanged.
  public mutating func apply(event: Event) throws(LifecycleError) {
    if case .launch = event {
      launches += 1
    } else if phase == .terminated {
      throw .terminated(event: event.name)
    }
    guard let (target, at) = event.transition else {
      memoryWarnings += 1
      return
    }
    guard target != phase else { return }
    phase = target
    changedAt = at
  }

  /// `true`: the reducer checks an event before it changes anything.
  ///
  /// ```swift
  /// LifecycleState.throwsBeforeMutating   // true
  /// ```
  public static var throwsBeforeMutating: Bool { true }
}

/// The phases of an app, as UIKit's scene and application states name them.
///
/// ```swift
/// LifecyclePhase(rawValue: "background")   // .background
/// ```
public enum LifecyclePhase: String, Sendable, Equatable, CaseIterable {
  /// Not launched yet.
  case notRunning
  /// Running in the foreground without receiving events: just launched, or interrupted.
  case inactive
  /// Running in the foreground and receiving events.
  case active
  /// Running in the background.
  case background
  /// Terminated; only a launch can follow.
  case terminated
}

/// Why the lifecycle state rejected an event.
///
/// Its description is the message `rasp replay` prints after `event rejected:`.
///
/// ```swift
/// print(LifecycleError.terminated(event: "enterBackground"))
/// // cannot enterBackground: the app has terminated; only a launch can follow
/// ```
public enum LifecycleError: Error, Sendable, Equatable, CustomStringConvertible {
  /// An event other than a launch arrived after the app terminated.
  case terminated(event: String)

  /// The reason as a sentence fragment, without a trailing period.
  ///
  /// ```swift
  /// LifecycleError.terminated(event: "terminate").description
  /// // "cannot terminate: the app has terminated; only a launch can follow"
  /// ```
  public var description: String {
    switch self {
    case .terminated(let event):
      return "cannot \(event): the app has terminated; only a launch can follow"
    }
  }
}
