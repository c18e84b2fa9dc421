import Dispatch
import RaspReplay

extension RedactCommand {
  /// How many threads redact a log's lines: the machine's cores, at most four.
  static var redactingThreads: Int {
    max(1, min(RaspEnvironment.onlineProcessors(), 4))
  }

  /// How many bytes of whole lines a run holds, at least (a line longer than it is one run).
  static let runBytes = 1 << 17

  /// How many runs a round has for each thread: more runs than threads, so that the thread
  /// that reads and writes goes on to redact when it is done, and no thread waits long for
  /// the round's last run.
  static let runsPerThread = 4

  /// A share of a round: a run of whole lines, what they became, and their counts (lines
  /// numbered from the run's first).
  struct LineRun {
    var input: [UInt8] = []
    var output: [UInt8] = []
    var result = Result()
    var error: RaspCommandError?
  }

  /// Redacts a log as ``redact(_:file:redactor:write:)`` does, on `threads` threads, reading
  /// and writing while the lines are redacted.
  ///
  /// The log is read in rounds of `threads` × ``runsPerThread`` runs of whole lines of about
  /// ``runBytes`` each. While one round's runs are redacted at once, each with a copy of
  /// `redactor` of its own, one more task writes the previous round's output and reads the
  /// next round's runs; then the rounds swap. So the reading and the writing, on one thread
  /// at a time and in the log's order, overlap the redaction instead of stopping it.
  ///
  /// The output, the counts and the first mistake (with its line) are those of one thread:
  /// a line's redaction depends on nothing but the line. On a mistake, the output of the lines
  /// before its run is written, as one thread writes it, and nothing after. `--verify`'s record
  /// of each change is kept on one thread only (``Redactor/collectsChanges``), so this is for
  /// redacting without it.
  ///
  /// ```swift
  /// let result = try RedactCommand.redact(&source, file: "events.jsonl", redactor: redactor,
  ///                                       threads: 2) { try writer.write($0) }
  /// ```
  static func redact(
    _ source: inout RaspInputSource, file: String, redactor: Redactor, threads: Int,
    write: ([UInt8]) throws(RaspCommandError) -> Void
  ) throws(RaspCommandError) -> Result {
    let width = max(1, threads) * runsPerThread
    var redactors = Array(repeating: redactor, count: width)
    // The round being redacted, and the round written from and read into meanwhile.
    var current = Array(repeating: LineRun(), count: width)
    var io = RoundIO(other: current, reader: RunReader(file: file))
    var count = try io.reader.read(width, into: &current, from: &source)
    var written = 0
    var total = Result()
    while count > 0 {
      let step = try redactRound(
        count, of: &current, writing: written, reading: width, io: &io, redactors: &redactors,
        source: &source, file: file, write: write)
      for index in 0..<count {
        if let error = current[index].error {
          // What one thread writes before the mistake: the runs of this round before it.
          for run in current[..<index] where !run.output.isEmpty { try write(run.output) }
          guard case .input(let file, let line, let column, let reason) = error else { throw error }
          throw .input(file: file, line: total.lines + line, column: column, reason: reason)
        }
        total.add(current[index].result)
      }
      written = count
      count = step
      swap(&current, &io.other)
    }
    for run in io.other[..<written] where !run.output.isEmpty { try write(run.output) }
    return total
  }

