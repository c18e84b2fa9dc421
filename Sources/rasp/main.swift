// The `rasp` executable: the command line of RaspCLI with the built-in domains.
// RaspCommandLine.main ignores SIGPIPE, wires the process's streams and exits with the status.
import RaspCLI

RaspCommandLine.main()
