#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import RaspJSON

/// Writes a copy of a benchmark log in another ``BenchLogFormat``, line by line with
/// ``BenchLogConverter`` — the converter `rasp-bench generate --format` uses — in constant
/// memory.
///
/// ```swift
/// let converted = try LogConversion.convert(
///   "bench-output/events.jsonl", to: "bench-output/events-fsa.jsonl", format: .fsa)
/// converted.events   // 1,000,000
/// ```
enum LogConversion {
  /// The size of the blocks written.
  static let blockSize = 1 << 20

  /// Converts the log at `path` into `format`, written to `outputPath`.
  ///
  /// - Parameters:
  ///   - path: A log in the layout `rasp-bench generate` writes.
  ///   - outputPath: The file to write; replaced if it exists.
  ///   - format: The format to write.
  /// - Returns: The file written, its lines and bytes.
  /// - Throws: ``BenchError/file(_:)`` when a file cannot be read or written, or a line is not
  ///   in the generator's layout (naming the line).
  static func convert(
    _ path: String, to outputPath: String, format: BenchLogFormat
  ) throws(BenchError) -> BenchReport.LogFile {
    guard let source = FileSource(path: path) else { throw .file("cannot read '\(path)'") }
    let reader = JSONLinesReader(source: source)
    let descriptor = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw .file("cannot write '\(outputPath)'") }
    defer { close(descriptor) }

    var converter = BenchLogConverter(format: format)
    var block: [UInt8] = []
    block.reserveCapacity(blockSize + 4096)
    var written = 0
    func flush() throws(BenchError) {
      guard block.withUnsafeBytes({ FileBytes.writeAll($0, to: descriptor) }) == nil else {
        throw .file("cannot write '\(outputPath)'")
      }
      written += block.count
      block.removeAll(keepingCapacity: true)
    }
    while true {
      let next: JSONLine?
      do { next = try reader.next() } catch { throw .file("cannot read '\(path)': \(error)") }
      guard let line = next else { break }
      guard !line.isTooLong, converter.append(line.bytes, to: &block) else {
        let text = String(decoding: line.bytes.prefix(120), as: UTF8.self)
        throw .file(
          "\(path):\(line.number): not a line as 'rasp-bench generate' writes it: '\(text)'")
      }
      if block.count >= blockSize { try flush() }
    }
    try flush()
    return BenchReport.LogFile(path: outputPath, events: converter.lineNumber, bytes: written)
  }

  /// Where the benchmark writes the log at `path` converted into `format`: in `directory`, named
  /// after the log, `events-1m.jsonl` becoming `events-1m-fsa.jsonl`.
  ///
  /// - Parameters:
  ///   - path: The log in rasp's own format.
  ///   - format: The format it is converted into.
  ///   - directory: The scratch directory.
  /// - Returns: The path of the converted log.
  static func convertedPath(
    of path: String, in format: BenchLogFormat, directory: String
  ) -> String {
    var name = path.split(separator: "/").last.map(String.init) ?? path
    if name.hasSuffix(".jsonl") { name.removeLast(".jsonl".count) }
    return directory + "/" + name + "-" + format.rawValue + ".jsonl"
  }
}
