// BuildCommitPlugin: writes the commit the package is built from into `RaspCLI`, for
// `rasp --version`.
//
// Before each build, `git` (the machine's) names the checked-out commit, with `+changes` when
// the sources differ from it; a build from a copy without git says `unknown`. The file is
// written only when its text changes, so that a build with nothing new compiles nothing again.
import Foundation
import PackagePlugin

@main
struct BuildCommitPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let output = context.pluginWorkDirectoryURL.appending(path: "BuildCommit")
    let file = output.appending(path: "BuildCommit.swift").path(percentEncoded: false)
    let package = context.package.directoryURL.path(percentEncoded: false)
    let script = """
      cd "$1" || exit 1
      commit=$(git rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
      if [ "$commit" != unknown ] && ! git diff --quiet HEAD -- Sources Package.swift 2>/dev/null
      then commit="$commit+changes"; fi
      mkdir -p "$(dirname "$2")"
      text="/// The commit this build is from (written by BuildCommitPlugin).
      let raspBuildCommit = \\"$commit\\""
      [ "$(cat "$2" 2>/dev/null)" = "$text" ] || printf '%s\\n' "$text" > "$2"
      """
    return [
      .prebuildCommand(
        displayName: "Naming the commit rasp is built from",
        executable: URL(filePath: "/bin/sh"),
        arguments: ["-c", script, "sh", package, file],
        outputFilesDirectory: output)
    ]
  }
}
