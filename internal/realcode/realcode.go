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
// It also holds what the families' installs share (files.go): a folder's
// size and sizes written for people, a file replaced whole, the lock
// installs take turns by, and a bounded copy of a process's standard
// error.
package realcode

import (
	"context"
	"encoding/json"
	"errors"
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
	// Over are files mounted read-only over others inside the sandbox: a
	// release's native addon kept packed in its install and inflated
	// into the run's folder for the run. A program with Over runs only
	// in the sandbox; where it cannot be made, Start fails with an error
	// wrapping ErrNoOverlay.
	Over []Overlay
	// Placeholders are absolute paths the sandbox shows as the null
	// device: there for the release's code that checks a program exists,
	// nothing it can run. Without the sandbox they are not made.
	Placeholders []string
	// Binds are folders of the run's folder also seen at fixed paths
	// inside the sandbox (a workspace at /workspace); Dir may lie inside
	// one. A program with Binds runs only in the sandbox; where it cannot
	// be made, Start fails with an error wrapping ErrNoBind and nothing
	// runs.
	Binds []Bind
	// Stderr also receives the runtime's standard error (the driver
	// keeps the first part of it for its messages); nil sends it only
	// to the driver.
	Stderr io.Writer
	// Require runs the program only in the sandbox: code of unknown
	// origin (a source folder) is refused where the sandbox cannot be
	// made, never run without it.
	Require bool
}

// Overlay is one file mounted read-only over another: From (in the run's
// folder) is seen at To (inside a folder the program may read).
type Overlay struct{ From, To string }

// Bind is one folder of the run's folder (From) also seen at another
// path (To) inside the sandbox.
type Bind struct{ From, To string }

// ErrNoBind wraps Start's error for a program with Binds where the
// sandbox, the one thing that can show a folder at another path, cannot
// be made.
var ErrNoBind = errors.New("folders seen at fixed paths need the sandbox")

// ErrNoOverlay wraps Start's error for a program with Over where the
// sandbox, the one thing that can mount a file over another, cannot be
// made.
var ErrNoOverlay = errors.New("files mounted over others need the sandbox")

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

// Hello is what a started harness says of the code it loaded, and what a
// report's real-code section says of each run. A field the harness leaves
// empty is filled by the driver: Package with the
// family's, Root with the run's temporary folder, Source with
// HOST@VERSION.
type Hello struct {
	// Name is the host the harness names itself as; "" when it names
	// none (the driver names every run by its family).
	Name    string `json:"name,omitempty"`
	Package string `json:"package"`
	Release string `json:"release"`
	// Bun is the version of bun, for a harness that runs on it; Runtime
	// names any other runtime and its version ("node v22.1.0").
	Bun     string `json:"bun"`
	Runtime string `json:"runtime,omitempty"`
	// Root is the folder of the code that runs.
	Root string `json:"root"`
	// Modules say which of the modules the harness looks for exist.
	Modules     map[string]bool `json:"modules"`
	Adaptations []string        `json:"adaptations"`
	// Source is HOST@VERSION for an installed release, "checkout DIR"
	// for a source folder, and Commit the commit it is at, when known.
	Source string `json:"source"`
	Commit string `json:"commit,omitempty"`
	// Substituted lists the dependencies installed at another version
	// than the release asks for (name → version).
	Substituted map[string]string `json:"substituted,omitempty"`
	// Isolation says what the sandbox allowed the harness, and Sandboxed
	// whether it ran in one; the driver always sets both from the process
	// it started, whatever the harness said.
	Isolation string `json:"isolation"`
	Sandboxed bool   `json:"sandboxed"`
	// Changed lists the files of the installed release that differ from
	// those recorded at install (a run allowed with AllowChanged).
	Changed []string `json:"changed,omitempty"`
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
	// Inexpressible, with NotApplicable, says the release has what the
	// case needs but cannot be given the case's values at all (a settings
	// file that cannot hold them): not applicable there, whatever the
	// model runs.
	Inexpressible bool
	Error         string
	// AbsentTouched names the stand-ins for modules absent from
	// substituted dependencies that the case used (each threw).
	AbsentTouched []string
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
	// Hello is what the harness says of the code it loaded: the
	// release, the runtime and what it replaced around the release's
	// modules.
	Hello() Hello
	// Run answers cases in order.
	Run(ctx context.Context, cases []Case) ([]Answer, error)
	// Close ends the process.
	Close() error
}

