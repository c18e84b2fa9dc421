import Testing
import RaspDomains

@Suite struct NavStateTests {
  @Test func pushAppendsAndPopRemovesTheTop() throws {
    var nav = NavState()
    try nav.apply(event: .push("home"))
    try nav.apply(event: .push("catalog"))
    try nav.apply(event: .push("catalog"))
    #expect(nav.stack == ["home", "catalog", "catalog"])
    #expect(nav.top == "catalog")
    try nav.apply(event: .pop)
    #expect(nav.stack == ["home", "catalog"])
  }

  @Test func popOnAnEmptyStackThrowsAndChangesNothing() {
    var nav = NavState(tab: "shop", modal: "login")
    #expect(throws: NavError.emptyStack(operation: "pop")) { try nav.apply(event: .pop) }
    #expect(nav == NavState(tab: "shop", modal: "login"))
    #expect(
      "\(NavError.emptyStack(operation: "pop"))" == "cannot pop: the navigation stack is empty")
  }

  @Test func popToRootKeepsTheFirstScreenAndLeavesAnEmptyStackEmpty() throws {
    var nav = NavState(stack: ["home", "a", "b"])
    try nav.apply(event: .popToRoot)
    #expect(nav.stack == ["home"])
    try nav.apply(event: .popToRoot)
    #expect(nav.stack == ["home"])
    var empty = NavState()
    try empty.apply(event: .popToRoot)
    #expect(empty == NavState())
  }

  @Test func replaceSwapsTheTopOrThrowsOnAnEmptyStack() throws {
    var nav = NavState(stack: ["home", "cart"])
    try nav.apply(event: .replace("checkout"))
    #expect(nav.stack == ["home", "checkout"])
    var empty = NavState()
    #expect(throws: NavError.emptyStack(operation: "replace")) {
      try empty.apply(event: .replace("x"))
    }
    #expect(empty == NavState())
    #expect(
      "\(NavError.emptyStack(operation: "replace"))"
        == "cannot replace: the navigation stack is empty")
  }

  @Test func selectTabLeavesTheStackAndModal() throws {
    var nav = NavState(stack: ["home", "a"], modal: "login")
    try nav.apply(event: .selectTab("profile"))
    try nav.apply(event: .selectTab("profile"))
    #expect(nav == NavState(stack: ["home", "a"], tab: "profile", modal: "login"))
  }

  @Test func presentAndDismissAModal() throws {
    var nav = NavState(stack: ["home"])
    try nav.apply(event: .present("login"))
    #expect(nav.modal == "login")
    try nav.apply(event: .push("settings"))  // acts on the stack beneath the modal
    #expect(nav.stack == ["home", "settings"])
    try nav.apply(event: .dismiss)
    #expect(nav.modal == nil)
    #expect(nav.stack == ["home", "settings"])
  }

  @Test func presentOverAModalThrows() throws {
    var nav = NavState(modal: "login")
    let error = NavError.alreadyPresented(screen: "signup", presented: "login")
    #expect(throws: error) { try nav.apply(event: .present("signup")) }
    #expect(throws: NavError.alreadyPresented(screen: "login", presented: "login")) {
      try nav.apply(event: .present("login"))
    }
    #expect(nav == NavState(modal: "login"))
    #expect("\(error)" == "cannot present 'signup': 'login' is already presented")
  }

  @Test func dismissWithoutAModalThrows() {
    var nav = NavState(stack: ["home"])
    #expect(throws: NavError.nothingPresented) { try nav.apply(event: .dismiss) }
    #expect(nav == NavState(stack: ["home"]))
    #expect("\(NavError.nothingPresented)" == "cannot dismiss: no modal is presented")
  }

  @Test func validatesBeforeMutating() {
    #expect(NavState.throwsBeforeMutating)
  }
}
