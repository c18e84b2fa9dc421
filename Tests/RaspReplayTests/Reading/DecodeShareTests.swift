import Testing

@testable import RaspReplay

@Suite struct DecodeShareTests {
  @Test func followsWhichThreadWaits() {
    var share = DecodeShare(decodes: true, adapts: true)
    #expect(share.sixteenths == 4)
    // A quarter of the lines, in runs: the first 64 of every 256.
    let decoded = (0..<512).map { _ in share.decodesNextLine() }
    #expect(decoded.filter { $0 }.count == 128)
    #expect(decoded[0..<64].allSatisfy { $0 } && decoded[64..<256].allSatisfy { !$0 })
    share.adjust(pendingBatches: 1, replayWaited: false)
    #expect(share.sixteenths == 4, "balanced: kept")
    share.adjust(pendingBatches: 2, replayWaited: false)
    #expect(share.sixteenths == 5, "the replay is behind: more here")
    share.adjust(pendingBatches: 3, replayWaited: true)
    #expect(share.sixteenths == 4, "the replay waited: less here")
    for _ in 0..<20 { share.adjust(pendingBatches: 4, replayWaited: false) }
    #expect(share.sixteenths == 16)
    #expect((0..<300).allSatisfy { _ in share.decodesNextLine() })
    for _ in 0..<20 { share.adjust(pendingBatches: 0, replayWaited: true) }
    #expect(share.sixteenths == 0)
    #expect((0..<300).allSatisfy { _ in !share.decodesNextLine() })

    var fixed = DecodeShare(decodes: true, adapts: false)
    fixed.adjust(pendingBatches: 0, replayWaited: true)
    #expect(fixed.sixteenths == 16)
    var none = DecodeShare(decodes: false, adapts: true)
    none.adjust(pendingBatches: 4, replayWaited: false)
    #expect(none.sixteenths == 0)
  }
}
