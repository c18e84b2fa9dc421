import Testing

/// The screen model the terminal tests read with: it must show what a VT100 shows.
@Suite struct TerminalScreenTests {
  func lines(_ text: String, columns: Int = 10) -> [String] {
    TerminalScreen(Array(text.utf8), columns: columns).lines
  }

  @Test func returnOverwritesAndEraseClearsToTheEndOfTheLine() {
    #expect(lines("abcdef\rxy") == ["xycdef"])
    #expect(lines("abcdef\rxy\u{1B}[K") == ["xy"])
    #expect(lines("progress\r\u{1B}[K2\r\n") == ["2"])
    #expect(lines("progress2\r\n\r\u{1B}[K") == ["progress2"])
    #expect(lines("abc\u{1B}[1K").isEmpty)
    #expect(lines("abc\u{1B}[2Kd") == ["   d"])
  }

  @Test func textWrapsAtTheMarginAndColoursShowNothing() {
    #expect(lines("0123456789ab") == ["0123456789", "ab"])
    #expect(lines("\u{1B}[1;31merror:\u{1B}[0m x") == ["error: x"])
    #expect(lines("a\r\nb\r\n\r\n") == ["a", "b"])
  }

  @Test func cursorMovesAndScreenErase() {
    #expect(lines("a\r\nb\u{1B}[Ac") == ["ac", "b"])
    #expect(lines("abc\u{1B}[2Dx") == ["axc"])
    #expect(lines("a\r\nb\u{1B}[H\u{1B}[2Jz") == ["z"])
    #expect(lines("\u{1B}[2;3Hx") == ["", "  x"])
    #expect(lines("\u{1B}[?1h\u{1B}=ok\u{7}") == ["ok"])
  }
}
