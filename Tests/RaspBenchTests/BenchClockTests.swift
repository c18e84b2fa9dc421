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

  @Test(arguments: [
    Int64(0), 951_782_400_000, 951_868_799_999, 1_795_339_800_005, 1_798_761_599_999,
    4_107_542_400_000, 253_402_300_799_999,
  ])
  func readsBackTheTimeItWrites(milliseconds: Int64) {
    var clock = BenchClock(milliseconds: milliseconds)
    var bytes: [UInt8] = []
    clock.appendRFC3339(to: &bytes)
    #expect(bytes.withUnsafeBufferPointer(BenchClock.milliseconds(ofRFC3339:)) == milliseconds)
  }

  @Test func readsBackEveryDayOfFourHundredYears() {
    for day in Int64(0)..<146_097 {
      let bytes = BenchClock.date(ofDay: day) + Array("00:00:00.000Z".utf8)
      let milliseconds = bytes.withUnsafeBufferPointer(BenchClock.milliseconds(ofRFC3339:))
      guard milliseconds == day * 86_400_000 else {
        let text = String(decoding: bytes, as: UTF8.self)
        Issue.record("day \(day): '\(text)' read as \(String(describing: milliseconds))")
        return
      }
    }
  }

  @Test(arguments: [
    ("1969-12-31T23:59:59.999Z", Int64(-1)), ("0000-03-01T00:00:00.000Z", -62_162_035_200_000),
  ])
  func readsTimesBeforeTheEpoch(time: String, milliseconds: Int64) {
    #expect(
      Array(time.utf8).withUnsafeBufferPointer(BenchClock.milliseconds(ofRFC3339:))
        == milliseconds)
  }

  @Test(arguments: [
    "1900-02-29T00:00:00.000Z", "2023-04-31T00:00:00.000Z", "2023-13-01T00:00:00.000Z",
    "2023-00-10T00:00:00.000Z", "2023-01-00T00:00:00.000Z", "2023-01-01T23:60:00.000Z",
    "2023-01-01T23:59:60.000Z", "2023-01-01T23:59:59.000z", "2023-01-01T23:59:59.0000Z",
    "2023-01-01T23:59:59Z", "+023-01-01T23:59:59.000Z",
  ])
  func refusesATimeItDoesNotWrite(time: String) {
    #expect(Array(time.utf8).withUnsafeBufferPointer(BenchClock.milliseconds(ofRFC3339:)) == nil)
  }
}
