// swift-tools-version: 6.0
//
// An example of a domain of your own, written in Swift: a `cart-rasp` command that is `rasp`
// with a typed shopping-cart domain beside the built-in ones, and a `cart-app` that records
// what its cart aggregator applies as a log `cart-rasp` replays.
//
// It depends on the rasp package at the root of this repository. In a project of your own,
// depend on rasp by URL instead:
//
//   .package(url: "https://github.com/<owner>/rasp.git", from: "0.1.0")
import PackageDescription

let package = Package(
  name: "custom-domain",
  dependencies: [
    // The repository's root. `name:` keeps the package's name `rasp` whatever the folder is called.
    .package(name: "rasp", path: "../..")
  ],
  targets: [
    // The cart's state, its reducer, and the domain that ties them to the log.
    .target(
      name: "Cart",
      dependencies: [
        .product(name: "Rasp", package: "rasp"),
        .product(name: "RaspJSON", package: "rasp"),
        .product(name: "RaspDomains", package: "rasp"),
      ]),
    // The rasp command line with the cart domain.
    .executableTarget(
      name: "cart-rasp",
      dependencies: [
        "Cart",
        .product(name: "RaspDomains", package: "rasp"),
        .product(name: "RaspCLI", package: "rasp"),
      ]),
    // An app's cart, recorded.
    .executableTarget(
      name: "cart-app",
      dependencies: [
        "Cart",
        .product(name: "Rasp", package: "rasp"),
        .product(name: "RaspDomains", package: "rasp"),
        .product(name: "RaspRecording", package: "rasp"),
      ]),
  ]
)
