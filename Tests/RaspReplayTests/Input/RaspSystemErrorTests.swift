#if canImport(Glibc)
  import Glibc
#endif
import Testing

@testable import RaspReplay

/// The system's messages for error numbers, as messages about inputs quote them.
@Suite struct RaspSystemErrorTests {
  @Test func namesAnErrorAsTheSystemDoes() {
    #expect(RaspSystemError.message(ENOENT) == "No such file or directory")
    #expect(RaspSystemError.message(EACCES) == "Permission denied")
    #expect(RaspSystemError.message(EISDIR) == "Is a directory")
  }

  /// glibc names every number, even one it does not know; the fallback, `error N`, is for a
  /// system that gives no text.
  @Test func anUnknownNumberIsStillNamed() {
    #expect(RaspSystemError.message(99_999) == "Unknown error 99999")
  }
}
