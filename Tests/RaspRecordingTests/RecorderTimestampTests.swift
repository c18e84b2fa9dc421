import RaspDomains
import Testing

@testable import RaspRecording

@Suite struct RecorderTimestampTests {
  private func text(_ seconds: Int64, _ nanoseconds: Int32 = 0) -> String {
    var timestamp = RecorderTimestamp()
    var bytes: [UInt8] = []
    timestamp.write(RaspTimestamp(seconds: seconds, nanoseconds: nanoseconds), into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func writesRFC3339InUTC() {
    #expect(text(0) == #""1970-01-01T00:00:00Z""#)
    #expect(text(1_795_336_200, 250_000_000) == #""2026-11-22T08:30:00.25Z""#)
    #expect(text(1_795_336_200, 1) == #""2026-11-22T08:30:00.000000001Z""#)
    #expect(text(951_782_400) == #""2000-02-29T00:00:00Z""#)
    #expect(text(-1) == #""1969-12-31T23:59:59Z""#)
    #expect(text(253_402_300_799, 999_999_999) == #""9999-12-31T23:59:59.999999999Z""#)
  }

  @Test func carriesNanosecondsOutOfRangeIntoTheSeconds() {
    #expect(text(0, 1_500_000_000) == #""1970-01-01T00:00:01.5Z""#)
    #expect(text(1, -250_000_000) == #""1970-01-01T00:00:00.75Z""#)
  }

  @Test func writesYearsBeyond9999AsEpochSeconds() {
    #expect(text(253_402_300_800) == "253402300800")
    #expect(text(-62_167_219_201, 750_000_000) == "-62167219200.25")
  }
}
