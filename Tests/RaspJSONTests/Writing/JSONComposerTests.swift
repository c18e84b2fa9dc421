import RaspTestSupport
import Testing

@testable import RaspJSON

/// What a composer writes is what the writer writes, byte for byte.
@Suite struct JSONComposerTests {
  /// The writer's bytes for `value`.
  private func written(_ value: Double) -> [UInt8] {
    var writer = JSONWriter()
    writer.writeNumber(value)
    return writer.bytes
  }

  /// The composer's bytes for `value`, appended after `{`.
  private func composed(_ value: Double) -> [UInt8] {
    var writer = JSONWriter()
    writer.writeRaw("{")
    writer.writeComposed(maximumCount: 40) { $0.writeNumber(value) }
    return Array(writer.bytes.dropFirst())
  }

  @Test func writesNumbersAsTheWriterDoes() {
    var values: [Double] = [
      0, -0.0, 1, -1, 9, 10, 271.5, 139.9, 52.520002, -13.405003, 0.1, 1e-4, 9.99e-5, 1e-5,
      1e15, 1e15 - 1, 123_456_789.123_456_789, 9_007_199_254_740_991, 9_007_199_254_740_992,
      -9_007_199_254_740_993, 1.5e300, -2.2250738585072014e-308, .greatestFiniteMagnitude,
      -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .nan, .infinity, -.infinity, 0.3, 2.0 / 3,
    ]
    // Random bit patterns, and random short decimals as sensors give.
    var generator = SplitMix64(seed: 38)
    for _ in 0..<20_000 {
      values.append(Double(bitPattern: generator.next()))
      let units = Double(Int64(generator.next() % 2_000_000_000) - 1_000_000_000)
      values.append(units / Double([1, 10, 100, 1000, 1_000_000][Int(generator.next() % 5)]))
    }
    for value in values {
      #expect(composed(value) == written(value), "\(value)")
    }
  }

  @Test func writesRawTextAndNull() {
    var writer = JSONWriter()
    writer.writeComposed(maximumCount: 32) { json in
      json.writeRaw("{\"a\":")
      json.writeNull()
      json.writeRaw("}")
    }
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a":null}"#)
  }
}
