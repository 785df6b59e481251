// Package realcode is how a host family declares its real code to
// deskcheck-host: the releases it can install, where they are installed,
// and the harness process that answers cases on a release's own modules.
//
// A family's harness package (under host/<name>/) fills a Family; the
// driver (realhost) installs, lists and removes releases through it, and
// starts the harness only through the Start it passes in, which is the
// sandbox: no package of host/ starts a harness itself. The package
// imports nothing of deskcheck's engine.
package realcode

import (
	"context"
	"io"
	"time"
)

// Program is a harness process to start: a runtime running the family's
// own harness files, with paths deskcheck chose on its command line and
// never a desk's content.
type Program struct {
	// Runtime is the absolute path of the runtime (node, bun, python).
	Runtime string
	Args    []string
	// Env is the whole environment, built from nothing.
	Env []string
	// Temp is the one writable folder; Dir, the working folder, is
	// inside it.
	Temp string
	Dir  string
	// ReadOnly are the folders the runtime may read besides itself and
	// its libraries: the release and the harness.
	ReadOnly []string
	// Native are shared objects the release loads.
	Native []string
	// Stderr receives the runtime's standard error; nil discards it.
	Stderr io.Writer
}

// Proc is a started Program.
type Proc struct {
	Stdin  io.WriteCloser
	Stdout io.Reader
	// Isolation says what the sandbox allowed the process; Sandboxed is
	// true when it ran in the sandbox.
	Isolation string
	Sandboxed bool
	Kill      func()
	Wait      func() error
}

// Start starts a Program; the driver passes the sandbox.
type Start func(context.Context, Program) (*Proc, error)

// Installed is one installed release.
type Installed struct {
	Version     string
	Dir         string
	Bytes       int64
	InstalledAt time.Time
}

// Case is one case for a harness: its given block as written.
type Case struct {
	ID       string
	Scenario string
	Given    []byte
}

// Answer is a harness's answer to one case: the observations keyed as
// the case's expected block, or why it could not run.
type Answer struct {
	Observed      map[string]any
	NotApplicable string
	Error         string
}

// Harness is a running harness on one release.
type Harness interface {
	// Release is the release the harness loaded, as it reports it.
	Release() string
	// Runtime names the runtime and its version ("node 20.19.2").
	Runtime() string
	// Adaptations are what the harness replaced around the release's
	// modules.
	Adaptations() []string
	// Run answers cases in order.
	Run(ctx context.Context, cases []Case) ([]Answer, error)
	// Close ends the process.
	Close() error
}

// Family is a host family's real code.
type Family struct {
	// Host is the family's host name, as desks name it in hosts ranges
	// and -host NAME@V.
	Host string
	// Package names what is installed (an npm package).
	Package string
	// Releases are the installable releases, oldest first.
	Releases func() []string
	// Install installs a release into the cache folder, the one step
	// that reaches the network, and says what it did on progress.
	Install func(ctx context.Context, cache, version string, progress io.Writer) error
	// List returns the installed releases, oldest first.
	List func(cache string) ([]Installed, error)
	// Remove removes an installed release.
	Remove func(cache, version string) error
	// Open prepares a run of an installed release in the writable
	// folder temp and starts its harness with start.
	Open func(ctx context.Context, cache, version, temp string, start Start) (Harness, error)
}
