import RaspDomains

/// Decodes routed events into columns of typed events, on any thread, ahead of applying them:
/// the decoding stage, when the replay's reading thread takes a share of it.
///
/// A batch of lines has one column per domain; an event decoded ahead is found again by its
/// domain and row, and applied from there (``SnapshotState/apply(event:)``).
///
/// ```swift
/// let decoder = snapshot.makeDecoder()
/// let columns = decoder.makeColumns(sizedLike: [])
/// let column = Unmanaged.passUnretained(columns[routed.domainIndex])
/// let row = try decoder.decode(routed, into: column)
/// ```
package struct EventDecoder: @unchecked Sendable {
  private let decoders: [RaspDomainDecoder]
  /// The same decoders, not retained (``decoders`` keeps them): a call through them costs no
  /// reference counting per event.
  private let unretainedDecoders: [Unmanaged<RaspDomainDecoder>]

  init(decoders: [RaspDomainDecoder]) {
    self.decoders = decoders
    self.unretainedDecoders = decoders.map(Unmanaged.passUnretained)
  }

  /// One empty column per domain, each with room for as many events as the same domain's
  /// column in `previous` holds: the next batch of a log is likely to be much like the last.
  package func makeColumns(sizedLike previous: [AnyRaspDecodedEvents]) -> [AnyRaspDecodedEvents] {
    decoders.indices.map { index in
      decoders[index].makeColumn(capacity: index < previous.count ? previous[index].count : 0)
    }
  }

  /// Decodes a routed event's payload into its domain's column, which the caller keeps alive,
  /// and returns its row.
  ///
  /// - Throws: ``RaspDomains/RaspEventError`` for a payload that does not decode, or whose
  ///   assumed end is wrong; the column is then unchanged.
  package func decode(
    _ event: SnapshotState.Event, into column: Unmanaged<AnyRaspDecodedEvents>
  ) throws(RaspEventError) -> Int {
    let envelope = event.envelope
    let result = unretainedDecoders[event.domainIndex]._withUnsafeGuaranteedRef { decoder in
      column._withUnsafeGuaranteedRef { column in
        Result { () throws(RaspEventError) in
          try decoder.decode(
            payloadAt: envelope.payloadOffset, expectedEnd: envelope.expectedPayloadEnd,
            context: envelope.context, eventIndex: event.eventIndex, into: column)
        }
      }
    }
    return try result.get()
  }
}
