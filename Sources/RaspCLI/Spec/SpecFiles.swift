import RaspDomains
import RaspReplay

/// Reads the spec files named on a command line, in order, and validates each one against the
/// domains known before it: the command's own, then those of the earlier files.
///
/// ```swift
/// let loaded = SpecFiles.load(["app.json"], after: domains, environment: environment)
/// ```
enum SpecFiles {
  /// What became of one spec file.
  struct Outcome {
    /// The file as the user named it; `<stdin>` for `-`.
    let displayName: String
    /// The spec, or every error found in the file.
    let result: Result<RaspSpec, RaspCommandError>
  }

  /// Reads and validates `files`; `-` reads standard input.
  static func load(
    _ files: [String], after domains: [any RaspDomain], environment: RaspEnvironment
  ) -> [Outcome] {
    var existing: [String: String] = [:]
    let builtIn = Set(RaspBuiltinDomains.all.map(\.name))
    for domain in domains {
      existing[domain.name] = builtIn.contains(domain.name) ? "built in" : "defined in Swift"
    }
    var outcomes: [Outcome] = []
    for file in files {
      let displayName = file == "-" ? "<stdin>" : file
      let bytes: [UInt8]
      do {
        bytes =
          file == "-"
          ? try readAll(environment.standardInput, name: displayName)
          : try environment.readFile(file)
      } catch {
        outcomes.append(Outcome(displayName: displayName, result: .failure(error)))
        continue
      }
      do {
        let spec = try RaspSpec(parsing: bytes, existingDomains: existing)
        for domain in spec.domains { existing[domain.name] = "in \(displayName)" }
        outcomes.append(Outcome(displayName: displayName, result: .success(spec)))
      } catch {
        let errors = error.problems.map { problem in
          RaspCommandError.invalidFile(
            displayName, line: problem.line, column: problem.column, path: problem.path,
            reason: problem.reason)
        }
        outcomes.append(Outcome(displayName: displayName, result: .failure(.multiple(errors))))
      }
    }
    return outcomes
  }

  /// The domains of every file, or every error of every file.
  static func domains(of outcomes: [Outcome]) throws(RaspCommandError) -> [any RaspDomain] {
    var domains: [any RaspDomain] = []
    var errors: [RaspCommandError] = []
    for outcome in outcomes {
      switch outcome.result {
      case .success(let spec): domains += spec.domains as [any RaspDomain]
      case .failure(let error): errors.append(error)
      }
    }
    guard errors.isEmpty else { throw errors.count == 1 ? errors[0] : .multiple(errors) }
    return domains
  }

  static func readAll(_ source: RaspInputSource, name: String) throws(RaspCommandError)
    -> [UInt8]
  {
    var source = source
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count: Int
      do {
        count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
      } catch {
        throw .cannotOpen(name, reason: "\(error)")
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[..<count])
    }
  }
}
