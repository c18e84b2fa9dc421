/// Writes a realistic event log for the benchmark, the same bytes for the same seed, in which
/// every event is valid.
///
/// The mix is that of an app session seen by the `geo`, `rest` and `nav` domains: mostly
/// sensor readings (`geo.heading` from the compass, `geo.location` from the GPS), then REST
/// responses and link changes, then navigation. Every line has an RFC 3339 `ts` with
/// milliseconds, rising by 1–240 ms, and a `source`; lines are about 100 bytes long.
///
/// | Event           | Per mille | Notes                                                       |
/// |-----------------|----------:|-------------------------------------------------------------|
/// | `geo.heading`   |       300 | a random walk of ±6°, in tenths of a degree                 |
/// | `geo.location`  |       200 | a random walk near Berlin; `accuracy` absent or null at times |
/// | `rest.response` |        50 | `self` and a few other relations, some as HAL `{"href":…}`  |
/// | `rest.link`     |        90 | one of eight relations                                      |
/// | `rest.unlink`   |        60 | a relation that is present, when there is one              |
/// | `nav.push`      |       110 | a pop instead when the stack holds eight screens            |
/// | `nav.pop`       |        95 | a push instead when the stack is empty                      |
/// | `nav.replace`   |        20 | a push instead when the stack is empty                      |
/// | `nav.popToRoot` |        10 |                                                             |
/// | `nav.selectTab` |         5 | one of four tabs, sometimes the one already selected        |
/// | `nav.present` / `nav.dismiss` | 60 | alternately: present if no modal is shown, else dismiss |
///
/// The generator tracks the navigation stack and the modal screen, so that no event is rejected:
/// a pop never meets an empty stack, and presentations and dismissals alternate.
///
/// ```swift
/// var generator = BenchLogGenerator(seed: 7)
/// var bytes: [UInt8] = []
/// generator.appendEvent(to: &bytes)
/// // {"ts":"2026-11-22T09:30:00.143Z","source":"compass","type":"geo.heading",
/// //   "payload":{"heading":178.3}}
/// ```
struct BenchLogGenerator {
  /// The kinds of event the generator writes, with how many of every thousand are of each.
  enum Kind: CaseIterable {
    case heading, location, response, link, unlink, push, pop, replace, popToRoot, selectTab, modal

    /// How many events of every thousand are of this kind.
    var perMille: Int {
      switch self {
      case .heading: 300
      case .location: 200
      case .response: 50
      case .link: 90
      case .unlink: 60
      case .push: 110
      case .pop: 95
      case .replace: 20
      case .popToRoot: 10
      case .selectTab: 5
      case .modal: 60
      }
    }
  }

  /// The deepest the navigation stack gets.
  static let maximumDepth = 8
  /// 2026-11-22T09:30:00Z, when every generated log starts.
  static let startMilliseconds: Int64 = 1_795_339_800_000

  private var random: BenchRandom
  private var clock: BenchClock
  /// The compass heading in tenths of a degree, 0..<3600.
  private var heading: Int
  /// The position in millionths of a degree.
  private var latitude = 52_520_008
  private var longitude = 13_404_954
  /// The navigation state, as indices into ``screens``, ``modals`` and ``tabs``.
  private var stack: [Int] = []
  private var modal: Int?
  /// The relations currently linked, one bit per entry of ``relations``.
  private var linked: UInt16 = 0
  /// The order the REST links point to, and the page of the order list.
  private var order = 1000
  private var page = 1
  /// The kind for each of the thousand draws.
  /// The kinds of event in their mix, a thousand: one drawn at random for each event.
  private static let kinds: [Kind] = Kind.allCases.flatMap {
    Array(repeating: $0, count: $0.perMille)
  }

  /// Creates a generator whose log is fixed by `seed`.
  ///
  /// - Parameter seed: Any number; the same seed writes the same log.
  init(seed: UInt64) {
    random = BenchRandom(seed: seed)
    clock = BenchClock(milliseconds: Self.startMilliseconds)
    heading = random.below(3600)
    precondition(Self.kinds.count == 1000, "the mix must add up to a thousand")
  }

