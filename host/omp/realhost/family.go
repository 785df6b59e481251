package realhost

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/internal/realcode"
)

// Host is the family's host name in hosts ranges and -host omp@V.
const Host = "omp"

// Family is OMP's real code for deskcheck-host: the published releases
// deskcheck ships an install for, or a local checkout, each run by
// deskcheck's bun harness over the release's own modules.
var Family = realcode.Family{
	Host:     Host,
	Title:    "OMP",
	Package:  omp.Package,
	Releases: versions,
	Substitute: func(version string) string {
		r, _ := LookupRelease(version)
		return r.Substitute
	},
	Install: func(ctx context.Context, cache, version string, opts realcode.InstallOptions) error {
		_, err := Install(ctx, cache, version, InstallOptions{Substitute: opts.Substitute, Progress: opts.Progress, Start: opts.Start})
		return err
	},
	List:          List,
	Listing:       Listing,
	Remove:        Remove,
	Open:          Open,
	Sources:       "a local OMP checkout's packages/coding-agent (dependencies installed)",
	SourceRuntime: "the bun binary for -host-src (default: an installed release's, else bun on PATH)",
}

// Open starts the harness on an installed release, or on the checkout
// opts.Source, with start (the sandbox) in the run's folder opts.Temp: a
// release whose files differ from those recorded at install is refused
// (ErrChanged) unless opts.AllowChanged.
func Open(ctx context.Context, opts realcode.OpenOptions, start realcode.Start) (realcode.Harness, error) {
	var spec Spec
	if opts.Source != "" {
		s, err := ForCheckout(opts.Source, opts.Cache, opts.Runtime)
		if err != nil {
			return nil, realcode.BadSource(err)
		}
		spec = s
	} else {
		in, err := Lookup(opts.Cache, opts.Version)
		if err != nil {
			return nil, err
		}
		spec = ForInstalled(in)
	}
	spec.AllowChanged = opts.AllowChanged
	h, err := open(ctx, spec, opts.Temp, start, nil)
	if err != nil {
		return nil, err
	}
	return h, nil
}

// List returns the installed releases, oldest first.
func List(cache string) ([]realcode.Installed, error) {
	in, err := installed(cache)
	out := make([]realcode.Installed, len(in))
	for i, r := range in {
		out[i] = realcode.Installed{Version: r.Version, Dir: r.Dir, Bytes: r.Bytes, InstalledAt: r.InstalledAt}
	}
	return out, err
}

// Listing writes OMP's lines of deskcheck-host list: each installed
// release with its size, date and the bytes no other release links, what
// they share and the store holds, and the installable releases.
func Listing(cache string, w io.Writer) error {
	in, err := installed(cache)
	if err != nil {
		return err
	}
	if len(in) == 0 {
		fmt.Fprintln(w, "no release is installed; install one with: deskcheck-host install omp@V")
	}
	usage, err := DiskUsage(cache, in)
	if err != nil {
		return err
	}
	for _, r := range in {
		note := ""
		if len(r.Substituted) > 0 {
			note = "  (substituted dependencies)"
		}
		fmt.Fprintf(w, "omp@%-8s %8d MB  %s  own %s%s\n", r.Version, r.Bytes>>20, r.InstalledAt.Format(time.DateOnly), realcode.HumanBytes(usage.Own[r.Version]), note)
	}
	if len(in) > 0 {
		fmt.Fprintf(w, "shared by two releases or more: %s, counted once; the store %s holds %s, %s of it (its index, files of removed releases) linked by none\n",
			realcode.HumanBytes(usage.Shared), StoreDir(cache), realcode.HumanBytes(usage.Store), realcode.HumanBytes(usage.Unlinked))
		fmt.Fprintf(w, "the cache folder takes %s on disk\n", realcode.HumanBytes(usage.Total))
	}
	fmt.Fprintf(w, "installable: %s\n", strings.Join(versions(), ", "))
	return nil
}

// versions are the installable releases, oldest first.
func versions() []string {
	var out []string
	for _, r := range Releases() {
		out = append(out, r.Version)
	}
	return out
}
