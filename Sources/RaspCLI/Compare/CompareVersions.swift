import RaspDomains
import RaspJSON
import RaspReplay

/// The two versions that `rasp compare` replays every log through: each its replay options,
/// read from the command line's spec files and map files for that version.
///
/// A version is the command's own domains (a program's Swift domains, or rasp's built-in
/// ones), the spec files of `--spec` (both versions) and of `--old-spec` or `--new-spec`
/// (that one), and the map file of `--map` (both) or `--old-map`/`--new-map` (that one, in
/// place of `--map`). `--old FILE` and `--new FILE` take either kind of file and tell which it
/// is by its content: a JSON object with a `domains` member is a spec, anything else a map
/// file. A program that registered new versions of some of its Swift domains
/// (``RaspCommandLine/run(arguments:environment:domains:comparing:)``) has them in the new
/// version in place of the domains of the same name.
///
/// Every mistake in a file names the file, its line and column, and which version it is of;
/// `--domain` names a domain of either version, and each version keeps those it has.
///
/// ```swift
/// let versions = try CompareVersions(
///   parsed: parsed, domains: domains, newVersions: [], spec: spec, environment: environment)
/// versions.onlyOld   // ["cart"]: a domain the new version renamed
/// ```
struct CompareVersions {
  /// The old version's replay options.
  var old: ReplayOptions
  /// The new version's.
  var new: ReplayOptions

  /// The domains in the old version's snapshots that the new one's do not have, by name.
  var onlyOld: [String] {
    let names = Set(new.configuration.domains.map(\.name))
    return old.configuration.domains.map(\.name).filter { !names.contains($0) }.sorted()
  }

  /// The domains in the new version's snapshots that the old one's do not have, by name.
  var onlyNew: [String] {
    let names = Set(old.configuration.domains.map(\.name))
    return new.configuration.domains.map(\.name).filter { !names.contains($0) }.sorted()
  }

  /// The files of one version: spec files and at most one map file, and how messages name
  /// each.
  private struct Files {
    var specs: [String] = []
    var map: String?
    var labels: [String: String] = [:]
  }