  /// Redacts the first `count` runs of `runs` at once, run `n` with redactor `n`, each on a
  /// thread, while another writes the first `written` outputs of `io`'s other round in order
  /// and then reads up to `reading` runs into it; how many it read.
  private static func redactRound(
    _ count: Int, of runs: inout [LineRun], writing written: Int, reading: Int,
    io: inout RoundIO, redactors: inout [Redactor], source: inout RaspInputSource, file: String,
    write: ([UInt8]) throws(RaspCommandError) -> Void
  ) throws(RaspCommandError) -> Int {
    /// What the threads are handed: the redacting tasks change only their own run and
    /// redactor, the reading and writing task only the rest.
    struct Work: @unchecked Sendable {
      let runs: UnsafeMutableBufferPointer<LineRun>
      let redactors: UnsafeMutableBufferPointer<Redactor>
      let io: UnsafeMutablePointer<RoundIO>
      let source: UnsafeMutablePointer<RaspInputSource>
      let write: ([UInt8]) throws(RaspCommandError) -> Void
      let file: String
    }
    withoutActuallyEscaping(write) { write in
      runs.withUnsafeMutableBufferPointer { runs in
        redactors.withUnsafeMutableBufferPointer { redactors in
          withUnsafeMutablePointer(to: &io) { io in
            withUnsafeMutablePointer(to: &source) { source in
              let work = Work(
                runs: runs, redactors: redactors, io: io, source: source, write: write,
                file: file)
              // Task 0, taken first, writes and reads; the others redact.
              DispatchQueue.concurrentPerform(iterations: count + 1) { task in
                guard task > 0 else {
                  work.io.pointee.writeAndRead(
                    written, reading: reading, from: &work.source.pointee, write: work.write)
                  return
                }
                redactRun(
                  &work.runs[task - 1], redactor: &work.redactors[task - 1], file: work.file)
              }
            }
          }
        }
      }
    }
    if let failure = io.failure {
      io.failure = nil
      throw failure
    }
    return io.read
  }

  /// What a round's reading and writing task works on, and what it did.
  struct RoundIO {
    /// The round written from and read into.
    var other: [LineRun]
    var reader: RunReader
    /// How many runs it read.
    var read = 0
    var failure: RaspCommandError?

    /// Writes the first `written` outputs of ``other`` in order, then reads up to `reading`
    /// runs into it.
    mutating func writeAndRead(
      _ written: Int, reading: Int, from source: inout RaspInputSource,
      write: ([UInt8]) throws(RaspCommandError) -> Void
    ) {
      do throws(RaspCommandError) {
        for run in other[..<written] where !run.output.isEmpty { try write(run.output) }
        read = try reader.read(reading, into: &other, from: &source)
      } catch let thrown {
        failure = thrown
      }
    }
  }

  /// Redacts one run's lines into its output, noting its counts or its mistake.
  private static func redactRun(_ run: inout LineRun, redactor: inout Redactor, file: String) {
    var output: [UInt8] = []
    swap(&output, &run.output)
    output.removeAll(keepingCapacity: true)
    var result = Result()
    run.error = nil
    do throws(RaspCommandError) {
      _ = try run.input.withUnsafeBufferPointer { (bytes) throws(RaspCommandError) in
        try redactLines(
          bytes, isAtEnd: true, file: file, redactor: &redactor, result: &result,
          output: &output)
      }
    } catch let thrown {
      run.error = thrown
    }
    run.output = output
    run.result = result
  }

  /// Cuts what a log reads into runs of whole lines: the bytes after a run's last line end are
  /// carried to the next.
  struct RunReader {
    let file: String
    private var carried: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: RedactCommand.runBytes)
    private(set) var isAtEnd = false

    init(file: String) {
      self.file = file
    }

    /// Reads up to `limit` runs into the first runs of `runs` (their inputs, emptied first);
    /// how many it read: fewer only at the end of the log.
    mutating func read(
      _ limit: Int, into runs: inout [LineRun], from source: inout RaspInputSource
    ) throws(RaspCommandError) -> Int {
      var count = 0
      while count < limit, !isAtEnd {
        var input: [UInt8] = []
        swap(&input, &runs[count].input)
        input.removeAll(keepingCapacity: true)
        input.append(contentsOf: carried)
        carried.removeAll(keepingCapacity: true)
        while true {
          if input.count >= RedactCommand.runBytes,
            let last = input.lastIndex(of: UInt8(ascii: "\n"))
          {
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
        let isEmpty = input.isEmpty
        swap(&input, &runs[count].input)
        if !isEmpty { count += 1 }
      }
      return count
    }
  }
}

extension RedactCommand.Result {
  /// Adds the counts of the lines after these: `later`'s lines are numbered from its first.
  mutating func add(_ later: Self) {
    if firstNotJSON == nil, let first = later.firstNotJSON { firstNotJSON = lines + first }
    lines += later.lines
    changedLines += later.changedLines
    changes += later.changes
    notJSON += later.notJSON
  }
}
