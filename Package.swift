// swift-tools-version: 6.0
//
// rasp — the Reactive Aggregate State Pipeline, as a Swift library and a command-line tool.
//
// The package depends on no other package: only the standard library, Foundation, Dispatch,
// Synchronization, XCTest and Swift Testing, all of which ship with the toolchain.
// Dependencies point one way, from the core outwards:
//
//   Rasp  ←  RaspDomains  ←  RaspReplay  ←  RaspCLI  ←  rasp
//   RaspJSON  ↗            ↖  RaspRecording
//
// RaspReplay is the replay kernel: the whole way from a log's bytes to the snapshots printed,
// which every command consumes. RaspRecording writes what an app's aggregators apply as a log
// the replay reads. RaspPrefetch, a C header of one function, gives it the
// processor's prefetch hint (a keyed replay asks for its keys' states ahead of their turn).
// BuildCommitPlugin, a build-tool plugin of this package, writes the commit RaspCLI is built
// from (for `rasp --version`) with the machine's `git`.
import PackageDescription

let package = Package(
  name: "rasp",
  products: [
    .library(name: "Rasp", targets: ["Rasp"]),
    .library(name: "RaspJSON", targets: ["RaspJSON"]),
    .library(name: "RaspDomains", targets: ["RaspDomains"]),
    .library(name: "RaspReplay", targets: ["RaspReplay"]),
    .library(name: "RaspRecording", targets: ["RaspRecording"]),
    .library(name: "RaspCLI", targets: ["RaspCLI"]),
    .executable(name: "rasp", targets: ["rasp"]),
  ],
  targets: [
    .target(name: "Rasp"),
    .target(name: "RaspJSON"),
    .target(name: "RaspDomains", dependencies: ["Rasp", "RaspJSON"]),
    .target(name: "RaspRecording", dependencies: ["Rasp", "RaspJSON", "RaspDomains"]),
    .target(name: "RaspPrefetch"),
    .target(name: "RaspReplay", dependencies: ["Rasp", "RaspJSON", "RaspDomains", "RaspPrefetch"]),
    .target(
      name: "RaspCLI", dependencies: ["Rasp", "RaspJSON", "RaspDomains", "RaspReplay"],
      plugins: ["BuildCommitPlugin"]),
    .plugin(
      name: "BuildCommitPlugin", capability: .buildTool(), path: "Sources/BuildCommitPlugin"),
    .executableTarget(name: "rasp", dependencies: ["RaspCLI"]),
    .executableTarget(
      name: "rasp-bench",
      dependencies: ["Rasp", "RaspJSON", "RaspDomains", "RaspReplay", "RaspRecording"]),
    .testTarget(name: "RaspTests", dependencies: ["Rasp"]),
    .testTarget(name: "RaspJSONTests", dependencies: ["RaspJSON", "RaspTestSupport"]),
    // What several test targets share: random events of every built-in domain, for the
    // property tests of the domains and the recorder; the repository's root.
    .target(
      name: "RaspTestSupport", dependencies: ["RaspDomains", "RaspJSON"],
      path: "Tests/RaspTestSupport"),
    .testTarget(
      name: "RaspDomainsTests", dependencies: ["RaspDomains", "RaspReplay", "RaspTestSupport"]),
    .testTarget(name: "RaspReplayTests", dependencies: ["RaspReplay", "RaspTestSupport"]),
    .testTarget(name: "RaspCLITests", dependencies: ["RaspCLI", "RaspTestSupport"]),
    .testTarget(
      name: "RaspRecordingTests", dependencies: ["RaspRecording", "RaspCLI", "RaspTestSupport"]),
    .testTarget(
      name: "RaspBenchTests", dependencies: ["rasp-bench", "RaspCLI", "RaspTestSupport"]),
  ]
)
