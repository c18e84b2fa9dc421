/// A small seeded pseudo-random generator (SplitMix64) whose sequence is fixed by its seed.
///
/// The log generator needs the same bytes for the same seed on every machine and toolchain, so
/// it does not use the standard library's `random(in:using:)`, whose algorithm may change; it
/// draws with ``below(_:)``, defined here once and for all.
///
/// ```swift
/// var random = BenchRandom(seed: 7)
/// let die = random.below(6) + 1   // always the same first throw for seed 7
/// ```
struct BenchRandom {
  private var state: UInt64

  /// Creates a generator whose sequence is fixed by `seed`.
  ///
  /// - Parameter seed: Any value; 0 is as good as any other.
  init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits (SplitMix64, Steele, Lea and Flood 2014).
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A number in `0..<bound`, by multiplying the next 64 bits by the bound and keeping the high
  /// word (Lemire's method without the rejection step: the bias is below 2⁻⁵⁰ for our bounds).
  ///
  /// ```swift
  /// random.below(1000)   // 0...999
  /// ```
  ///
  /// - Parameter bound: A positive number.
  /// - Returns: A number from 0 up to `bound - 1`.
  mutating func below(_ bound: Int) -> Int {
    Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
  }

  /// A number in `range`, both ends included.
  ///
  /// - Parameter range: A non-empty range.
  /// - Returns: A number in it.
  mutating func within(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + below(range.upperBound - range.lowerBound + 1)
  }
}