// InstallOptions steer a family's Install.
type InstallOptions struct {
	// Substitute accepts, for a release whose exact dependencies are
	// not published, the nearest published ones (every later result
	// says so).
	Substitute bool
	// Progress receives one line per step.
	Progress io.Writer
	// Start is the sandbox, for an install that runs the release's
	// harness once (to check that it starts, or to fill a cache).
	Start Start
}

// OpenOptions say what a family's Open runs: an installed release, or
// a source folder of the family's code.
type OpenOptions struct {
	// Cache is the cache folder and Version the installed release;
	// Version is "" for a source folder.
	Cache, Version string
	// Source is a source folder (deskcheck-host verify -host-src), its
	// dependencies installed by the user; "" for an installed release.
	Source string
	// Runtime is the runtime binary the user chose (-bun); "" for the
	// family's own.
	Runtime string
	// AllowChanged runs an installed release whose files differ from
	// those recorded at install; the hello lists them (Changed).
	AllowChanged bool
	// Temp is the run's one writable folder, made and removed by the
	// driver.
	Temp string
	// Fault names a fault of the family's own harness to switch on
	// (one of Family.Faults), "" for none.
	Fault string
}

// ErrNeedsSubstitute is wrapped by Install's error for a release whose
// exact dependencies are not published, when Substitute is not set.
var ErrNeedsSubstitute = errors.New("the release cannot be installed exactly as published")

// ErrChanged is wrapped by Open's error for an installed release whose
// files are not those recorded at install, when AllowChanged is not set.
var ErrChanged = errors.New("the installed release's files changed since it was installed")

// ErrSource is matched (errors.Is) by Open's error for a source folder
// that is not the family's code or cannot be run as given: the user's
// input is wrong, the run did not fail.
var ErrSource = errors.New("not a source folder the family runs")

// BadSource marks err as ErrSource, its message unchanged.
func BadSource(err error) error { return badSource{err} }

type badSource struct{ error }

func (b badSource) Is(target error) bool { return target == ErrSource }
func (b badSource) Unwrap() error        { return b.error }

// Family is a host family's real code.
type Family struct {
	// Host is the family's host name, as desks name it in hosts ranges
	// and -host NAME@V.
	Host string
	// Title names the family's code for people ("OMP", "the Gemini
	// CLI"), in deskcheck-host's help.
	Title string
	// Package names what is installed (an npm package).
	Package string
	// Releases are the installable releases, oldest first.
	Releases func() []string
	// Substitute says why a release installs only on substituted
	// dependencies (install -substitute), "" when it installs as
	// published; nil when every release does.
	Substitute func(version string) string
	// Install installs a release into the cache folder, the one step
	// that reaches the network, and says what it did on progress.
	Install func(ctx context.Context, cache, version string, opts InstallOptions) error
	// List returns the installed releases, oldest first.
	List func(cache string) ([]Installed, error)
	// Listing writes the family's lines of deskcheck-host list: its
	// installed releases, what they take on disk and the installable
	// ones. Nil writes a line per installed release (its size, date,
	// Own and Note), what they share (Shared) and the installable ones.
	Listing func(cache string, w io.Writer) error
	// Remove removes an installed release.
	Remove func(cache, version string) error
	// Open prepares a run in the writable folder opts.Temp and starts
	// its harness with start.
	Open func(ctx context.Context, opts OpenOptions, start Start) (Harness, error)
	// Sources describes the source folder Open runs for -host-src ("a
	// local OMP checkout's packages/coding-agent"), and SourceRuntime
	// the runtime -bun names for it; "" when the family runs none.
	Sources, SourceRuntime string
	// Sandbox is what the family's runtime needs of the sandbox.
	Sandbox Sandbox
	// Faults lists the faults the family's harness can switch on for a
	// negative control (deskcheck-host verify -fault NAME), each the name
	// of a model fault of the host (HOST/NAME), which runs beside it; nil
	// when it has none.
	Faults func() []string
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
	// (a download cache, a store) and how much it takes, for the default
	// lines of deskcheck-host list (Listing nil); nil when they share
	// nothing.
	Shared func(cache string) (string, error)
}
