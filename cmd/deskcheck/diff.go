package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/deskcheck/deskcheck/reports"
)

// diffFormats are the -format values of diff.
var diffFormats = []string{"text", "markdown", "github", "json"}

func diffCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff", stderr)
	format := fs.String("format", "text", "output on stdout: "+orList(diffFormats))
	force := fs.Bool("force", false, "compare reports of different case schemas or host releases anyway")
	maxSize := fs.Int64("max-file-size", reports.ReadLimits.FileSize, "largest report.json to read, in bytes")
	annotations := fs.Int("max-annotations", reports.GitHubLimit, fmt.Sprintf("with -format github: most ::error and most ::warning lines, each (at most %d)", reports.GitHubLimit))
	rest, err := parse(fs, args, stdout)
	if err != nil {
		return flagError(err)
	}
	known := false
	for _, f := range diffFormats {
		known = known || f == *format
	}
	if !known {
		fmt.Fprintf(stderr, "deskcheck: -format must be %s, not %q\n", orList(diffFormats), *format)
		return exitInvalid
	}
	if n := *annotations; n < 1 || n > reports.GitHubLimit {
		fmt.Fprintf(stderr, "deskcheck: -max-annotations must be 1 to %d (GitHub shows no more of one step), not %d\n", reports.GitHubLimit, n)
		return exitInvalid
	}
	if len(rest) != 2 {
		fmt.Fprintf(stderr, "deskcheck: usage: %s\n", synopses["diff"])
		return exitInvalid
	}
	var sides [2]*reports.Report
	for i, path := range rest {
		data, code := readReport(path, *maxSize, stderr)
		if code != exitPass {
			return code
		}
		collectForReport(len(data))
		// Read and let go in turn: each side keeps only what the diff
		// compares, not its file's text or its cases' traces.
		rep, err := reports.ReadForDiff(data)
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck: %s: %v\n", path, err)
			return exitInvalid
		}
		sides[i] = rep
		if i == 0 {
			// The first file's text is collected before the second is
			// read, rather than while it is: the two would otherwise be
			// in memory at once.
			data = nil
			runtime.GC()
		}
	}
	if err := reports.Comparable(sides[0], sides[1]); err != nil {
		var inc *reports.Incomparable
		if !*force || !errors.As(err, &inc) {
			fmt.Fprintf(stderr, "deskcheck: %s and %s: %v\n", rest[0], rest[1], err)
			return exitInvalid
		}
		fmt.Fprintf(stderr, "deskcheck: comparing anyway (-force): %v\n", err)
	}
	d := reports.Compare(sides[0], sides[1], rest[0], rest[1])
	bw := bufio.NewWriterSize(stdout, 64<<10)
	switch *format {
	case "text":
		err = reports.DiffText(bw, d)
	case "markdown":
		err = reports.DiffMarkdown(bw, d)
	case "github":
		err = reports.DiffGitHub(bw, d, reports.GitHub{Errors: *annotations, Warnings: *annotations, Where: "the output of deskcheck diff " + rest[0] + " " + rest[1]})
	case "json":
		err = reports.DiffJSON(bw, d)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: writing the diff: %v\n", err)
		return exitInvalid
	}
	if d.Regressed {
		return exitFail
	}
	return exitPass
}
