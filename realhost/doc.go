// Package realhost runs deskcheck cases through the real code of the OMP
// coding agent: a published release of @oh-my-pi/pi-coding-agent installed
// into deskcheck's cache folder, or a local checkout's packages/coding-agent.
//
// It is the only package of deskcheck that starts a program, and the only
// program it starts is bun running deskcheck's own harness (harness/), once
// per release, speaking JSON lines over a pipe. Only cmd/deskcheck-host and
// the conformance tests import it; cmd/deskcheck never does. It judges
// through verifier, so it lives beside the engine, not under host/: no
// package of host/ imports the engine or the reports.
//
// Inert by construction: desk strings travel only on the pipe (never argv,
// never a shell); HOME and PI_CODING_AGENT_DIR are empty temporary folders;
// the release's logger is switched off; bun runs with --no-install from the
// harness folder with an environment built from nothing (no proxy
// variables). Around it, the sandbox of internal/sandbox (bubblewrap): no
// network, a read-only view of only bun, its libraries and the release,
// one writable temporary folder, a PID namespace that dies with the run,
// and a time limit that kills it. A checkout runs only in the sandbox. The
// harness itself replaces every file-changing call of node:fs with one
// that throws and hands the release recording adapters only. The
// release's own modules run; the desk's content (its commands, paths,
// texts) is never executed.
//
// The one step that reaches the network is Install: pnpm (a pinned
// version, run through npm exec) installs the package-lock.json deskcheck
// ships per release (releases/) with no install scripts, in npm's flat
// layout, into the cache folder; every file is a hard link into the
// cache's content-addressed store, so releases share the files they have
// in common and a release whose packages are in the store downloads
// nothing.
package realhost
