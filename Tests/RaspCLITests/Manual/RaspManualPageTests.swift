import Foundation
import Testing

@testable import RaspCLI

/// The manual page `rasp help --man` prints: rendered by the machine's own roff tools without
/// a warning, and holding every section, subcommand and option.
///
/// groff and man come with Debian's base image; mandoc, a stricter checker, is a package that
/// `.ci/run` installs. A tool the machine lacks skips its test, and the report says why.
@Suite struct RaspManualPageTests {
  let page: TemporaryDirectory
  let path: String

  init() throws {
    page = try TemporaryDirectory()
    let run = CommandRun.run(["help", "--man"], variables: ["SOURCE_DATE_EPOCH": "1777593600"])
    #expect(run.status == 0)
    try page.write("rasp.1", run.standardOutput)
    path = page.file("rasp.1")
  }

  /// The page as text, laid out by groff for 80 columns in plain ASCII: no bold, no
  /// underlining, `\-` as `-`.
  private func rendered() async throws -> String {
    let result = try await ExternalTool.run("groff", ["-man", "-Tascii", "-P-cbou", "-ww", path])
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty, "groff: \(result.standardError)")
    return result.text
  }

  @Test(.enabled(if: ExternalTool.exists("groff"), "groff is not installed: apt-get install groff"))
  func groffRendersThePageWithoutAWarning() async throws {
    let result = try await ExternalTool.run("groff", ["-man", "-Tutf8", "-ww", "-z", path])
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty, "groff: \(result.standardError)")
  }

  @Test(
    .enabled(if: ExternalTool.exists("mandoc"), "mandoc is not installed: apt-get install mandoc"))
  func mandocFindsNoMistakeInThePage() async throws {
    let result = try await ExternalTool.run("mandoc", ["-T", "lint", "-W", "warning", path])
    #expect(result.status == 0, "mandoc: \(result.text)\(result.standardError)")
    #expect(result.text.isEmpty && result.standardError.isEmpty)
  }

  @Test(.enabled(if: ExternalTool.exists("man"), "man is not installed: apt-get install man-db"))
  func manShowsThePage() async throws {
    let result = try await ExternalTool.run(
      "man", ["-l", path], variables: ["MANPAGER": "cat", "MANWIDTH": "80", "LANG": "C.UTF-8"])
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty, "man: \(result.standardError)")
    let lines = result.text.split(separator: "\n")
    #expect(lines.first?.hasPrefix("RASP(1)") == true)
    #expect(lines.last?.contains("2026-05-01") == true)
  }

  @Test(.enabled(if: ExternalTool.exists("groff"), "groff is not installed: apt-get install groff"))
  func thePageHasItsSectionsInOrder() async throws {
    let headings = try await rendered().split(separator: "\n").filter {
      $0.first?.isUppercase == true && !$0.hasPrefix("RASP(1)")
    }
    #expect(
      headings == [
        "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT",
        "SEE ALSO",
      ])
  }

  /// Each subcommand's part of COMMANDS names its usage, each of its arguments and options,
  /// and each of its exit statuses: the page cannot leave out what `--help` shows.
  @Test(.enabled(if: ExternalTool.exists("groff"), "groff is not installed: apt-get install groff"))
  func everyOptionOfEveryCommandAppearsInItsPart() async throws {
    let text = try await rendered()
    // Subsection headings are indented by three spaces: "   rasp replay".
    var parts: [String: String] = [:]
    var current: String?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("   rasp "), !line.hasPrefix("    ") {
        current = line.trimmingCharacters(in: .whitespaces)
      } else if line.first?.isUppercase == true {
        current = nil
      } else if let name = current {
        parts[name, default: ""] += line + "\n"
      }
    }
    #expect(Set(parts.keys) == Set(RaspCommandLine.spec.subcommands.map { "rasp \($0.name)" }))
    for spec in RaspCommandLine.commandSpecs {
      let part = try #require(parts[spec.name], "no part for \(spec.name)")
      for option in spec.options {
        var tag = (option.short.map { "-\($0), " } ?? "") + "--" + option.name.rawValue
        if let valueName = option.valueName { tag += " " + valueName }
        #expect(listsEntry(tag, in: part), "\(spec.name): \(tag)")
      }
      #expect(listsEntry("-h, --help", in: part), "\(spec.name): --help")
      for argument in spec.arguments {
        #expect(part.contains("\n       \(argument.name)"), "\(spec.name): <\(argument.name)>")
      }
      for (status, _) in spec.exitStatuses {
        #expect(listsEntry(status, in: part), "\(spec.name): status \(status)")
      }
    }
  }

  @Test(.enabled(if: ExternalTool.exists("groff"), "groff is not installed: apt-get install groff"))
  func theEnvironmentAndExitStatusesOfRaspAreListed() async throws {
    let text = try await rendered()
    for variable in ["NO_COLOR", "CLICOLOR_FORCE", "CI", "RASP_ALLOW_RECORD"] {
      #expect(text.contains("\n       \(variable)"), "\(variable)")
    }
    for (status, _) in RaspCommandLine.spec.exitStatuses {
      #expect(listsEntry(status, in: text), "status \(status)")
    }
  }

  /// Whether `text` has `tag` as the tag of an entry: followed by its description on the
  /// same line when it is short, or on the next.
  private func listsEntry(_ tag: String, in text: String) -> Bool {
    text.contains("\n       \(tag) ") || text.contains("\n       \(tag)\n")
  }

  /// A line of help that starts with a dot or a quote would be read as a request: every line
  /// of the page that does is one of the macros the page uses.
  @Test func noTextLineIsReadAsARequest() throws {
    let text = String(decoding: try #require(page.bytes("rasp.1")), as: UTF8.self)
    let macros: Set<String> = [
      ".\\\"", ".TH", ".SH", ".SS", ".PP", ".TP", ".br", ".BR", ".ad", ".nh",
    ]
    for line in text.split(separator: "\n") where line.first == "." || line.first == "'" {
      let macro = String(line.prefix { $0 != " " })
      #expect(macros.contains(macro), "\(line)")
    }
  }

  @Test(arguments: [
    ("--select", "\\-\\-select"),
    ("C:\\logs", "C:\\elogs"),
    ("{\"event\":…}", "{\"event\":...}"),
    ("a — b → c", "a \\(em b \\(-> c"),
    ("café", "caf\\[u00E9]"),
  ])
  func textIsEscapedForRoff(plain: String, roff: String) {
    #expect(RaspManualPage.text(plain) == roff)
  }
}
