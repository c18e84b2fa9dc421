import RaspDomains
import RaspJSON

/// The cart's events written back as log lines, so that an app's cart aggregator can be
/// recorded with `RaspRecorder` and the recording replayed by `cart-rasp`.
///
/// Each event writes the name `CartDomain.events` lists and the payload fields
/// `CartDomain.decodeEvent` reads, keys sorted: decoding the line gives back the same event.
extension CartDomain: RaspRecordableDomain {
  public func encodeEvent(_ event: CartState.Event, into record: inout RaspEventRecord) {
    switch event {
    case .add(let sku, let quantity, let price):
      record.name = "add"
      record.payload.writeRaw(#"{"price":"#)
      record.payload.writeInteger(Int64(price))
      record.payload.writeRaw(#","quantity":"#)
      record.payload.writeInteger(Int64(quantity))
      record.payload.writeRaw(#","sku":"#)
      record.payload.writeString(sku)
      record.payload.writeRaw("}")
    case .remove(let sku):
      record.name = "remove"
      record.payload.writeRaw(#"{"sku":"#)
      record.payload.writeString(sku)
      record.payload.writeRaw("}")
    case .checkout:
      record.name = "checkout"
    }
  }
}
