import Testing

@testable import rasp_bench

@Suite struct BenchNumbersTests {
  @Test(arguments: [
    (2715, 1, "271.5"), (2710, 1, "271"), (5, 1, "0.5"), (52_520_100, 6, "52.5201"),
    (-1_250_000, 6, "-1.25"), (-7, 6, "-0.000007"), (0, 6, "0"), (40, 0, "40"),
  ])
  func writesTheShortestDecimal(value: Int, digits: Int, text: String) {
    var bytes: [UInt8] = []
    BenchNumbers.appendDecimal(value, fractionDigits: digits, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == text)
  }

  @Test(arguments: [
    (UInt(0), "0"), (9, "9"), (10, "10"), (1_795_339_800_005, "1795339800005"),
    (UInt.max, "18446744073709551615"),
  ])
  func writesWholeNumbersInDecimal(value: UInt, text: String) {
    var bytes: [UInt8] = [0x2A]
    BenchNumbers.appendWhole(value, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == "*" + text)
  }
}
