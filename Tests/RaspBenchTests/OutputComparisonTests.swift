import Testing

@testable import rasp_bench

@Suite struct OutputComparisonTests {
  func hashed(_ text: String, limit: Int = 2) -> OutputSample {
    var sample = OutputSample(limit: limit, hashing: true)
    sample.consume(Array(text.utf8))
    return sample
  }

  func message(_ sample: OutputSample, _ reference: OutputSample) -> String? {
    do {
      try OutputComparison.checkIdentical(sample, to: reference, label: "'cmd'")
      return nil
    } catch {
      return error.description
    }
  }

  @Test func acceptsTheSameBytes() {
    #expect(message(hashed("a\nb\nc\n"), hashed("a\nb\nc\n")) == nil)
  }

  @Test func refusesEqualValuesWrittenDifferently() throws {
    let text = try #require(message(hashed("{\"a\":1,\"b\":2}\n"), hashed("{\"b\":2,\"a\":1}\n")))
    #expect(text.contains("line 1:\n  - {\"b\":2,\"a\":1}\n  + {\"a\":1,\"b\":2}"))
  }

  @Test func namesTheFirstDifferingLineAmongTheLastOnes() throws {
    let text = try #require(message(hashed("a\nb\nc\nd\nX\n"), hashed("a\nb\nc\nd\ne\n")))
    #expect(text.hasPrefix("the outputs differ: 'cmd' printed 5 lines, 10 bytes, FNV-1a "))
    #expect(text.hasSuffix("line 5:\n  - e\n  + X"))
  }

  @Test func refusesAnotherLineCount() throws {
    let text = try #require(message(hashed("a\nb\n"), hashed("a\nb\nc\n")))
    #expect(text.contains("'cmd' printed 2 lines, 4 bytes"))
    #expect(text.contains("where the reference printed 3 lines, 6 bytes"))
  }
}
