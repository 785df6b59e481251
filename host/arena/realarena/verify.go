package realarena

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/deskcheck/deskcheck/host/arena"
)

// VerifyOptions select what Verify runs.
type VerifyOptions struct {
	// Adapters to run, in order; empty means every adapter.
	Adapters []string
	// Fault switches one of the adapters' faults on, in the real adapter
	// and in its model.
	Fault string
	// NoNetNS runs the adapters without a new network namespace (on
	// loopback TCP) where unshare is refused.
	NoNetNS bool
	// Start, when set, starts each adapter process (in a sandbox of the
	// command's choosing) instead of unshare -rn.
	Start func(context.Context, Command) (*Started, error)
}

// Verify judges desk's arena cases on each selected installed adapter and
// prints, per adapter, one line per case, then the per-adapter table and
// each run's provenance. It returns the exit code of deskcheck-host
// verify: 0 when every case holds on every adapter run and its model
// agrees, 1 when one does not, 2 on invalid input, an unknown adapter or
// fault, or a refused sandbox. An adapter that is not installed is not
// run (its install command is printed); under CI=true that is exit 2.
func Verify(ctx context.Context, w io.Writer, desk []byte, opt VerifyOptions) int {
	if opt.Fault != "" {
		if _, ok := arena.FaultNamed(opt.Fault); !ok {
			fmt.Fprintf(w, "deskcheck-host: unknown fault %q for the arena adapters\n", opt.Fault)
			return 2
		}
		fmt.Fprintf(w, "FAULT SWITCHED ON: %s — results do not describe the adapter\n", opt.Fault)
	}
	names := opt.Adapters
	if len(names) == 0 {
		names = Adapters
	}
	for _, n := range names {
		if _, ok := arena.AdapterNamed(n); !ok {
			fmt.Fprintf(w, "deskcheck-host: unknown adapter %q; the adapters are %s\n", n, strings.Join(Adapters, ", "))
			return 2
		}
	}
	cases, notApplicable, err := CasesOf(desk)
	if err != nil {
		fmt.Fprintf(w, "deskcheck-host: %v\n", err)
		return 2
	}
	for _, id := range notApplicable {
		fmt.Fprintf(w, "n/a  %s  not applicable to the arena adapters (another scenario)\n", id)
	}
	wrap, network := []string{"unshare", "-rn", "--"}, "unix"
	if opt.Start != nil {
		wrap = nil
	} else if err := exec.CommandContext(ctx, "unshare", "-rn", "--", "true").Run(); err != nil {
		if !opt.NoNetNS {
			fmt.Fprintf(w, "deskcheck-host: unshare -rn is refused here (%v); -no-netns runs the adapters without a new network namespace\n", err)
			return 2
		}
		wrap, network = nil, "tcp"
		fmt.Fprintln(w, "no new network namespace: the adapter's clients point only at the recorders, but the OS does not stop other connections")
	}
	code := 0
	var js []*Judgement
	for _, name := range names {
		py, err := Python(name)
		if err != nil {
			fmt.Fprintf(w, "not run: %v\n", err)
			if os.Getenv("CI") == "true" {
				code = 2
			}
			continue
		}
		var on []Case
		for _, c := range cases {
			if c.On(name) {
				on = append(on, c)
			} else {
				fmt.Fprintf(w, "n/a  %s  not judged on %s: its hosts range is %q\n", c.ID, name, c.Range)
			}
		}
		if len(on) == 0 {
			continue
		}
		j, err := Judge(ctx, Config{Adapter: name, Python: py, Fault: opt.Fault, Wrap: wrap, Start: opt.Start, Network: network}, on)
		if err != nil {
			fmt.Fprintf(w, "ERRORED %s: %v\n", name, err)
			code = max(code, 1)
			continue
		}
		a, _ := arena.AdapterNamed(name)
		fmt.Fprintf(w, "%s:\n", a.Framework())
		for _, c := range j.Cases {
			switch {
			case len(c.Mismatches) > 0:
				fmt.Fprintf(w, "DOES NOT HOLD  %s  (%s)\n", c.ID, strings.Join(c.Mismatches, ", "))
			case len(c.Disagreements) > 0:
				fmt.Fprintf(w, "MODEL DISAGREES  %s  (%s)\n", c.ID, strings.Join(c.Disagreements, ", "))
			default:
				fmt.Fprintf(w, "holds  %s\n", c.ID)
			}
			if c.Errored != "" {
				fmt.Fprintf(w, "       the adapter did not finish it: %s\n", c.Errored)
			}
		}
		if !j.Holds() {
			code = max(code, 1)
		}
		js = append(js, j)
	}
	if len(js) > 0 {
		fmt.Fprint(w, Table(js))
		for _, j := range js {
			b, _ := json.Marshal(j.Provenance)
			fmt.Fprintf(w, "provenance %s: %s\n", j.Adapter, b)
		}
	}
	return code
}
