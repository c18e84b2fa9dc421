// `cart-app <log> <golden>`: an app's shopping cart, recorded as a log that `cart-rasp replay`
// reads, with the golden file that `cart-rasp check --golden` compares its replay with.
//
// The events are sent in code here; in an app they come from the UI and the network. The clock
// starts at 2026-11-22T10:00:00Z and moves on by one second per event, so that the log is the
// same on every run.
import Cart
import Foundation
import Rasp
import RaspDomains
import RaspRecording

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
  FileHandle.standardError.write(Data("usage: cart-app <log> <golden>\n".utf8))
  exit(64)
}
let configuration = RaspRecorderConfiguration(
  clock: RaspManualClock(
    start: RaspTimestamp(seconds: 1_795_341_600, nanoseconds: 0), step: .seconds(1)),
  goldenPath: arguments[2], goldenDomains: RaspBuiltinDomains.all + [CartDomain()])
do {
  let recorder = try RaspRecorder(path: arguments[1], configuration: configuration)
  let cart = RaspAggregator(initial: CartState())
  try recorder.record(cart, as: CartDomain())
  cart.send(.add(sku: "A-1", quantity: 1, price: 1999))
  cart.send(.add(sku: "B-2", quantity: 2, price: 550))
  cart.send(.remove(sku: "Z-9"))  // refused by the reducer: not applied, not recorded
  cart.send(.remove(sku: "A-1"))
  cart.send(.checkout)
  let summary = recorder.finish()
  print("recorded \(summary.recordedCount) events, dropped \(summary.droppedCount)")
  if let failure = summary.failure {
    FileHandle.standardError.write(Data("cart-app: error: \(failure)\n".utf8))
    exit(2)
  }
} catch {
  FileHandle.standardError.write(Data("cart-app: error: \(error)\n".utf8))
  exit(2)
}
