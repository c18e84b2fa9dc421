import Rasp

/// A shopping cart: what is in it, and how many orders it has made.
///
/// The reducer is plain Swift: it merges repeated items, refuses to remove an item that is not
/// in the cart or to check out an empty cart, and the pipeline keeps the state unchanged when it
/// refuses.
public struct CartState: RaspState, Equatable, Sendable {
  /// One product in the cart.
  public struct Item: Equatable, Sendable {
    /// The product's stock-keeping unit.
    public var sku: String
    /// How many of it.
    public var quantity: Int
    /// The price of one, in cents.
    public var price: Int
  }

  /// What can happen to a cart.
  public enum Event: Sendable, Equatable {
    /// `cart.add`: some of a product were put in the cart.
    case add(sku: String, quantity: Int, price: Int)
    /// `cart.remove`: a product was taken out of the cart, whatever its quantity.
    case remove(sku: String)
    /// `cart.checkout`: the cart was paid for and emptied.
    case checkout
  }

  /// Why the cart refused an event.
  public enum Refusal: Error, CustomStringConvertible {
    case notInCart(String)
    case emptyCheckout

    public var description: String {
      switch self {
      case .notInCart(let sku): return "'\(sku)' is not in the cart"
      case .emptyCheckout: return "an empty cart cannot be checked out"
      }
    }
  }

  /// The items, in the order they were first added.
  public var items: [Item] = []
  /// How many times the cart was checked out.
  public var orders = 0

  /// The price of everything in the cart, in cents.
  public var total: Int { items.reduce(0) { $0 + $1.quantity * $1.price } }

  /// Creates an empty cart.
  public init() {}

  public mutating func apply(event: Event) throws {
    switch event {
    case .add(let sku, let quantity, let price):
      if let index = items.firstIndex(where: { $0.sku == sku }) {
        items[index].quantity += quantity
        items[index].price = price
      } else {
        items.append(Item(sku: sku, quantity: quantity, price: price))
      }
    case .remove(let sku):
      guard let index = items.firstIndex(where: { $0.sku == sku }) else {
        throw Refusal.notInCart(sku)
      }
      items.remove(at: index)
    case .checkout:
      guard !items.isEmpty else { throw Refusal.emptyCheckout }
      items.removeAll()
      orders += 1
    }
  }

  /// `true`: every check comes before any change, so the pipeline need not copy the state.
  public static var throwsBeforeMutating: Bool { true }
}
