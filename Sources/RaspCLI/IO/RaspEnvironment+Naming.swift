extension RaspEnvironment {
  /// `text` with the command's name `rasp` — as a word before `:`, a space or the end of a
  /// line (`rasp: error:`, `Usage: rasp replay`, `'rasp check --help'`) — written as
  /// ``programName``; `text` itself for `rasp`.
  ///
  /// A command of the user's own (`cart-rasp`) thus names itself in its help and messages,
  /// while `rasp.dropped`, `rasp(1)` and words that contain `rasp` stay as they are.
  func naming(_ text: String) -> String {
    guard programName != "rasp" else { return text }
    let word = Array("rasp".utf8)
    let bytes = Array(text.utf8)
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let startsWord = index == 0 || " '`([\n\t".utf8.contains(bytes[index - 1])
      let end = index + word.count
      if startsWord, end <= bytes.count, Array(bytes[index..<end]) == word,
        end == bytes.count || ": \n".utf8.contains(bytes[end])
      {
        result.append(contentsOf: programName.utf8)
        index = end
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: result, as: UTF8.self)
  }
}
