package main

import (
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// hostFlag collects -host HOST@VERSION values: each pins a host family to
// one modelled release. It is checked against the registry when set.
type hostFlag struct {
	reg  *scenario.Registry
	pins verifier.Hosts
}

func (f *hostFlag) String() string {
	if f == nil || len(f.pins) == 0 {
		return ""
	}
	var parts []string
	for k, v := range f.pins {
		parts = append(parts, k+"@"+v)
	}
	return strings.Join(parts, ",")
}

func (f *hostFlag) Set(v string) error {
	name, version, err := verifier.ParseHost(f.reg, v)
	if err != nil {
		return err
	}
	if f.pins == nil {
		f.pins = verifier.Hosts{}
	}
	if was, ok := f.pins[name]; ok && was != version {
		return fmt.Errorf("%s@%s: -host names %s once (already %s@%s): a case is judged on one release of a host", name, version, name, name, was)
	}
	f.pins[name] = version
	return nil
}

// hostUsage is the help text of -host, with the newest release of the
// first family that has releases as its example.
func hostUsage(reg *scenario.Registry) string {
	return "judge the cases of a host on its release `HOST@VERSION` alone" + hostExample(reg) + "; a case whose releases do not hold it is not applicable. Repeatable, one per host"
}

// hostExample is " (e.g. HOST@VERSION)" for the newest release of the
// first family that has releases, or "" when none has.
func hostExample(reg *scenario.Registry) string {
	for _, f := range reg.Families() {
		if r, ok := f.Host.Newest(); ok {
			return " (e.g. " + f.Host.Name + "@" + r.Version + ")"
		}
	}
	return ""
}
