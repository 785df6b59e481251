package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/realhost"
	"github.com/deskcheck/deskcheck/verifier"
)

// drift runs the cases on every installed release and shows, per case,
// what differs from the newest installed release.
func drift(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("drift", stderr)
	runRe := fs.String("run", "", "run only the cases whose <desk-id>/<case-id> matches REGEX")
	format := fs.String("format", "text", "output format: text or json")
	jobs := fs.Int("jobs", defaultJobs(), "most releases run at once (each one harness process)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "deskcheck-host: -format %q: text or json\n", *format)
		return exitInvalid
	}
	if *jobs < 1 {
		fmt.Fprintf(stderr, "deskcheck-host: -jobs must be at least 1, not %d\n", *jobs)
		return exitInvalid
	}
	selected, code := loadCases(fs.Args(), *runRe, verifier.Limits{}, stderr)
	if code != exitPass {
		return code
	}
	if code := everyHostHasCases([]string{""}, "", selected, stderr); code != exitPass {
		return code
	}
	c, ok := cache(stderr)
	if !ok {
		return exitInvalid
	}
	fam := defaultFamily()
	installed, _ := fam.List(c)
	if len(installed) == 0 {
		fmt.Fprintf(stderr, "deskcheck-host: no release is installed in %s; install some with: deskcheck-host install %s@V\n", c, fam.Host)
		return exitInvalid
	}
	// One harness per release, at most -jobs at once, opened and judged as
	// verify opens and judges each.
	runs, worst := eachRelease(*jobs, len(installed), stderr, func(i int, w io.Writer) (*realhost.Run, int) {
		return judgeOn(ctx, fam.Host+"@"+installed[i].Version, "", "", realhost.DefaultMaxAnswerBytes, false, "", selected, nil, w)
	})
	if worst != exitPass {
		return worst
	}
	rows := driftRows(runs)
	stdout = visibleWriter{stdout}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		hosts := make([]realhost.Hello, len(runs))
		for i, r := range runs {
			hosts[i] = r.Hello
		}
		_ = enc.Encode(map[string]any{"inertness": realhost.Inertness, "hosts": hosts, "newest": runs[len(runs)-1].Hello.Source, "cases": rows})
		return exitPass
	}
	newest := runs[len(runs)-1].Hello.Source
	fmt.Fprintf(stdout, "drift on the real code of %d installed releases, against the newest, %s\n%s\n", len(runs), newest, realhost.Inertness)
	for _, r := range runs {
		if len(r.Hello.Substituted) > 0 {
			fmt.Fprintf(stdout, "%s was run on substituted dependencies (the nearest published ones)\n", r.Hello.Source)
		}
	}
	for _, row := range rows {
		if len(row.Changes) == 0 && len(row.NotApplicable) == 0 {
			fmt.Fprintf(stdout, "%s: same on all\n", row.Case)
			continue
		}
		fmt.Fprintf(stdout, "%s:\n", row.Case)
		for _, na := range row.NotApplicable {
			fmt.Fprintf(stdout, "  %s\n", na)
		}
		for _, ch := range row.Changes {
			fmt.Fprintf(stdout, "  %s %s: %s (newest: %s)\n", ch.Host, ch.Key, jsonString(ch.Value), jsonString(ch.Newest))
		}
	}
	return exitPass
}

type driftChange struct {
	Host   string `json:"host"`
	Key    string `json:"key"`
	Value  any    `json:"value"`
	Newest any    `json:"newest"`
}

type driftRow struct {
	Case          string        `json:"case"`
	Changes       []driftChange `json:"changes"`
	NotApplicable []string      `json:"notApplicable"`
}

func driftRows(runs []*realhost.Run) []driftRow {
	newest := runs[len(runs)-1]
	rows := make([]driftRow, len(newest.Results))
	for i, nr := range newest.Results {
		row := driftRow{Case: nr.Case.FullID(), Changes: []driftChange{}, NotApplicable: []string{}}
		for _, run := range runs {
			r := run.Results[i]
			if r.Real == nil {
				row.NotApplicable = append(row.NotApplicable, fmt.Sprintf("%s: %s (%s)", run.Hello.Source, r.Verdict, r.Reason))
				continue
			}
			if run == newest || nr.Real == nil {
				continue
			}
			keys := make([]string, 0, len(r.Real))
			for k := range r.Real {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if !reflect.DeepEqual(r.Real[k], nr.Real[k]) {
					row.Changes = append(row.Changes, driftChange{Host: run.Hello.Source, Key: k, Value: r.Real[k], Newest: nr.Real[k]})
				}
			}
		}
		rows[i] = row
	}
	return rows
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(string(b))
}
