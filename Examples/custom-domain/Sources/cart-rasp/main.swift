// `cart-rasp`: the rasp command line — replay and all its options, spec files included — with
// the cart domain beside the built-in ones, and the cart's next version for `cart-rasp compare`.
import Cart
import RaspCLI
import RaspDomains

RaspCommandLine.main(
  domains: RaspBuiltinDomains.all + [CartDomain()], comparing: [CartDomainNext()])
