import RaspDomains
import RaspJSON

/// The next version of the `cart` domain, to compare with ``CartDomain`` before it replaces
/// it: its state also says how many units the cart holds (`count`), and an `add` without a
/// price is free instead of rejected.
///
/// `cart-rasp compare` replays logs through both (`RaspCommandLine.main(domains:comparing:)`):
///
/// ```sh
/// cart-rasp compare --domain cart --allow add:cart.count events.jsonl free.jsonl
/// ```
public struct CartDomainNext: RaspDomain {
  /// Creates the domain.
  public init() {}

  public var name: String { "cart" }

  public var summary: String {
    "A shopping cart: its items, their total in cents, how many units, and the orders made."
  }

  public var events: [RaspEventSchema] { CartDomain().events }

  public var initialState: CartState { CartState() }

  public func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> CartState.Event {
    guard name == "add" else {
      return try CartDomain().decodeEvent(name, payload: &payload, context: context)
    }
    var sku: String?
    var price: Int64 = 0
    var quantity: Int64 = 1
    while let field = try payload.nextField() {
      switch field {
      case "sku": sku = try payload.nonEmptyString()
      case "price":
        price = try payload.integer()
        guard price >= 0 else { throw payload.invalid("must be at least 0, found \(price)") }
      case "quantity":
        quantity = try payload.integer()
        guard quantity >= 1 else { throw payload.invalid("must be at least 1, found \(quantity)") }
      default: try payload.skip()
      }
    }
    guard let sku else { throw payload.missing("sku") }
    return .add(sku: sku, quantity: Int(quantity), price: Int(price))
  }

  public func encode(_ state: CartState, into writer: inout JSONWriter) {
    // The old version's members, with `count` first: the keys stay sorted.
    writer.writeRaw("{\"count\":")
    writer.writeInteger(Int64(state.items.reduce(0) { $0 + $1.quantity }))
    var old = JSONWriter()
    CartDomain().encode(state, into: &old)
    writer.writeRaw(",")
    writer.bytes += old.bytes.dropFirst()
  }
}