  /// Reads both versions from the command line.
  ///
  /// - Parameters:
  ///   - parsed: The command line.
  ///   - domains: The command's own domains: the old version's, and the new one's but for
  ///     `newVersions`.
  ///   - newVersions: New versions of some domains (by name), for the new version.
  ///   - spec: The command's spec, for usage errors.
  ///   - environment: Where the files are read.
  /// - Throws: A usage error when nothing tells the versions apart or an option is misused;
  ///   the errors of a spec or map file, each naming its version.
  init(
    parsed: RaspParsedArguments, domains: [any RaspDomain], newVersions: [any RaspDomain],
    spec: RaspCommandSpec, environment: RaspEnvironment
  ) throws(RaspCommandError) {
    let fail = spec.usageError
    let sideOptions: [RaspOptionName] = [.old, .new, .oldSpec, .newSpec, .oldMap, .newMap]
    if newVersions.isEmpty, !sideOptions.contains(where: parsed.isGiven) {
      throw fail(
        "Nothing to compare: give the old and the new version, such as '--old v1.json --new "
          + "v2.json' (spec or map files), or '--old-spec', '--new-spec', '--old-map', "
          + "'--new-map'")
    }
    for option in [RaspOptionName.spec, .map] + sideOptions {
      if parsed.values[option]?.contains("-") == true {
        throw fail("Option '--\(option.rawValue)' needs a file: standard input ('-') is not read")
      }
    }
    let oldFiles = try Self.files(
      parsed, version: "old", option: .old, specOption: .oldSpec, mapOption: .oldMap,
      environment: environment, fail: fail)
    let newFiles = try Self.files(
      parsed, version: "new", option: .new, specOption: .newSpec, mapOption: .newMap,
      environment: environment, fail: fail)
    var newDomains = domains.filter { domain in !newVersions.contains { $0.name == domain.name } }
    newDomains += newVersions
    // The domains each version has, to keep the `--domain` names it has.
    let oldNames = try Self.domainNames(
      domains, specs: parsed.all(.spec) + oldFiles.specs, labels: oldFiles.labels,
      environment: environment)
    let newNames = try Self.domainNames(
      newDomains, specs: parsed.all(.spec) + newFiles.specs, labels: newFiles.labels,
      environment: environment)
    let chosen = parsed.all(.domain).flatMap {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    let known = oldNames + newNames.filter { !oldNames.contains($0) }
    for name in chosen where !known.contains(name) {
      var message = "Unknown domain '\(name)' for '--domain <name>': neither version has it"
      if let near = RaspSpelling.nearest(to: name, among: known) {
        message += ". Did you mean '\(near)'?"
      }
      throw fail(message)
    }
    old = try Self.options(
      parsed, files: oldFiles, version: "old", domains: domains, names: oldNames,
      chosen: chosen, spec: spec, environment: environment, fail: fail)
    new = try Self.options(
      parsed, files: newFiles, version: "new", domains: newDomains, names: newNames,
      chosen: chosen, spec: spec, environment: environment, fail: fail)
  }

  /// The spec files and map file of one version, `--old FILE` told apart by its content.
  private static func files(
    _ parsed: RaspParsedArguments, version: String, option: RaspOptionName,
    specOption: RaspOptionName, mapOption: RaspOptionName, environment: RaspEnvironment,
    fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) -> Files {
    var files = Files()
    for file in parsed.all(.spec) { files.labels[file] = "the spec of both versions" }
    if let map = parsed.value(.map) { files.labels[map] = "the map file of both versions" }
    var maps: [(file: String, option: String)] = []
    for file in parsed.all(option) {
      if try isSpec(file, version: version, environment: environment) {
        files.specs.append(file)
        files.labels[file] = "the \(version) spec"
      } else {
        maps.append((file, "--\(option.rawValue) \(file)"))
        files.labels[file] = "the \(version) map file"
      }
    }
    for file in parsed.all(specOption) {
      files.specs.append(file)
      files.labels[file] = "the \(version) spec"
    }
    if let file = parsed.value(mapOption) {
      maps.append((file, "--\(mapOption.rawValue) \(file)"))
      files.labels[file] = "the \(version) map file"
    }
    if maps.count > 1 {
      throw fail(
        "The \(version) version reads logs with one map file, not \(maps.count): "
          + maps.map { "'\($0.option)'" }.joined(separator: " and "))
    }
    files.map = maps.first?.file
    if files.map != nil, parsed.isGiven(.logFormat) {
      throw fail(
        "Options '--log-format <name>' and '\(maps[0].option)' cannot be used together: the "
          + "\(version) version would read logs two ways")
    }
    return files
  }

  /// Whether a file given to `--old` or `--new` is a spec: a JSON object with a `domains`
  /// member, or no JSON at all (whose mistake the spec's reader then places). Anything else
  /// is a map file.
  private static func isSpec(_ file: String, version: String, environment: RaspEnvironment)
    throws(RaspCommandError) -> Bool
  {
    let bytes: [UInt8]
    do {
      bytes = try environment.readFile(file)
    } catch {
      throw labeled(error, labels: [file: "the \(version) version"])
    }
    guard let value = try? JSONParser.parse(bytes) else { return true }
    guard case .object(let object) = value else { return false }
    return object["domains"] != nil
  }

  /// The names of the domains a version has: the command's own and its spec files'.
  private static func domainNames(
    _ domains: [any RaspDomain], specs: [String], labels: [String: String],
    environment: RaspEnvironment
  ) throws(RaspCommandError) -> [String] {
    let loaded = SpecFiles.load(specs, after: domains, environment: environment)
    do {
      return try domains.map(\.name) + SpecFiles.domains(of: loaded).map(\.name)
    } catch {
      throw labeled(error, labels: labels)
    }
  }

  /// One version's replay options: the command line's, with its own spec files, map file and
  /// the `--domain` names it has.
  private static func options(
    _ parsed: RaspParsedArguments, files: Files, version: String, domains: [any RaspDomain],
    names: [String], chosen: [String], spec: RaspCommandSpec, environment: RaspEnvironment,
    fail: (String) -> RaspCommandError
  ) throws(RaspCommandError) -> ReplayOptions {
    var side = parsed
    side.positionals = []
    for option in [RaspOptionName.old, .new, .oldSpec, .newSpec, .oldMap, .newMap] {
      side.values[option] = nil
    }
    side.values[.spec] = parsed.all(.spec) + files.specs
    side.values[.map] = (files.map ?? parsed.value(.map)).map { [$0] }
    if !chosen.isEmpty {
      let kept = chosen.filter(names.contains)
      guard !kept.isEmpty else {
        throw fail(
          "The \(version) version has none of the domains that '--domain' names: it has "
            + names.map { "'\($0)'" }.joined(separator: ", "))
      }
      side.values[.domain] = kept
    }
    do {
      return try ReplayOptions(
        parsed: side, domains: domains, spec: spec, environment: environment)
    } catch {
      throw labeled(error, labels: files.labels)
    }
  }

  /// An error about a file, saying which version's file it is.
  static func labeled(_ error: RaspCommandError, labels: [String: String]) -> RaspCommandError {
    switch error {
    case .invalidFile(let file, let line, let column, let path, let reason):
      guard let label = labels[file] else { return error }
      let at = path.map { ", at \($0)" } ?? ""
      return .invalidFile(
        file, line: line, column: column, path: nil, reason: "in \(label)\(at): \(reason)")
    case .cannotOpen(let file, let reason):
      guard let label = labels[file] else { return error }
      return .cannotOpen(file, reason: "\(reason) (\(label))")
    case .multiple(let errors):
      return .multiple(errors.map { labeled($0, labels: labels) })
    default:
      return error
    }
  }
}
