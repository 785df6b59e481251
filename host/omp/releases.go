package omp

import (
	"fmt"
	"strconv"
	"strings"
)

// Package is the npm package whose releases the model follows.
const Package = "@oh-my-pi/pi-coding-agent"

// Version is a published release of Package, MAJOR.MINOR.PATCH. The zero
// Version stands for Reference wherever a release is asked for.
type Version struct{ Major, Minor, Patch int }

// String writes the version as MAJOR.MINOR.PATCH.
func (v Version) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

// IsZero reports whether v is the zero Version.
func (v Version) IsZero() bool { return v == Version{} }

// Compare returns -1, 0 or +1 as v is older than, the same as or newer
// than w.
func (v Version) Compare(w Version) int {
	for _, d := range [3]int{v.Major - w.Major, v.Minor - w.Minor, v.Patch - w.Patch} {
		switch {
		case d < 0:
			return -1
		case d > 0:
			return 1
		}
	}
	return 0
}

// ParseVersion reads a full MAJOR.MINOR.PATCH version (digits only, no
// leading zeros, no prefix or pre-release). It does not check that the
// version was published: see Lookup.
func ParseVersion(s string) (Version, error) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return Version{}, fmt.Errorf("version %q is not MAJOR.MINOR.PATCH", s)
	}
	var n [3]int
	for i, p := range parts {
		if p == "" || len(p) > 9 || (len(p) > 1 && p[0] == '0') || strings.TrimLeft(p, "0123456789") != "" {
			return Version{}, fmt.Errorf("version %q is not MAJOR.MINOR.PATCH (digits only, no leading zeros)", s)
		}
		n[i], _ = strconv.Atoi(p)
	}
	return Version{n[0], n[1], n[2]}, nil
}

// Group is a behaviour group: releases that behave the same on everything
// the desk keys reach (approval, wrapper, RPC select, file-write fallback,
// classifier). The groups are ordered oldest first.
type Group int

// The behaviour groups. See the package documentation for what each one
// changes.
const (
	// G0 (13.x, 14.x): no approval gate. The wrapper emits tool_call,
	// honours a block and runs the original input; no fallback, no
	// classifier.
	G0 Group = iota
	// G1 (17.x): the approval gate, every deny with the user-policy text;
	// no fallback, no classifier.
	G1
	// G2 (18.1.16 … 18.2.0): the gate with tool-owned deny texts, the
	// fallback and the classifier.
	G2
	// G3 (18.2.3 …): an unknown mode is yolo, a non-object tools.approval
	// is {}, a missing context fails closed.
	G3
)

// String names the group: G0 … G3.
func (g Group) String() string { return "G" + strconv.Itoa(int(g)) }

// releases lists every published release, oldest first, with its group.
var releases = []struct {
	v Version
	g Group
}{
	{Version{13, 19, 0}, G0},
	{Version{14, 9, 9}, G0},
	{Version{17, 2, 15}, G1},
	{Version{17, 3, 5}, G1},
	{Version{18, 1, 16}, G2},
	{Version{18, 1, 17}, G2},
	{Version{18, 1, 20}, G2},
	{Version{18, 1, 21}, G2},
	{Version{18, 2, 0}, G2},
	{Version{18, 2, 3}, G3},
	{Version{18, 2, 9}, G3},
	{Version{18, 3, 4}, G3},
}

// Reference is the release the model was first pinned to and that
// host/omp/conformance installs; a zero Version means it.
var Reference = Version{18, 1, 16}

// Releases returns every modelled release, oldest first (a fresh slice).
func Releases() []Version {
	out := make([]Version, len(releases))
	for i, r := range releases {
		out[i] = r.v
	}
	return out
}

// Newest is the newest modelled release.
func Newest() Version { return releases[len(releases)-1].v }

// Groups returns the behaviour groups, oldest first.
func Groups() []Group { return []Group{G0, G1, G2, G3} }

// GroupOf returns the behaviour group of a modelled release (the zero
// Version: Reference's); false when v is not one.
func GroupOf(v Version) (Group, bool) {
	if v.IsZero() {
		v = Reference
	}
	for _, r := range releases {
		if r.v == v {
			return r.g, true
		}
	}
	return 0, false
}

// Releases returns the releases of g, oldest first.
func (g Group) Releases() []Version {
	var out []Version
	for _, r := range releases {
		if r.g == g {
			out = append(out, r.v)
		}
	}
	return out
}

