import RaspDomains
import RaspJSON

/// The `cart` domain: ties ``CartState`` to the log format.
///
/// | Event           | Payload                                                             |
/// |-----------------|---------------------------------------------------------------------|
/// | `cart.add`      | `sku` string, `price` integer cents ≥ 0, `quantity` integer ≥ 1 (default 1) |
/// | `cart.remove`   | `sku` string                                                        |
/// | `cart.checkout` | none                                                                |
///
/// State: `{"items":[{"price":…,"quantity":…,"sku":…}],"orders":0,"total":0}`.
public struct CartDomain: RaspDomain {
  /// Creates the domain.
  public init() {}

  public var name: String { "cart" }

  public var summary: String {
    "A shopping cart: its items, their total in cents, and the orders made."
  }

  public var events: [RaspEventSchema] {
    let sku = RaspFieldSchema(
      name: "sku", type: "string", isRequired: true, summary: "The product.")
    return [
      RaspEventSchema(
        name: "add", summary: "Some of a product were put in the cart.",
        fields: [
          sku,
          RaspFieldSchema(
            name: "price", type: "integer (≥ 0)", isRequired: true,
            summary: "The price of one, in cents."),
          RaspFieldSchema(
            name: "quantity", type: "integer (≥ 1)", isRequired: false,
            summary: "How many; 1 if absent."),
        ]),
      RaspEventSchema(
        name: "remove", summary: "A product was taken out of the cart.", fields: [sku]),
      RaspEventSchema(name: "checkout", summary: "The cart was paid for and emptied.", fields: []),
    ]
  }

  public var initialState: CartState { CartState() }

  public func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> CartState.Event {
    var sku: String?
    var price: Int64?
    var quantity: Int64 = 1
    while let field = try payload.nextField() {
      switch field {
      case "sku": sku = try payload.nonEmptyString()
      case "price":
        let cents = try payload.integer()
        guard cents >= 0 else { throw payload.invalid("must be at least 0, found \(cents)") }
        price = cents
      case "quantity":
        quantity = try payload.integer()
        guard quantity >= 1 else { throw payload.invalid("must be at least 1, found \(quantity)") }
      default: try payload.skip()
      }
    }
    switch name {
    case "add":
      guard let sku else { throw payload.missing("sku") }
      guard let price else { throw payload.missing("price") }
      return .add(sku: sku, quantity: Int(quantity), price: Int(price))
    case "remove":
      guard let sku else { throw payload.missing("sku") }
      return .remove(sku: sku)
    default:
      return .checkout
    }
  }

  public func encode(_ state: CartState, into writer: inout JSONWriter) {
    writer.writeRaw("{\"items\":[")
    for (index, item) in state.items.enumerated() {
      writer.writeRaw(index == 0 ? "{\"price\":" : ",{\"price\":")
      writer.writeInteger(Int64(item.price))
      writer.writeRaw(",\"quantity\":")
      writer.writeInteger(Int64(item.quantity))
      writer.writeRaw(",\"sku\":")
      writer.writeString(item.sku)
      writer.writeRaw("}")
    }
    writer.writeRaw("],\"orders\":")
    writer.writeInteger(Int64(state.orders))
    writer.writeRaw(",\"total\":")
    writer.writeInteger(Int64(state.total))
    writer.writeRaw("}")
  }
}
