// Package realhost is OMP's real code for deskcheck-host, declared
// through internal/realcode (Family): the published releases of
// @oh-my-pi/pi-coding-agent installed into deskcheck's cache folder, or a
// local checkout's packages/coding-agent, each answering cases through
// deskcheck's own bun harness (harness/), once per release, speaking JSON
// lines over a pipe.
//
// It starts no harness itself: the driver (realhost at the top level)
// passes the sandbox of internal/sandbox as the Start of Open and Install,
// and only that starts bun. Inert by construction: desk strings travel only
// on the pipe (never argv, never a shell); HOME and PI_CODING_AGENT_DIR are
// empty temporary folders; the release's logger is switched off; bun runs
// with --no-install from the harness folder with an environment built from
// nothing (no proxy variables). The harness itself replaces the
// file-changing functions of node:fs's module object with ones that throw
// (13.x and 14.x still make an empty ~/.omp/logs in the temporary home by
// a call that does not reach; what any code can write is the sandbox's one
// temporary folder) and hands the release recording adapters only. The release's own modules run; the desk's
// content (its commands, paths, texts) is never executed.
//
// The one step that reaches the network is Install: pnpm (a pinned
// version, run through npm exec) installs the package-lock.json deskcheck
// ships per release (releases/) with no install scripts, in npm's flat
// layout, into the cache folder; every file is a hard link into the
// cache's content-addressed store, so releases share the files they have
// in common and a release whose packages are in the store downloads
// nothing. Install records every file's hash (deskcheck-files.json), and
// Open checks the release against it before it runs.
package realhost
