import Rasp

/// Where the user is in the app's UI: the navigation stack, the selected tab and the modal
/// screen presented over them.
///
/// The stack holds screen names from the root to the top, as a navigation controller does; the
/// tab and the modal are independent of it. Pushing and popping always act on the stack, also
/// while a modal is presented (the state does not model a stack inside the modal), and selecting
/// a tab leaves the stack as it is. Operations that make no sense — popping an empty stack,
/// presenting over a modal, dismissing nothing — are rejected with a ``NavError`` and leave the
/// state unchanged.
///
/// ```swift
/// var nav = NavState()
/// try nav.apply(event: .selectTab("shop"))
/// try nav.apply(event: .push("catalog"))
/// try nav.apply(event: .push("product"))
/// try nav.apply(event: .pop)
/// nav.stack   // ["catalog"]
/// nav.top     // "catalog"
/// try nav.apply(event: .pop)
/// try nav.apply(event: .pop)   // throws NavError.emptyStack(operation: "pop")
/// ```
public struct NavState: RaspState, Equatable, Sendable {
  /// The screens of the navigation stack, from the root (first) to the top (last).
  public var stack: [String]
  /// The selected tab, or `nil` before the first selection.
  public var tab: String?
  /// The screen presented modally over the stack, or `nil`.
  public var modal: String?

  /// Creates a state, by default with an empty stack, no tab and no modal.
  ///
  /// ```swift
  /// let nav = NavState(stack: ["home", "settings"], tab: "profile")
  /// ```
  ///
  /// - Parameters:
  ///   - stack: The screens from the root to the top.
  ///   - tab: The selected tab.
  ///   - modal: The modal screen.
  public init(stack: [String] = [], tab: String? = nil, modal: String? = nil) {
    self.stack = stack
    self.tab = tab
    self.modal = modal
  }

  /// The screen at the top of the stack, or `nil` when the stack is empty.
  ///
  /// ```swift
  /// NavState(stack: ["home", "settings"]).top   // "settings"
  /// ```
  public var top: String? { stack.last }

  /// What can happen to the navigation state.
  ///
  /// ```swift
  /// let event = NavState.Event.push("settings")
  /// ```
  public enum Event: Sendable, Equatable {
    /// A screen was pushed onto the stack (`nav.push`); the same screen may appear twice.
    case push(String)
    /// The top screen was popped (`nav.pop`); rejected on an empty stack.
    case pop
    /// Every screen but the root was popped (`nav.popToRoot`); an empty stack stays empty.
    case popToRoot
    /// The top screen was replaced by another (`nav.replace`); rejected on an empty stack.
    case replace(String)
    /// A tab was selected (`nav.selectTab`); the stack and the modal are unchanged.
    case selectTab(String)
    /// A screen was presented modally (`nav.present`); rejected while another is presented.
    case present(String)
    /// The modal screen was dismissed (`nav.dismiss`); rejected when none is presented.
    case dismiss
  }

  /// Applies a navigation event, or throws without changing anything.
  ///
  /// ```swift
  /// try nav.apply(event: .present("login"))
  /// try nav.apply(event: .present("signup"))   // throws: 'login' is already presented
  /// ```
  ///
  /// - Parameter event: The event.
  /// - Throws: ``NavError`` for a pop or replace on an empty stack, a presentation over a modal,
  ///   or a dismissal without one; the state is then unchanged.
  public mutating func apply(event: Event) throws(NavError) {
    switch event {
    case .push(let screen):
      stack.append(screen)
    case .pop:
      guard !stack.isEmpty else { throw .emptyStack(operation: "pop") }
      stack.removeLast()
    case .popToRoot:
      if stack.count > 1 { stack.removeSubrange(1...) }
    case .replace(let screen):
      guard !stack.isEmpty else { throw .emptyStack(operation: "replace") }
      stack[stack.count - 1] = screen
    case .selectTab(let name):
      tab = name
    case .present(let screen):
      if let presented = modal { throw .alreadyPresented(screen: screen, presented: presented) }
      modal = screen
    case .dismiss:
      guard modal != nil else { throw .nothingPresented }
      modal = nil
    }
  }

  /// `true`: the reducer checks an event before it changes anything.
  ///
  /// ```swift
  /// NavState.throwsBeforeMutating   // true
  /// ```
  public static var throwsBeforeMutating: Bool { true }
}

/// Why the navigation state rejected an event.
///
/// Its description is the message `rasp replay` prints after `event rejected:`.
///
/// ```swift
/// print(NavError.emptyStack(operation: "pop"))
/// // cannot pop: the navigation stack is empty
/// ```
public enum NavError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `pop` or `replace` found no screen on the stack.
  case emptyStack(operation: String)
  /// `present` found another screen already presented.
  case alreadyPresented(screen: String, presented: String)
  /// `dismiss` found no modal screen.
  case nothingPresented

  /// The reason as a sentence fragment, without a trailing period.
  ///
  /// ```swift
  /// NavError.nothingPresented.description   // "cannot dismiss: no modal is presented"
  /// ```
  public var description: String {
    switch self {
    case .emptyStack(let operation):
      return "cannot \(operation): the navigation stack is empty"
    case .alreadyPresented(let screen, let presented):
      return "cannot present '\(screen)': '\(presented)' is already presented"
    case .nothingPresented:
      return "cannot dismiss: no modal is presented"
    }
  }
}