  /// Writes `count` events, one per line, and returns the bytes.
  ///
  /// - Parameter count: How many events.
  /// - Returns: The log.
  mutating func makeLog(events count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count * 110)
    for _ in 0..<count { appendEvent(to: &bytes) }
    return bytes
  }

  /// Appends the next event and its line end to `bytes`.
  ///
  /// - Parameter bytes: Where to write.
  mutating func appendEvent(to bytes: inout [UInt8]) {
    clock.advance(by: Int64(random.within(1...240)))
    bytes.append(contentsOf: #"{"ts":""#.utf8)
    clock.appendRFC3339(to: &bytes)
    switch Self.kinds[random.below(Self.kinds.count)] {
    case .heading: appendHeading(to: &bytes)
    case .location: appendLocation(to: &bytes)
    case .response: appendResponse(to: &bytes)
    case .link: appendLink(to: &bytes)
    case .unlink: appendUnlink(to: &bytes)
    case .push: stack.count < Self.maximumDepth ? appendPush(to: &bytes) : appendPop(to: &bytes)
    case .pop: stack.isEmpty ? appendPush(to: &bytes) : appendPop(to: &bytes)
    case .replace: stack.isEmpty ? appendPush(to: &bytes) : appendReplace(to: &bytes)
    case .popToRoot: appendPopToRoot(to: &bytes)
    case .selectTab: appendSelectTab(to: &bytes)
    case .modal: modal == nil ? appendPresent(to: &bytes) : appendDismiss(to: &bytes)
    }
    bytes.append(0x0A)
  }

  // MARK: - geo

  private mutating func appendHeading(to bytes: inout [UInt8]) {
    heading = (heading + random.within(-60...60) + 3600) % 3600
    bytes.append(
      contentsOf: #"","source":"compass","type":"geo.heading","payload":{"heading":"#.utf8)
    BenchNumbers.appendDecimal(heading, fractionDigits: 1, to: &bytes)
    bytes.append(contentsOf: "}}".utf8)
  }

  private mutating func appendLocation(to bytes: inout [UInt8]) {
    latitude += random.within(-40...40)
    longitude += random.within(-60...60)
    bytes.append(contentsOf: #"","source":"gps","type":"geo.location","payload":{"latitude":"#.utf8)
    BenchNumbers.appendDecimal(latitude, fractionDigits: 6, to: &bytes)
    bytes.append(contentsOf: #","longitude":"#.utf8)
    BenchNumbers.appendDecimal(longitude, fractionDigits: 6, to: &bytes)
    let draw = random.below(20)
    if draw == 0 {
      bytes.append(contentsOf: #","accuracy":null"#.utf8)
    } else if draw > 2 {
      bytes.append(contentsOf: #","accuracy":"#.utf8)
      BenchNumbers.appendDecimal(random.within(3...40), fractionDigits: 0, to: &bytes)
    }
    bytes.append(contentsOf: "}}".utf8)
  }

  // MARK: - rest

  /// The link relations, in the order of their bits in `linked`.
  static let relations: [String] = [
    "self", "next", "prev", "edit", "payment", "cancel", "items", "customer",
  ]

  private mutating func appendResponse(to bytes: inout [UInt8]) {
    order = random.within(1000...9999)
    page = random.within(1...20)
    linked = 1
    for bit in 1..<Self.relations.count where random.below(4) == 0 { linked |= 1 << bit }
    bytes.append(
      contentsOf: #"","source":"api","type":"rest.response","payload":{"status":200,"links":{"#.utf8
    )
    var first = true
    for bit in 0..<Self.relations.count where linked & (1 << bit) != 0 {
      if !first { bytes.append(0x2C) }
      first = false
      bytes.append(0x22)
      bytes.append(contentsOf: Self.relations[bit].utf8)
      bytes.append(contentsOf: #"":"#.utf8)
      if random.below(10) < 3 {
        bytes.append(contentsOf: #"{"href":""#.utf8)
        appendHref(bit, to: &bytes)
        bytes.append(contentsOf: #""}"#.utf8)
      } else {
        bytes.append(0x22)
        appendHref(bit, to: &bytes)
        bytes.append(0x22)
      }
    }
    bytes.append(contentsOf: "}}}".utf8)
  }

  private mutating func appendLink(to bytes: inout [UInt8]) {
    let bit = random.below(Self.relations.count)
    linked |= 1 << bit
    bytes.append(contentsOf: #"","source":"api","type":"rest.link","payload":{"rel":""#.utf8)
    bytes.append(contentsOf: Self.relations[bit].utf8)
    bytes.append(contentsOf: #"","href":""#.utf8)
    appendHref(bit, to: &bytes)
    bytes.append(contentsOf: #""}}"#.utf8)
  }

  private mutating func appendUnlink(to bytes: inout [UInt8]) {
    var bit = random.below(Self.relations.count)
    if linked != 0 {
      while linked & (1 << bit) == 0 { bit = (bit + 1) % Self.relations.count }
    }
    linked &= ~(1 << bit)
    bytes.append(contentsOf: #"","source":"api","type":"rest.unlink","payload":{"rel":""#.utf8)
    bytes.append(contentsOf: Self.relations[bit].utf8)
    bytes.append(contentsOf: #""}}"#.utf8)
  }

  /// Appends the href of the relation with index `bit`, for the current order and page.
  private func appendHref(_ bit: Int, to bytes: inout [UInt8]) {
    switch Self.relations[bit] {
    case "next", "prev":
      bytes.append(contentsOf: "/orders?page=".utf8)
      BenchNumbers.appendDecimal(
        bit == 1 ? page + 1 : max(1, page - 1), fractionDigits: 0, to: &bytes)
    case "customer":
      bytes.append(contentsOf: "/customers/".utf8)
      BenchNumbers.appendDecimal(order % 997 + 1, fractionDigits: 0, to: &bytes)
    case let relation:
      bytes.append(contentsOf: "/orders/".utf8)
      BenchNumbers.appendDecimal(order, fractionDigits: 0, to: &bytes)
      if relation != "self" {
        bytes.append(0x2F)
        bytes.append(contentsOf: relation.utf8)
      }
    }
  }

  // MARK: - nav

  /// The screens pushed on the navigation stack.
  static let screens: [String] = [
    "home", "catalog", "product", "reviews", "cart", "checkout", "orders", "orderDetail",
    "profile", "settings", "search", "help",
  ]
  /// The screens presented modally.
  static let modals: [String] = ["login", "share", "filters", "camera", "permissions"]
  /// The tabs.
  static let tabs: [String] = ["home", "shop", "orders", "profile"]

  private mutating func appendPush(to bytes: inout [UInt8]) {
    let screen = random.below(Self.screens.count)
    stack.append(screen)
    appendNav("push", field: "screen", value: Self.screens[screen], to: &bytes)
  }

  private mutating func appendPop(to bytes: inout [UInt8]) {
    stack.removeLast()
    appendNav("pop", to: &bytes)
  }

  private mutating func appendReplace(to bytes: inout [UInt8]) {
    let screen = random.below(Self.screens.count)
    stack[stack.count - 1] = screen
    appendNav("replace", field: "screen", value: Self.screens[screen], to: &bytes)
  }

  private mutating func appendPopToRoot(to bytes: inout [UInt8]) {
    if stack.count > 1 { stack.removeSubrange(1...) }
    appendNav("popToRoot", to: &bytes)
  }

  private mutating func appendSelectTab(to bytes: inout [UInt8]) {
    appendNav(
      "selectTab", field: "tab", value: Self.tabs[random.below(Self.tabs.count)], to: &bytes)
  }

  private mutating func appendPresent(to bytes: inout [UInt8]) {
    let screen = random.below(Self.modals.count)
    modal = screen
    appendNav("present", field: "screen", value: Self.modals[screen], to: &bytes)
  }

  private mutating func appendDismiss(to bytes: inout [UInt8]) {
    modal = nil
    appendNav("dismiss", to: &bytes)
  }

  /// Appends the rest of a `nav` line: its type and, when `field` is given, its one field.
  private func appendNav(
    _ event: String, field: String? = nil, value: String = "", to bytes: inout [UInt8]
  ) {
    bytes.append(contentsOf: #"","source":"ui","type":"nav."#.utf8)
    bytes.append(contentsOf: event.utf8)
    guard let field else {
      bytes.append(contentsOf: #""}"#.utf8)
      return
    }
    bytes.append(contentsOf: #"","payload":{""#.utf8)
    bytes.append(contentsOf: field.utf8)
    bytes.append(contentsOf: #"":""#.utf8)
    bytes.append(contentsOf: value.utf8)
    bytes.append(contentsOf: #""}}"#.utf8)
  }
}
