// swift-tools-version: 6.0
//
// A libFuzzer fuzz target for rasp's JSON-lines reader and its replay: `make fuzz` builds it
// with `--sanitize=fuzzer` and runs it over a seed corpus made from the fixtures' event logs.
//
// It is a package of its own, not a target of the root package, because it links only with
// the fuzzer sanitizer (libFuzzer supplies `main`), while the root package must build and test
// with a plain `swift build` / `swift test`. It depends on the root package by local path.
import PackageDescription

let package = Package(
  name: "rasp-fuzz",
  dependencies: [
    // The repository's root. `name:` keeps the package's name `rasp` whatever the folder is called.
    .package(name: "rasp", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "rasp-fuzz",
      dependencies: [
        .product(name: "RaspJSON", package: "rasp"),
        .product(name: "RaspDomains", package: "rasp"),
        .product(name: "RaspCLI", package: "rasp"),
      ],
      swiftSettings: [
        // No main.swift: libFuzzer's `main` calls `LLVMFuzzerTestOneInput`.
        .unsafeFlags(["-parse-as-library"])
      ])
  ]
)