// Range writes the releases of g as "first … last" (or the one release).
func (g Group) Range() string {
	rs := g.Releases()
	if len(rs) == 1 {
		return rs[0].String()
	}
	return rs[0].String() + " … " + rs[len(rs)-1].String()
}

// ReleaseNames lists the modelled releases as "13.19.0, 14.9.9, …".
func ReleaseNames() string {
	names := make([]string, len(releases))
	for i, r := range releases {
		names[i] = r.v.String()
	}
	return strings.Join(names, ", ")
}

// Lookup parses s and checks that it is a modelled release; the error
// lists the modelled releases.
func Lookup(s string) (Version, Group, error) {
	v, err := ParseVersion(s)
	if err != nil {
		return Version{}, 0, fmt.Errorf("%v; modelled releases: %s", err, ReleaseNames())
	}
	g, ok := GroupOf(v)
	if !ok {
		return Version{}, 0, fmt.Errorf("omp %s is not a modelled release; modelled releases: %s", s, ReleaseNames())
	}
	return v, g, nil
}

// HasApprovalGate reports whether the group's wrapper resolves approval at
// all (tools/approval.ts exists from 17.x).
func (g Group) HasApprovalGate() bool { return g >= G1 }

// HasFallback reports whether the group has the file-write fallback and
// its permission-denied classifier (tools/file-write-fallback.ts exists
// from 18.1.16): the fallback and classify-error scenarios.
func (g Group) HasFallback() bool { return g >= G2 }

// ToolDenyText reports whether a tool-owned deny carries the tool-policy
// text (denyError, from 18.1.16); before, every deny carries the
// user-policy text.
func (g Group) ToolDenyText() bool { return g >= G2 }

// UnknownModeIsYolo reports whether a configured approval mode the host
// does not know is read as yolo (from 18.2.3); before, it is kept and
// auto-approves no tier.
func (g Group) UnknownModeIsYolo() bool { return g >= G3 }

// PoliciesMustBeObject reports whether a tools.approval value that is not
// a plain object is read as {} (from 18.2.3); before, it is used as it is,
// with JavaScript's own-property semantics (a string or an array has its
// indexes and "length").
func (g Group) PoliciesMustBeObject() bool { return g >= G3 }

// MissingContextFailsClosed reports whether a call without an execute-time
// context (or without settings) is always-ask with no user policies (from
// 18.2.3); before, it is yolo.
func (g Group) MissingContextFailsClosed() bool { return g >= G3 }

// Change is one behaviour change at a group boundary, as drift lists it.
type Change struct {
	// Group is the group the change starts in; Since its first release.
	Group Group
	Since Version
	// ID names the change (unknown-mode, non-object-policies, …).
	ID string
	// What says what changed.
	What string
}

// Changes lists every behaviour change of the groups, oldest first.
func Changes() []Change {
	g1, g2, g3 := G1.Releases()[0], G2.Releases()[0], G3.Releases()[0]
	return []Change{
		{G1, g1, "approval-gate", "the approval gate: tool and user policies, modes, the approval dialog, revisions resolved again (before, every call runs after tool_call)"},
		{G1, g1, "revision-runs", "a tool_call revision is the input that runs (before, the original input runs)"},
		{G2, g2, "tool-deny-text", "a tool-owned deny carries the tool-policy text (before, the user-policy text)"},
		{G2, g2, "fallback", "the file-write fallback and its handlers exist (scenario fallback)"},
		{G2, g2, "classifier", "the permission-denied classifier exists (scenario classify-error)"},
		{G3, g3, "unknown-mode", "an unknown approval mode auto-approves every tier, as yolo (before, none)"},
		{G3, g3, "non-object-policies", "a tools.approval that is not an object is read as {}"},
		{G3, g3, "missing-context", "a call without an execute-time context fails closed (always-ask, no user policies)"},
		{G3, g3, "legacy-names", "a renamed tool's legacy name: deny and prompt under the old key still apply, allow does not"},
	}
}

// NotModelled lists what the newest releases do that no desk key reaches
// and the model leaves out.
var NotModelled = []string{
	"the ACP approval bypass (acpApprovedArgs, from 18.2.3)",
	"a tool result's own isError marking the call failed (from 18.2.3)",
	"a tool_call handler's additionalContext forwarded after a successful call (18.3.4)",
	"renamed tools' legacy names (18.2.3)",
}
