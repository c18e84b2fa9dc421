import Foundation
import RaspTestSupport

/// Debian's `chromium`, headless: loads a report, lets its script run, and returns the DOM it
/// left, and the URLs the page asked the network for.
///
/// The browser tests run when chromium is on the `PATH`. `.ci/run` installs it and sets
/// `RASP_BROWSER_TESTS=require`, under which a missing browser fails the tests instead of
/// skipping them.
enum HeadlessBrowser {
  /// The browser's path, from `RASP_CHROMIUM`, or `chromium` or `chromium-browser` on the PATH.
  static let path: String? = {
    if let chosen = ProcessInfo.processInfo.environment["RASP_CHROMIUM"], !chosen.isEmpty {
      return chosen
    }
    return ExternalTool.path("chromium") ?? ExternalTool.path("chromium-browser")
  }()

  /// Whether the browser tests must run: a missing browser is then a failure.
  static var isRequired: Bool {
    ProcessInfo.processInfo.environment["RASP_BROWSER_TESTS"] == "require"
  }

  /// Whether to run the browser tests: when there is a browser, or when one is required (to
  /// fail for want of it).
  static var shouldRun: Bool { path != nil || isRequired }

  /// Hosts the browser itself calls (updates, accounts, time), not the page.
  static let browserHosts = ["google.com", "googleapis.com", "gvt1.com", "gstatic.com"]

  /// The flags of every run: no sandbox (tests may run as root), no background requests, and
  /// no name resolves, so that nothing could leave the machine anyway.
  static let flags = [
    "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--no-first-run", "--disable-extensions",
    "--disable-features=Translate,OptimizationHints,MediaRouter,SpellCheck",
    "--host-resolver-rules=MAP * ~NOTFOUND",
  ]

  /// What a page left: its DOM after the script ran, and the URLs it requested.
  struct Page {
    let dom: String
    let requestedURLs: [String]

    /// The text of the element with `id`, its entities decoded, or `nil` when it has none.
    func text(ofID id: String) -> String? {
      guard let start = dom.range(of: "id=\"\(id)\"") else { return nil }
      guard let open = dom[start.upperBound...].firstIndex(of: ">") else { return nil }
      let rest = dom[dom.index(after: open)...]
      guard let close = rest.range(of: "</") else { return nil }
      return HeadlessBrowser.decodeEntities(String(rest[..<close.lowerBound]))
    }

    /// Whether the element with `id` has the `hidden` attribute.
    func isHidden(_ id: String) -> Bool {
      guard let start = dom.range(of: "id=\"\(id)\"") else { return true }
      let tagStart = dom[..<start.lowerBound].lastIndex(of: "<") ?? start.lowerBound
      let tagEnd = dom[start.upperBound...].firstIndex(of: ">") ?? dom.endIndex
      return dom[tagStart..<tagEnd].contains(" hidden")
    }

    /// How many times `text` occurs in the DOM.
    func count(of text: String) -> Int {
      dom.components(separatedBy: text).count - 1
    }
  }

  /// Loads `file` at `fragment` (such as `event=5`) and returns what the page left.
  static func load(_ file: String, fragment: String = "") async throws -> Page {
    guard let path else { throw BrowserError.missing }
    let directory = try TemporaryDirectory()
    let netLog = directory.file("net.json")
    let url = "file://" + file + (fragment.isEmpty ? "" : "#" + fragment)
    let result = try await ExternalTool.run(
      path,
      flags + [
        "--virtual-time-budget=10000", "--log-net-log=" + netLog,
        "--user-data-dir=" + directory.file("profile"), "--dump-dom", url,
      ])
    guard result.status == 0 else {
      throw BrowserError.failed(status: result.status, message: result.standardError)
    }
    return Page(dom: result.text, requestedURLs: try requests(inNetLog: netLog))
  }

  /// Takes a screenshot of `file` at `fragment` into `png`.
  static func screenshot(
    _ file: String, fragment: String = "", to png: String, width: Int = 1280, height: Int = 2000,
    dark: Bool = false
  ) async throws {
    guard let path else { throw BrowserError.missing }
    let directory = try TemporaryDirectory()
    let url = "file://" + file + (fragment.isEmpty ? "" : "#" + fragment)
    let result = try await ExternalTool.run(
      path,
      flags + (dark ? ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] : []) + [
        "--virtual-time-budget=10000", "--window-size=\(width),\(height)",
        "--user-data-dir=" + directory.file("profile"), "--screenshot=" + png, url,
      ])
    guard result.status == 0 else {
      throw BrowserError.failed(status: result.status, message: result.standardError)
    }
  }

  /// The URLs of the requests in a net log, but the browser's own.
  static func requests(inNetLog path: String) throws -> [String] {
    guard let data = FileManager.default.contents(atPath: path),
      let log = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let events = log["events"] as? [[String: Any]]
    else { throw BrowserError.badNetLog(path) }
    var urls = Set<String>()
    for event in events {
      guard let parameters = event["params"] as? [String: Any],
        let url = parameters["url"] as? String
      else { continue }
      let host = URL(string: url)?.host ?? ""
      if browserHosts.contains(where: { host == $0 || host.hasSuffix("." + $0) }) { continue }
      urls.insert(url)
    }
    return urls.sorted()
  }

  static func decodeEntities(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(
        of: "&nbsp;", with: "\u{a0}"
      ).replacingOccurrences(of: "&amp;", with: "&")
  }

  enum BrowserError: Error, CustomStringConvertible {
    case missing
    case failed(status: Int32, message: String)
    case badNetLog(String)

    var description: String {
      switch self {
      case .missing:
        return "chromium is not installed, and RASP_BROWSER_TESTS=require: run 'make browser'"
      case .failed(let status, let message):
        return "chromium exited with \(status): \(message.suffix(2000))"
      case .badNetLog(let path): return "chromium's net log \(path) does not read as JSON"
      }
    }
  }
}
