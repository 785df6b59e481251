package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// failOnWarnFlag registers -fail-on-warn.
func failOnWarnFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("fail-on-warn", false, "exit 1 when a warning is not acknowledged (an acknowledge key names it with a reason); placeholders count")
}

// warnExit is the exit code of a run whose cases passed (or, for
// validate, whose files have no error) with n unacknowledged warnings.
func warnExit(failOnWarn bool, n int, stderr io.Writer) int {
	if !failOnWarn || n == 0 {
		return exitPass
	}
	s := "s"
	if n == 1 {
		s = ""
	}
	fmt.Fprintf(stderr, "deskcheck: %d warning%s not acknowledged (-fail-on-warn); fix each, or acknowledge it with \"acknowledge\": {\"NAME\": \"why\"} on its case or desk\n", n, s)
	return exitFail
}

// warningList lists every warning name with what it warns about, one a
// line.
func warningList() string {
	reg := all.Registry()
	var b strings.Builder
	line := func(w scenario.Warning, where string) {
		fmt.Fprintf(&b, "  %-24s %s%s\n", w.Name, w.Help, where)
	}
	for _, w := range verifier.EngineWarnings {
		line(w, "")
	}
	seen := map[string]bool{}
	for _, name := range reg.Names() {
		sc, _, _ := reg.Lookup(name)
		for _, w := range sc.Warnings {
			if !seen[w.Name] {
				seen[w.Name] = true
				line(w, " ("+name+")")
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
