import RaspJSON

@testable import RaspCLI

/// Runs the command line in-process with memory streams and returns what it printed, as on a
/// machine of ``processors`` processors.
struct CommandRun {
  /// The processors the commands run as if they had: `-j` takes at most one thread per
  /// processor, and the tests' `-j 2` and `-j 3` must run on two and three threads (the pool
  /// of kernels) on any machine. The output is the same for every number of threads.
  static let processors = 4

  let status: Int32
  let standardOutput: String
  let standardError: String

  /// Runs `rasp <arguments>` with `directory` as working directory and `input` on standard input.
  static func run(
    _ arguments: [String], in directory: String? = nil, input: [UInt8] = [],
    variables: [String: String] = [:], brokenPipeAfter: Int? = nil
  ) -> CommandRun {
    let output = RaspMemoryOutput(brokenPipeAfter: brokenPipeAfter)
    let errors = RaspMemoryOutput()
    var environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource(input, chunkSize: 7)), standardOutput: output,
      standardError: errors, variables: variables, workingDirectory: directory)
    environment.processorCount = processors
    let status = RaspCommandLine.run(arguments: arguments, environment: environment)
    return CommandRun(status: status, standardOutput: output.text, standardError: errors.text)
  }

  /// Runs a command with standard output and standard error going to one stream, in the order
  /// they were written, as a terminal shows them.
  static func runInterleaved(_ arguments: [String], in directory: String? = nil) -> (
    status: Int32, text: String
  ) {
    let both = RaspMemoryOutput()
    var environment = RaspEnvironment(
      standardInput: .memory(JSONMemorySource([])), standardOutput: both, standardError: both,
      variables: [:], workingDirectory: directory)
    environment.processorCount = processors
    let status = RaspCommandLine.run(arguments: arguments, environment: environment)
    return (status, both.text)
  }
}

/// Splits a command line the way a POSIX shell would for simple cases: spaces separate words,
/// single quotes keep everything literally, double quotes keep spaces, a backslash escapes.
enum ShellWords {
  static func split(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    for character in line {
      if escaped {
        current.append(character)
        escaped = false
        continue
      }
      if let open = quote {
        if character == open {
          quote = nil
        } else if character == "\\", open == "\"" {
          escaped = true
        } else {
          current.append(character)
        }
        continue
      }
      switch character {
      case "'", "\"":
        quote = character
        inWord = true
      case "\\":
        escaped = true
        inWord = true
      case " ", "\t", "\n":
        if inWord { words.append(current) }
        current = ""
        inWord = false
      default:
        current.append(character)
        inWord = true
      }
    }
    if inWord { words.append(current) }
    return words
  }
}
