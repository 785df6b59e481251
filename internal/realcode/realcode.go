// Package realcode is how a host family declares its real code to
// deskcheck-host: the releases it can install, where they are installed,
// and the harness process that answers cases on a release's own modules.
//
// A family's harness package (under host/<name>/) fills a Family; the
// driver (realhost) installs, lists and removes releases through it, and
// starts the harness only through the Start it passes in, which is the
// sandbox: no package of host/ starts a harness itself. The package
// imports nothing of deskcheck's engine; of the families' vocabulary
// (scenario) it takes the boundary-response counts a harness may report.
package realcode

import (
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/deskcheck/deskcheck/scenario"
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
	// Own is what the release alone takes on disk, beside what it shares
	// with other releases (Family.Shared); zero when the family keeps no
	// shared files.
	Own int64
	// Note says more of the install in a few words ("Python 3.11.7").
	Note string
}

// Case is one case for a harness: its given block as written.
type Case struct {
	// ID is the case's DESK/CASE.
	ID       string
	Scenario string
	Given    []byte
	// Expected is the case's expected block as written, given to the
	// harness's Go side only, never to the real code: a harness whose
	// recorders count the boundary-response dimensions takes their
	// denominators from it, as the model does. Nil where the driver does
	// not pass it.
	Expected []byte
}

// Answer is a harness's answer to one case: the observations keyed as
// the case's expected block, or why it could not run.
type Answer struct {
	Observed      map[string]any
	NotApplicable string
	Error         string
	// Boundary is the case's part in the boundary-response dimensions on
	// the real code, counted from the harness's own recorders; nil when
	// the harness counts none.
	Boundary *scenario.Boundary
}

// Provenanced is a Harness that says, after its run, exactly what ran
// (a run id, the packages it found, its settings): every report of the
// run shows it.
type Provenanced interface {
	Provenance() json.RawMessage
}

// Sandbox names what a family's runtime needs of the sandbox the driver
// starts it in.
type Sandbox string

// The sandboxes.
const (
	// SandboxRuntime: the runtime is a program (bun, node) whose
	// libraries, with those of Program.Native, are made readable;
	// where bubblewrap cannot make the sandbox, a published release
	// runs with a warning and the isolation line says what is missing.
	SandboxRuntime Sandbox = ""
	// SandboxPythonVenv: the runtime is a venv's interpreter; the venv,
	// the Python installation its pyvenv.cfg names and every shared
	// object under them are made readable, and nothing runs where
	// bubblewrap cannot make the sandbox.
	SandboxPythonVenv Sandbox = "python-venv"
)

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
	// Sandbox is what the family's runtime needs of the sandbox.
	Sandbox Sandbox
	// Every makes the bare host name select every installed release (a
	// family whose releases are alternatives side by side, not
	// successive versions); otherwise it selects the newest installed.
	Every bool
	// Resolve reads the other spellings of a release the family accepts
	// (a short name, an alias) besides HOST@VERSION: ok is false when s
	// is none of the family's; version is "" for the bare host name. Nil
	// reads HOST@VERSION only.
	Resolve func(s string) (version string, ok bool, err error)
	// Shared says in a line what the installed releases share on disk
	// (a download cache, a store) and how much it takes; nil when they
	// share nothing.
	Shared func(cache string) (string, error)
}
