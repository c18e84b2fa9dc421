import RaspDomains

/// One subcommand of `rasp`: its spec, and how it runs.
///
/// ``RaspCommandLine`` dispatches through a table of these, so that what every subcommand
/// shares is done in one place: `-h`/`--help` prints the spec's help; a command that works
/// with domains has their names checked first; and a command that declares `--color` has its
/// errors reported in the colours it asks for, even when its arguments do not parse.
///
/// ```swift
/// RaspSubcommand(spec: DiffCommand.spec) { arguments, environment, _ throws(RaspCommandError) in
///   try DiffCommand.run(arguments, environment: environment)
/// }
/// ```
///
/// To add a subcommand: write its `…Command` type with a `spec` and a `run`, and add it to
/// ``RaspCommandLine/subcommands``; help, the manual page and the completions follow.
struct RaspSubcommand: Sendable {
  /// What the subcommand runs with: its arguments, the environment and the domains.
  typealias Run =
    @Sendable ([String], RaspEnvironment, [any RaspDomain]) throws(RaspCommandError) ->
    RaspExitCode

  /// What a subcommand that compares two versions of the domains runs with: also the new
  /// versions of some domains that a program registered (`rasp compare`).
  typealias RunComparing =
    @Sendable ([String], RaspEnvironment, [any RaspDomain], [any RaspDomain])
    throws(RaspCommandError) -> RaspExitCode

  /// The subcommand's options, arguments and help.
  let spec: RaspCommandSpec
  /// Whether the subcommand works with the domains, whose names are checked before it runs.
  var usesDomains = false
  /// Runs the subcommand.
  let run: Run
  /// Runs the subcommand with the new versions of domains, when it compares versions.
  private(set) var runComparing: RunComparing?

  /// The name typed after `rasp`: `replay`.
  var name: String { String(spec.name.split(separator: " ").last ?? "") }

  /// A subcommand of `spec` that `run` runs.
  init(spec: RaspCommandSpec, usesDomains: Bool = false, run: @escaping Run) {
    self.spec = spec
    self.usesDomains = usesDomains
    self.run = run
  }

  /// A subcommand of `spec` that compares two versions of the domains: `run` gets the new
  /// versions that a program registered (none by default).
  init(spec: RaspCommandSpec, comparing run: @escaping RunComparing) {
    self.spec = spec
    self.usesDomains = true
    self.run = { arguments, environment, domains throws(RaspCommandError) in
      try run(arguments, environment, domains, [])
    }
    self.runComparing = run
  }

  /// Whether the subcommand declares `--color`, which then colours its own usage errors.
  var colorsItsErrors: Bool { spec.options.contains { $0.name == .color } }
}
