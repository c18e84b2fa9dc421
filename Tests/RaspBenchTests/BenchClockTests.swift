import Testing

@testable import rasp_bench

@Suite struct BenchClockTests {
  @Test func writesRFC3339WithMilliseconds() {
    var clock = BenchClock(milliseconds: BenchLogGenerator.startMilliseconds)
    var bytes: [UInt8] = []
    clock.appendRFC3339(to: &bytes)
    clock.advance(by: 86_400_000 * 40 + 3_723_004)
    bytes.append(0x20)
    clock.appendRFC3339(to: &bytes)
    #expect(
      String(decoding: bytes, as: UTF8.self) == "2026-11-22T09:30:00.000Z 2027-01-01T10:32:03.004Z")
  }

  @Test(arguments: [
    (0, "1970-01-01T"), (59, "1970-03-01T"), (11_016, "2000-02-29T"), (20_819, "2027-01-01T"),
  ])
  func datesFollowTheGregorianCalendar(day: Int64, date: String) {
    #expect(String(decoding: BenchClock.date(ofDay: day), as: UTF8.self) == date)
  }
}
