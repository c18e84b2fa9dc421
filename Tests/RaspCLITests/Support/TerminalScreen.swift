/// What a person sees on a terminal after a program wrote `bytes` to it: a small model of a
/// VT100-like screen, written for the tests independently of rasp's own code.
///
/// It knows what rasp and the programs around it (`head`, `cat`) write: printable text, which
/// wraps at the right margin; `\r`, `\n` (a pseudo-terminal turns a program's `\n` into
/// `\r\n`), backspace and tab; and the CSI sequences `K` (erase in line), `J` (erase in
/// display), `A`–`D` and `H` (cursor moves), `m` (colours, which change no text). Other escape
/// sequences are skipped whole. The screen scrolls without limit: every line ever shown stays.
///
/// ```swift
/// TerminalScreen(Array("rasp: 1 line\r\u{1B}[K2\r\n".utf8)).lines   // ["2"]
/// ```
struct TerminalScreen {
  /// The rows, top first, each as wide as it was written (no trailing padding).
  private(set) var rows: [[Character]] = [[]]
  /// The cursor's row and column, from 0.
  private(set) var row = 0
  private(set) var column = 0
  /// How many columns a row holds before text wraps to the next.
  let columns: Int

  /// The screen after `bytes`, on a terminal `columns` wide.
  init(_ bytes: [UInt8], columns: Int = 100) {
    self.columns = columns
    let text = String(decoding: bytes, as: UTF8.self)
    var characters = text.makeIterator()
    while let character = characters.next() {
      switch character {
      case "\r": column = 0
      case "\n": moveDown()
      case "\r\n":  // one Character in Swift
        column = 0
        moveDown()
      case "\u{8}": column = max(0, column - 1)
      case "\t": column = min(columns - 1, (column / 8 + 1) * 8)
      case "\u{1B}": escape(&characters)
      default:
        if character.unicodeScalars.allSatisfy({ $0.value < 0x20 || $0.value == 0x7F }) {
          continue  // other controls (bell, …) show nothing
        }
        put(character)
      }
    }
  }

  /// The text of every row, trailing spaces removed, without the empty rows at the end: what
  /// a person reads.
  var lines: [String] {
    var texts = rows.map { row in
      String(row[..<(row.lastIndex { $0 != " " }.map { $0 + 1 } ?? 0)])
    }
    while texts.last?.isEmpty == true { texts.removeLast() }
    return texts
  }

  private mutating func moveDown() {
    row += 1
    while rows.count <= row { rows.append([]) }
  }

  private mutating func put(_ character: Character) {
    if column >= columns {
      column = 0
      moveDown()
    }
    while rows[row].count < column { rows[row].append(" ") }
    if column < rows[row].count {
      rows[row][column] = character
    } else {
      rows[row].append(character)
    }
    column += 1
  }

  /// Reads one escape sequence after its ESC, and does what it does.
  private mutating func escape(_ characters: inout String.Iterator) {
    guard let introducer = characters.next() else { return }
    guard introducer == "[" else { return }  // ESC 7, ESC =, …: two characters, no text
    var parameters = ""
    while let character = characters.next() {
      guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1
      else { return }
      if (0x40...0x7E).contains(scalar.value) {
        control(character, parameters)
        return
      }
      parameters.append(character)
    }
  }

  /// Does the CSI sequence `final` with its parameters.
  private mutating func control(_ final: Character, _ parameters: String) {
    let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map {
      Int($0.filter(\.isNumber)) ?? 0
    }
    let first = numbers.first ?? 0
    let count = max(1, first)
    switch final {
    case "K":
      switch first {
      case 0: rows[row] = Array(rows[row].prefix(column))
      case 1:
        for index in 0..<min(column + 1, rows[row].count) { rows[row][index] = " " }
      default: rows[row] = []
      }
    case "J":
      switch first {
      case 0:
        rows[row] = Array(rows[row].prefix(column))
        rows.removeSubrange((row + 1)...)
      default:
        rows = Array(repeating: [], count: row + 1)
      }
    case "A": row = max(0, row - count)
    case "B":
      for _ in 0..<count { moveDown() }
    case "C": column = min(columns - 1, column + count)
    case "D": column = max(0, column - count)
    case "H", "f":
      row = max(0, first - 1)
      while rows.count <= row { rows.append([]) }
      column = max(0, (numbers.count > 1 ? numbers[1] : 1) - 1)
    default: break  // m (colours), h/l (modes), …
    }
  }
}
