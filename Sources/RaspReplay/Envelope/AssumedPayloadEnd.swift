/// The one thing the replay takes for granted in an envelope: that a payload which seems to end
/// the line does end it.
///
/// Loggers write the payload last: `{"type":…,"ts":…,"payload":{…}}`. Matching the payload's
/// braces is a good part of reading an envelope, and whoever decodes the payload reads every
/// byte of it again. So the reading thread takes a payload that ends with the line's last byte
/// but one (`}}`) to end there, unchecked, and marks the envelope
/// (``Envelope/isPayloadEndAssumed``). The guess is wrong only for lines such as
/// `{"type":…,"payload":{…},"x":{}}`, where the payload is not the last member.
///
/// The rule that makes this safe has three parts, each in one place:
/// 1. **Assume** only where ``applies(to:payloadStart:)`` says so, in
///    ``Envelope/parseQuickly(_:memo:assumingPayloadEnd:)``.
/// 2. **Confirm** wherever the payload is read to its end: the domain's payload reader is given
///    ``Envelope/expectedPayloadEnd`` (`RaspPayload.finish()` throws when the payload ends
///    elsewhere), and ``Envelope/checkPayload()`` checks it for events no domain decodes.
/// 3. **Retry** when anything about an assumed event fails — the confirmation, a decoding error,
///    a reducer's rejection — by reading the line again without assuming
///    (``ReplayItem/readAgainWithoutAssuming(problems:)``), in the one place the kernel
///    applies events (``ReplayKernel``). The state is unchanged by then, so the retry gives
///    exactly the event, or the error, that a careful first reading gives.
///
/// ```swift
/// AssumedPayloadEnd.applies(to: line, payloadStart: 41)   // true for `…,"payload":{…}}`
/// ```
enum AssumedPayloadEnd {
  /// Whether a payload that starts at `payloadStart` may be taken to end the line: the line
  /// ends with `}}` after it.
  @inline(__always)
  static func applies(to line: UnsafeBufferPointer<UInt8>, payloadStart: Int) -> Bool {
    let count = line.count
    return count - 2 > payloadStart && line[count - 2] == UInt8(ascii: "}")
      && line[count - 1] == UInt8(ascii: "}")
  }

  /// Where an assumed payload ends: just past its closing brace, the line's last byte but one.
  @inline(__always)
  static func end(of line: UnsafeBufferPointer<UInt8>) -> Int {
    line.count - 1
  }
}
