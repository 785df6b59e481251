// Package realhost is deskcheck-host's driver of real code: it installs,
// lists, removes, sandboxes, runs and judges the real code every family
// declares through internal/realcode (host/all/real lists them), the same
// way for each, and names no family.
//
// A family's package (under host/<name>/) says how a release is installed
// and how its harness is prepared; the driver starts that harness only in
// the sandbox of internal/sandbox (OpenFamily; InstallStart for an
// install that runs it): a read-only view of the runtime, its libraries
// and the release, one writable temporary folder, no network, a PID
// namespace that dies with the run, a time limit and a bound on what the
// harness may answer. A family's source folder (deskcheck-host verify
// -host-src) runs only in the sandbox. The desk's strings travel only as
// JSON lines on the harness's standard input.
//
// It judges through verifier, so it lives beside the engine, not under
// host/: no package of host/ imports the engine, the reports or this
// driver. Judge gives each case its verdict on the real code beside the
// model's, and Section makes the runs the report's "model against real
// code" section, which the reports render. Only cmd/deskcheck-host and the
// real-code tests import it; cmd/deskcheck never does.
package realhost
