package main

import (
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// stamp records the command line, the limits in force and the run id in
// the report's provenance.
func stamp(rep *reports.Report, command string, args []string, limits verifier.Limits, reg *scenario.Registry) *reports.Report {
	rep.Stamp(append([]string{"deskcheck", command}, args...), limitsInForce(limits, reg))
	return rep
}

// limitsInForce names every limit of a run with its value: the file and
// run limits by flag, each scenario limit as SCENARIO.NAME.
func limitsInForce(l verifier.Limits, reg *scenario.Registry) map[string]int64 {
	l = l.WithDefaults()
	m := map[string]int64{
		"max-file-size":   l.FileSize,
		"max-depth":       int64(l.Depth),
		"max-cases":       int64(l.Cases),
		"max-string":      int64(l.String),
		"max-work":        int64(l.Work),
		"max-run-work":    int64(l.RunWork),
		"max-events":      int64(l.Events),
		"max-trace-bytes": int64(l.TraceBytes),
		"max-diagnostics": int64(l.Diagnostics),
	}
	for _, name := range reg.Names() {
		sc, _, _ := reg.Lookup(name)
		for k, v := range l.For(sc) {
			m[name+"."+k] = int64(v)
		}
	}
	return m
}

// origin is what the reports of this run say about the process, read from
// it here and nowhere else: the time (SOURCE_DATE_EPOCH when set, which
// checkSourceDateEpoch has already held to a whole number of seconds for
// every command that writes a time stamp), the home folder that paths are
// shown under as ~/…, the working folder that command-line paths are
// shown relative to, and the build.
func origin() reports.Origin {
	o := reports.Origin{Time: time.Now(), GoVersion: runtime.Version()}
	if secs, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil {
		o.Time = time.Unix(secs, 0)
	}
	o.Home, _ = os.UserHomeDir()
	o.Wd, _ = os.Getwd()
	o.Deskcheck, o.Revision = buildVersion()
	return o
}
