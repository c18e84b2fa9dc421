import Foundation

/// Why a recorder could not start, or stopped writing.
///
/// A failure to open the first part is thrown by ``RaspRecorder/init(path:configuration:)``;
/// a failure while recording (a full disk, a removed directory) stops the recording, goes to
/// every recorded aggregator's failure channel with origin `.recorder`, and is kept in
/// ``RaspRecorder/failure``. The app is never stopped.
///
/// ```swift
/// do {
///   recorder = try RaspRecorder(path: "/read-only/session.jsonl")
/// } catch {
///   print(error)   // cannot create '/read-only/session.jsonl': Permission denied
/// }
/// ```
public enum RaspRecorderError: Error, Equatable, CustomStringConvertible {
  /// A log file (a part or the golden file) could not be created; `code` is the `errno`.
  case cannotCreate(path: String, code: Int32)
  /// Writing a log file failed; `code` is the `errno` (`ENOSPC` for a full disk).
  case cannotWrite(path: String, code: Int32)
  /// A second aggregator of the same domain: the replay would apply both to one state.
  case domainAlreadyRecorded(String)
  /// A domain recorded with a golden file that the golden snapshots do not hold: list it in
  /// ``RaspRecorderConfiguration/goldenDomains``.
  case notAGoldenDomain(String)
  /// The recorder has finished, and records nothing more.
  case finished

  /// The message, in rasp's style: what failed, on which file, and the system's reason.
  ///
  /// ```swift
  /// RaspRecorderError.cannotWrite(path: "session.jsonl", code: ENOSPC).description
  /// // cannot write 'session.jsonl': No space left on device
  /// ```
  public var description: String {
    switch self {
    case .cannotCreate(let path, let code):
      "cannot create '\(path)': \(String(cString: strerror(code)))"
    case .cannotWrite(let path, let code):
      "cannot write '\(path)': \(String(cString: strerror(code)))"
    case .domainAlreadyRecorded(let name):
      "the domain '\(name)' is already recorded from another aggregator; "
        + "a replay would apply both to one state"
    case .notAGoldenDomain(let name):
      "the domain '\(name)' is not among the golden file's domains; "
        + "add it to the configuration's goldenDomains"
    case .finished:
      "the recorder has finished"
    }
  }
}
