import Dispatch
import Foundation
import RaspReplay

extension RedactCommand {
  /// How many threads redact a log's lines: the machine's cores, at most four.
  static var redactingThreads: Int {
    max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))
  }

  /// One thread's share of a round: a run of whole lines, what they became, and their counts
  /// (lines numbered from the run's first).
  struct LineRun {
    var input: [UInt8] = []
    var output: [UInt8] = []
    var result = Result()
    var error: RaspCommandError?
  }

  /// Redacts a log as ``redact(_:file:redactor:write:)`` does, on `threads` threads: each round
  /// reads a run of whole lines of about a megabyte for each thread, redacts the runs at once,
  /// each with a copy of `redactor` of its own, and hands their output on in the log's order.
  ///
  /// The output, the counts and the first mistake (with its line) are those of one thread:
  /// a line's redaction depends on nothing but the line. `--verify`'s record of each change
  /// is kept on one thread only (``Redactor/collectsChanges``), so this is for redacting
  /// without it.
  ///
  /// ```swift
  /// let result = try RedactCommand.redact(&source, file: "events.jsonl", redactor: redactor,
  ///                                       threads: 2) { try writer.write($0) }
  /// ```
  static func redact(
    _ source: inout RaspInputSource, file: String, redactor: Redactor, threads: Int,
    write: ([UInt8]) throws(RaspCommandError) -> Void
  ) throws(RaspCommandError) -> Result {
    var redactors = Array(repeating: redactor, count: max(1, threads))
    var runs = Array(repeating: LineRun(), count: redactors.count)
    var total = Result()
    var carried: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: outputChunk)
    var isAtEnd = false
    while !isAtEnd {
      var count = 0
      while count < runs.count, !isAtEnd {
        var input: [UInt8] = []
        swap(&input, &runs[count].input)
        input.removeAll(keepingCapacity: true)
        input.append(contentsOf: carried)
        carried.removeAll(keepingCapacity: true)
        while true {
          if input.count >= outputChunk, let last = input.lastIndex(of: UInt8(ascii: "\n")) {
            carried.append(contentsOf: input[(last + 1)...])
            input.removeSubrange((last + 1)...)
            break
          }
          let read: Int
          do {
            read = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
          } catch {
            throw .cannotOpen(file, reason: "\(error)")
          }
          if read == 0 {
            isAtEnd = true
            break
          }
          input.append(contentsOf: buffer[..<read])
        }
        swap(&input, &runs[count].input)
        count += 1
      }
      redactRuns(count, of: &runs, redactors: &redactors, file: file)
      for run in runs[..<count] {
        if let error = run.error {
          guard case .input(let file, let line, let column, let reason) = error else { throw error }
          throw .input(file: file, line: total.lines + line, column: column, reason: reason)
        }
        if total.firstNotJSON == nil, let first = run.result.firstNotJSON {
          total.firstNotJSON = total.lines + first
        }
        total.lines += run.result.lines
        total.changedLines += run.result.changedLines
        total.changes += run.result.changes
        total.notJSON += run.result.notJSON
        if !run.output.isEmpty { try write(run.output) }
      }
    }
    return total
  }

  /// Redacts the first `count` runs at once, run `n` with redactor `n`, each on a thread.
  private static func redactRuns(
    _ count: Int, of runs: inout [LineRun], redactors: inout [Redactor], file: String
  ) {
    /// What the threads are handed: each changes only its own run and redactor.
    struct Work: @unchecked Sendable {
      let runs: UnsafeMutableBufferPointer<LineRun>
      let redactors: UnsafeMutableBufferPointer<Redactor>
      let file: String
    }
    runs.withUnsafeMutableBufferPointer { runs in
      redactors.withUnsafeMutableBufferPointer { redactors in
        let work = Work(runs: runs, redactors: redactors, file: file)
        DispatchQueue.concurrentPerform(iterations: count) { index in
          var output: [UInt8] = []
          swap(&output, &work.runs[index].output)
          output.removeAll(keepingCapacity: true)
          var result = Result()
          var error: RaspCommandError?
          do throws(RaspCommandError) {
            _ = try work.runs[index].input.withUnsafeBufferPointer {
              (bytes) throws(RaspCommandError) in
              try redactLines(
                bytes, isAtEnd: true, file: work.file, redactor: &work.redactors[index],
                result: &result, output: &output)
            }
          } catch let thrown {
            error = thrown
          }
          work.runs[index].output = output
          work.runs[index].result = result
          work.runs[index].error = error
        }
      }
    }
  }
}
