import Testing

extension Trait where Self == TimeLimitTrait {
  /// The time limit of the core's asynchronous tests: it turns a hang — a stream that never
  /// finishes, a subscriber never told — into a failure that names the test, and is no measure
  /// of speed.
  ///
  /// Swift Testing runs every test of the process at once, and on two cores a suspended test
  /// waits for its turn on the cooperative pool behind all the others: under ThreadSanitizer,
  /// beside the replay's and the command line's suites, each of these tests took as long as the
  /// whole run (8 to 9 minutes) though alone they all run in under a second. A limit of one
  /// minute failed 27 of them on CI (`make test-tsan`, which now runs this target in a process
  /// of its own, the others after it). Fifteen minutes is beyond any whole run of the suite.
  ///
  /// ```swift
  /// @Suite(.hangGuard) struct RaspAggregatorSourcesTests { … }
  /// ```
  static var hangGuard: Self { .timeLimit(.minutes(15)) }
}
