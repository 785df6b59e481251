package verifier

import (
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// Limits bound what a case file may hold, what a case may ask for and what
// a run may do, so that no input can exhaust memory, time or disk. Zero
// fields take the default.
type Limits struct {
	// FileSize bounds one case file, in bytes.
	FileSize int64
	// Depth bounds the nesting of objects and arrays; it may not exceed
	// MaxDepth.
	Depth int
	// Cases bounds the cases (and source-only claims) of one file.
	Cases int
	// Scenario holds limits that scenarios declare, by
	// "<scenario>.<name>" (wrapper.repeat); a limit not set here takes
	// the scenario's default.
	Scenario map[string]int
	// String bounds the length of any string or key, in bytes of its
	// decoded text.
	String int
	// Work bounds the scripted work of one file: the sum, over its cases,
	// of every value their scenarios declare a limit for (see Work).
	Work int
	// RunWork bounds the scripted work of one run: the sum over the
	// selected cases, each counted once per time it runs.
	RunWork int
	// CopyBytes bounds the bytes of case data the cases of one run copy
	// into observations, the trace and the reports, as their scenarios'
	// measured limits count them before anything runs (see
	// scenario.Limit.Measured); one file may not copy more either.
	CopyBytes int
	// Events bounds the trace events one run may record, over all cases.
	Events int
	// TraceBytes bounds the text of those events, in bytes: what the
	// reports grow with.
	TraceBytes int
	// Diagnostics bounds the problems listed for one file; the rest are
	// counted.
	Diagnostics int
}

// MaxDepth is the largest depth limit that can be set: the readers that
// follow the first pass recurse once per level.
const MaxDepth = 10_000

// DefaultLimits are the limits unless the caller sets others.
var DefaultLimits = Limits{
	FileSize: 16 << 20, Depth: 64, Cases: 100_000, String: 64 << 10,
	Work: 300_000, RunWork: 600_000, CopyBytes: 32 << 20, Events: 3_000_000, TraceBytes: 384 << 20, Diagnostics: 100,
}

// WithDefaults fills zero fields from DefaultLimits.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits
	if l.FileSize > 0 {
		d.FileSize = l.FileSize
	}
	if l.Depth > 0 {
		d.Depth = l.Depth
	}
	if l.Cases > 0 {
		d.Cases = l.Cases
	}
	d.Scenario = l.Scenario
	if l.String > 0 {
		d.String = l.String
	}
	if l.Work > 0 {
		d.Work = l.Work
	}
	if l.RunWork > 0 {
		d.RunWork = l.RunWork
	}
	if l.CopyBytes > 0 {
		d.CopyBytes = l.CopyBytes
	}
	if l.Events > 0 {
		d.Events = l.Events
	}
	if l.TraceBytes > 0 {
		d.TraceBytes = l.TraceBytes
	}
	if l.Diagnostics > 0 {
		d.Diagnostics = l.Diagnostics
	}
	return d
}

// Check reports a limit that is not positive, or a depth beyond MaxDepth.
func (l Limits) Check() error {
	for _, x := range []struct {
		name string
		v    int64
	}{{"file size", l.FileSize}, {"depth", int64(l.Depth)}, {"cases", int64(l.Cases)}, {"string", int64(l.String)},
		{"work", int64(l.Work)}, {"run work", int64(l.RunWork)}, {"copy bytes", int64(l.CopyBytes)}, {"events", int64(l.Events)}, {"trace bytes", int64(l.TraceBytes)}, {"diagnostics", int64(l.Diagnostics)}} {
		if x.v <= 0 {
			return fmt.Errorf("the %s limit must be positive, not %d", x.name, x.v)
		}
	}
	if l.Depth > MaxDepth {
		return fmt.Errorf("the depth limit may be at most %d, not %d", MaxDepth, l.Depth)
	}
	for name, v := range l.Scenario {
		if v <= 0 {
			return fmt.Errorf("the %s limit must be positive, not %d", name, v)
		}
	}
	return nil
}

// For resolves the limits a scenario declares: the value set for
// "<scenario>.<name>", else the scenario's default.
func (l Limits) For(sc *scenario.Scenario) map[string]int {
	out := make(map[string]int, len(sc.Limits))
	for _, x := range sc.Limits {
		out[x.Name] = x.Default
		if v, ok := l.Scenario[sc.Name+"."+x.Name]; ok {
			out[x.Name] = v
		}
	}
	return out
}

// CheckNames reports a scenario limit that no scenario of reg declares.
func (l Limits) CheckNames(reg *scenario.Registry) error {
	for name := range l.Scenario {
		scName, limit, _ := strings.Cut(name, ".")
		sc, _, ok := reg.Lookup(scName)
		found := false
		if ok {
			for _, x := range sc.Limits {
				found = found || x.Name == limit
			}
		}
		if !found {
			return fmt.Errorf("no scenario declares the limit %q (known: %s)", name, strings.Join(LimitNames(reg), ", "))
		}
	}
	return nil
}

// LimitNames lists every declared limit as <scenario>.<name>.
func LimitNames(reg *scenario.Registry) []string {
	var out []string
	for _, n := range reg.Names() {
		sc, _, _ := reg.Lookup(n)
		for _, x := range sc.Limits {
			out = append(out, n+"."+x.Name)
		}
	}
	return out
}

func overLimit(what string, got, limit int64) string {
	return fmt.Sprintf("%s is %d, over the limit of %d", what, got, limit)
}
