// `cart-rasp`: the rasp command line — replay and all its options, spec files included — with
// the cart domain beside the built-in ones.
import Cart
import RaspCLI
import RaspDomains

RaspCommandLine.main(domains: RaspBuiltinDomains.all + [CartDomain()])
