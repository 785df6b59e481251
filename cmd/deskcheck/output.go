package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/reports/folder"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// noOut is the -out value that writes no report folder; a folder really
// called none is -out ./none.
const noOut = "none"

// commandFormats are the -format values each command takes, in the order
// help lists them.
var commandFormats = map[string][]string{
	"verify":   {"text", "json", "markdown", "junit", "html", "github", "sarif"},
	"validate": {"text", "github", "sarif"},
	"faults":   {"text", "json", "github", "sarif"},
	"report":   {"text", "json", "markdown", "junit", "html", "github", "sarif"},
}

// formatUsage is the usage line of a command's -format flag.
func formatUsage(cmd string) string {
	return "output on stdout: " + orList(commandFormats[cmd])
}

func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// output holds a command's output flags: -format and -max-annotations.
type output struct {
	cmd         string
	format      *string
	annotations *int
}

func outputFlags(fs *flag.FlagSet, cmd string) output {
	return output{
		cmd:         cmd,
		format:      fs.String("format", "text", formatUsage(cmd)),
		annotations: fs.Int("max-annotations", reports.GitHubLimit, fmt.Sprintf("with -format github: most ::error and most ::warning lines, each (at most %d, GitHub's limit of one step)", reports.GitHubLimit)),
	}
}

// check refuses a format the command does not take and an annotation
// limit GitHub would not honour.
func (o output) check(stderr io.Writer) int {
	known := false
	for _, f := range commandFormats[o.cmd] {
		known = known || f == *o.format
	}
	if !known {
		fmt.Fprintf(stderr, "deskcheck: -format must be %s, not %q\n", orList(commandFormats[o.cmd]), *o.format)
		return exitInvalid
	}
	if n := *o.annotations; n < 1 || n > reports.GitHubLimit {
		fmt.Fprintf(stderr, "deskcheck: -max-annotations must be 1 to %d (GitHub shows no more of one step), not %d\n", reports.GitHubLimit, n)
		return exitInvalid
	}
	return exitPass
}

// github is the annotation reporter with the command's limits.
func (o output) github(ds verifier.Diagnostics, reg *scenario.Registry, where string) reports.GitHub {
	n := *o.annotations
	return reports.GitHub{Errors: n, Warnings: n, Diagnostics: ds, Registry: reg, Where: where}
}

// reporter is the reporter of a command that renders a report: the
// formats of reports.Formats, with github and sarif told the diagnostics,
// the registry and where the full results are, and html the registry.
func (o output) reporter(text reports.Text, ds verifier.Diagnostics, reg *scenario.Registry, where string) reports.Reporter {
	switch *o.format {
	case "github":
		g := o.github(ds, reg, where)
		// faults annotates the faults it misses; the cases and the problems
		// of the files are verify's, so a job running both shows each once.
		g.StrengthOnly = o.cmd == "faults"
		return g
	case "sarif":
		return reports.SARIF{Diagnostics: ds, Registry: reg, Where: where}
	case "html":
		return reports.HTML{Registry: reg}
	}
	f, err := reports.Lookup(*o.format, text)
	if err != nil {
		panic(err) // check refused it
	}
	return f.Reporter
}

// invalid prints, in the annotation and SARIF formats, the problems that
// stopped a run, so that a broken case file is shown on its line too.
func (o output) invalid(stdout io.Writer, ds verifier.Diagnostics, reg *scenario.Registry, line string) {
	switch *o.format {
	case "github":
		o.github(ds, reg, "the output of deskcheck validate").WriteDiagnostics(stdout, line)
	case "sarif":
		version, _ := buildVersion()
		reports.SARIF{Diagnostics: ds, Registry: reg, Version: version, Where: "the output of deskcheck validate"}.WriteDiagnostics(stdout)
	}
}

// whereAll says where every result of a run can be read, for the notice
// of the annotations left out.
func whereAll(cmd, out string) string {
	if out == noOut {
		return "the output of deskcheck " + cmd + " -format text"
	}
	return "the step summary and " + filepath.Join(out, "report.json")
}

// writeReports prints r's rendering of rep on stdout, then writes the
// report folder (none when out is "none"). The verdict is printed first,
// so a folder that cannot be written never hides it: that is an error of
// its own, said after the results, with exit code 2.
func writeReports(out string, maxBytes int64, paths []string, rep *reports.Report, r reports.Reporter, stdout, stderr io.Writer) int {
	if err := emit(stdout, r, rep); err != nil {
		fmt.Fprintf(stderr, "deskcheck: writing results: %v\n", err)
		return exitInvalid
	}
	if out == noOut {
		return exitPass
	}
	// The folder is the report's last reader: report.json may give the
	// cases' evidence back as it copies it out.
	rep.ReleaseAsWritten()
	written, err := folder.Writer{CaseDirs: caseDirs(paths), MaxBytes: maxBytes}.Write(out, reports.FolderFiles(rep))
	if err != nil {
		// The error names the -out folder, which may hold anything.
		fmt.Fprintf(stderr, "deskcheck: the results above stand, but the report folder was not written: %s (-out names another folder; -out none writes none)\n", reports.OneLine(err.Error()))
		return exitInvalid
	}
	for i, w := range written {
		written[i] = reports.OneLine(w) // the -out name is the user's, but may hold anything
	}
	fmt.Fprintf(stderr, "reports: %s\n", strings.Join(written, ", "))
	return exitPass
}

// buildReport is the report of a run, time-stamped now.
func buildReport(suite *verifier.SuiteResult) *reports.Report {
	return reports.Build(suite, origin())
}

// validateHeadline closes validate's annotations: how many files were
// read and what was found in them.
func validateHeadline(files int, ds verifier.Diagnostics) string {
	errs, warns, acked := 0, 0, 0
	for _, d := range ds {
		if e, w, a := d.LeftOut(); e+w+a > 0 {
			errs, warns, acked = errs+e, warns+w, acked+a
			continue
		}
		switch {
		case d.Severity == verifier.Error:
			errs++
		case d.Acknowledged != "":
			acked++
		default:
			warns++
		}
	}
	verdict := "PASS"
	if errs > 0 {
		verdict = "FAIL"
	}
	line := fmt.Sprintf("validate %s — %s, %s, %s", verdict, plural(files, "file", "files"), plural(errs, "error", "errors"), plural(warns, "warning", "warnings"))
	if acked > 0 {
		line += fmt.Sprintf(", %d acknowledged", acked)
	}
	return line
}
