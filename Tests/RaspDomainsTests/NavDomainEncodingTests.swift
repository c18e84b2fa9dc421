import RaspDomains
import RaspJSON
import Testing

/// Nav's JSON, composed on the stack for a small state and in a buffer of its size for a large
/// one, is what the writer's own calls make of the state, byte for byte.
@Suite struct NavDomainEncodingTests {
  /// The state's JSON as the writer's calls write it, member by member.
  private func expected(_ state: NavState) -> [UInt8] {
    var writer = JSONWriter()
    writer.writeRaw("{\"modal\":")
    if let modal = state.modal { writer.writeString(modal) } else { writer.writeNull() }
    writer.writeRaw(",\"stack\":[")
    for (index, screen) in state.stack.enumerated() {
      if index > 0 { writer.writeRaw(",") }
      writer.writeString(screen)
    }
    writer.writeRaw("],\"tab\":")
    if let tab = state.tab { writer.writeString(tab) } else { writer.writeNull() }
    writer.writeRaw("}")
    return writer.bytes
  }

  @Test func writesWhatTheWriterWritesForStatesSmallAndLarge() {
    let names = [
      "orders", "", "a\"b", "back\\slash", "line\nbreak", "tab\t", "\u{1}\u{1F}\u{7F}",
      "café", "日本", "🧭", "\r\u{8}\u{C}", String(repeating: "x", count: 200),
      String(repeating: "\u{1}", count: 100),
    ]
    var states = [NavState(), NavState(stack: [], tab: "", modal: "")]
    for (index, name) in names.enumerated() {
      let other = names[(index + 3) % names.count]
      states.append(NavState(stack: [name], tab: name, modal: nil))
      states.append(NavState(stack: [name, other, name], tab: nil, modal: other))
      // Large enough that it is composed in a buffer of its own size, not on the stack.
      states.append(NavState(stack: Array(repeating: name, count: 40), tab: other, modal: name))
    }
    for state in states {
      var writer = JSONWriter()
      NavDomain().encode(state, into: &writer)
      #expect(writer.bytes == expected(state), "\(state)")
    }
  }
}
