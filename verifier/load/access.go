package load

import (
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/scenario"
)

// What judging reads of a loaded desk and case. Everything here was made
// at load; judging only reads it.

// Text is the desk's file as it was read.
func (d *Desk) Text() string { return d.text }

// Root is the desk's document, as gjson read it.
func (d *Desk) Root() gjson.Result { return d.root }

// Registry is the registry of scenarios the desk was loaded with.
func (d *Desk) Registry() *scenario.Registry { return d.reg }

// CaseAcks tells whether at least one case acknowledges a warning.
func (d *Desk) CaseAcks() bool { return d.caseAcks }

// Diag makes a diagnostic at ptr (at its key when key is true); its
// position is found by Diagnostics.Resolve.
func (d *Desk) Diag(sev Severity, ptr string, key bool, format string, args ...any) Diagnostic {
	return d.diag(sev, ptr, key, format, args...)
}

// Warn makes a named warning at ptr.
func (d *Desk) Warn(name, ptr string, key bool, format string, args ...any) Diagnostic {
	return d.warn(name, ptr, key, format, args...)
}

// Resolve finds the positions of the diagnostics made by Diag and Warn,
// with one walk of each file for all of its diagnostics.
func (ds Diagnostics) Resolve() { ds.resolve() }

// CapPerFile keeps at most limit diagnostics of each file (ds sorted) and
// counts the rest.
func (ds Diagnostics) CapPerFile(limit int) Diagnostics { return ds.capPerFile(limit) }

// ScenarioSpec is the scenario the case runs.
func (c *Case) ScenarioSpec() *scenario.Scenario { return c.sc }

// HostFamily is the host family of the case's scenario.
func (c *Case) HostFamily() *scenario.Family { return c.fam }

// Compiled is the case as its scenario compiled it at load.
func (c *Case) Compiled() *scenario.Compiled { return c.compiled }

// Units returns, for each limit of the case's scenario, how much of it the
// given block asks for.
func (c *Case) Units() []int { return c.workUnits() }

// CopiesPerLimit is, per limit of the case's scenario, the bytes a
// measured limit counts (nil: none).
func (c *Case) CopiesPerLimit() []int { return c.copies }

// Thousands writes n with a comma between groups of three digits.
func Thousands(n int) string { return thousands(n) }

// OverLimit says that what is got, over limit.
func OverLimit(what string, got, limit int64) string { return overLimit(what, got, limit) }

// PointerToken escapes s as one token of a JSON pointer.
func PointerToken(s string) string { return pointerToken(s) }

// GJSONPath turns a JSON pointer below given into a gjson path.
func GJSONPath(ptr string) string { return gjsonPath(ptr) }

// LeftOut is, on the line that counts the problems left out of a file's
// list, their number; 0 on any other diagnostic.
func (d Diagnostic) LeftOut() int { return d.more }

// NewCase makes a case of desk d that no file holds, compiled from its
// given block alone (no expected block): for running a scenario that no
// registry holds, as the engine's own tests do.
func NewCase(d *Desk, id string, given gjson.Result, sc *scenario.Scenario, fam *scenario.Family) *Case {
	return &Case{Desk: d, ID: id, Given: given, sc: sc, fam: fam, compiled: sc.Compile([]byte(given.Raw), nil)}
}

// Fill reads the bytes of an input that ListPaths listed without reading
// (its Data is nil), bounded by limit; any other input comes back as it is.
func (in Input) Fill(limit int64) (Input, error) {
	if in.Data != nil || in.file == "" {
		return in, nil
	}
	read, err := readFile(in.file, limit)
	if err != nil {
		return in, err
	}
	in.Data = read.Data
	return in, nil
}
