package main

import (
	"io"
	"strings"

	"github.com/deskcheck/deskcheck/reports"
)

// command is one deskcheck command: its usage lines, what its help says
// and how it runs. The usage text, help COMMAND, the package doc (doc.go)
// and the README's list of commands are all made from commandTable, and a
// test holds each usage line to the flags the command parses.
type command struct {
	name string
	// usage are its usage lines, each after "deskcheck": the words that
	// name it (a subcommand with them), then its arguments.
	usage []usageLine
	// about says in a sentence or two what the command does, for its help.
	about string
	// run runs it with its arguments; nil for help, which run handles.
	run func(args []string, stdout, stderr io.Writer) int
	// stamps: the command builds a report, whose time stamp honours
	// SOURCE_DATE_EPOCH.
	stamps bool
}

// usageLine is one usage line of a command.
type usageLine struct{ words, args string }

// commandTable lists every command, in the order the usage lists them. It
// is made in init, as the commands it runs read the tables made from it.
var commandTable []command

func init() {
	commandTable = []command{
		{name: "verify", stamps: true, run: verify,
			usage: []usageLine{{"verify", "[-run REGEX] [-v] [-dimensions] [-format FORMAT] [-out DIR|none] [-max-report-bytes N] [-host HOST@VERSION] [-max-annotations N] [-fail-on-warn] [limits] [PATH...]"}},
			about: "Validates, runs and judges the cases of the desks at PATH (default: the\n" +
				"bundled desks), prints the results in -format (text: one line per case)\n" +
				"and then writes the private report files into -out. A folder that cannot\n" +
				"be written is an error (exit 2) said after the results."},
		{name: "validate", run: validate,
			usage: []usageLine{{"validate", "[-format text|github|sarif] [-max-annotations N] [-fail-on-warn] [limits] [PATH...]"}},
			about: "Checks the desks at PATH against the schema and lint only; nothing runs.\n\n" +
				"One run lists every problem of a file, in file order: repeated keys, schema\n" +
				"errors, counts that are not whole numbers, release ranges and lint. Only\n" +
				"what an earlier error makes meaningless is skipped, and one checks-skipped\n" +
				"warning, last in the file's list, says what: everything, for a file that\n" +
				"does not read as JSON within the limits or has another schemaVersion; the\n" +
				"whole numbers, hosts and lint of a case with schema errors of its own (the\n" +
				"other cases are checked); lint, for a desk key whose value the schema\n" +
				"refuses. Of a repeated key, the first value is the one checked.\n\n" +
				"Warnings, by the name an \"acknowledge\" key gives them:\n" + warningList()},
		{name: "report", run: report,
			usage: []usageLine{
				{"report render", "[-format FORMAT] [-dimensions] [-max-annotations N] [-max-file-size BYTES] FILE.json"},
				{"report -schema", ""},
			},
			about: "render re-renders a saved report.json (read as strictly as a case file)\n" +
				"in another format, text by default; -schema prints the JSON Schema of\n" +
				"report.json."},
		{name: "faults", stamps: true, run: faults,
			usage: []usageLine{{"faults", "[-fault NAME] [-run REGEX] [-format text|json|github|sarif] [-out DIR|none] [-max-report-bytes N] [-host HOST@VERSION] [-max-annotations N] [limits] [PATH...]"}},
			about: "Runs the cases once per deliberate host fault and shows which faults\n" +
				"they catch; exit 1 when any is missed."},
		{name: "cover", run: cover,
			usage: []usageLine{{"cover", "[-min PCT [-per-desk]] [-suggest] [-format text|json] [-run REGEX] [-host HOST@VERSION] [limits] [PATH...]"}},
			about: "Measures which boundary points of its host each desk reaches, on the\n" +
				"scenarios it has cases of (the others are listed as not addressed).\n" +
				"-min judges each family over every desk read (-per-desk: each desk);\n" +
				"-suggest prints cases that reach the points no case reaches."},
		{name: "mutants", run: mutants,
			usage: []usageLine{{"mutants", "[-mutant REGEX] [-suggest] [-format text|json] [-run REGEX] [-host HOST@VERSION] [limits] [PATH...]"}},
			about: "Runs the cases against generated mutants of the host model (named\n" +
				"constants and branches changed one at a time) on the scenarios each desk\n" +
				"has cases of, and lists the mutants no case kills; -suggest prints a case\n" +
				"for each survivor that a generated input kills."},
		{name: "diff", run: diffCommand,
			usage: []usageLine{{"diff", "[-format text|markdown|github|json] [-force] [-max-annotations N] [-max-file-size BYTES] BASE.json HEAD.json"}},
			about: "Compares two saved report.json files (BASE, say of a pull request's merge\n" +
				"base, and HEAD): per case new, removed, pass→fail, fail→pass, stimulus\n" +
				"changed (given or hosts), expectation changed or unchanged; per fault\n" +
				"newly caught or newly missed; each dimension of the suite before and\n" +
				"after. Refuses (exit 2) reports of different case schemas or host\n" +
				"releases unless -force, and a report that contradicts itself; exit 1\n" +
				"when a case went from pass to fail, a new case fails or a fault became\n" +
				"missed."},
		{name: "explain", stamps: true,
			run: func(args []string, stdout, stderr io.Writer) int {
				return show(args, "explain", reports.ExplainEach(stdout, reports.Explain{Width: lineWidth(stdout)}), stdout, stderr)
			},
			usage: []usageLine{{"explain", "[-run REGEX] [-host HOST@VERSION] [limits] [PATH...]"}},
			about: "Shows, case by case, what happened and why. Writes no file."},
		{name: "observe", stamps: true, run: observe,
			usage: []usageLine{{"observe", "[-run REGEX] [-w [-i] [-force]] [-host HOST@VERSION] [limits] [PATH...]"}},
			about: "Prints the expected block the host model observes for each case, ready\n" +
				"to paste, and how it differs (~ + -). With -w, rewrites those blocks in\n" +
				"the desk files named, in place, and nothing else of them: only a file\n" +
				"that still holds what was read (-force: also one read-only or with other\n" +
				"hard links), and only a block that holds on every release of its range."},
		{name: "drift", run: drift,
			usage: []usageLine{{"drift", "[-run REGEX] [-all-releases] [-format text|json] [limits] [PATH...]"}},
			about: "Runs every case on every release group its hosts range selects\n" +
				"(-all-releases: every group of its host), and prints what each observes differently from the newest release,\n" +
				"then the release changes no case exercises. Exit 0 on any difference."},
		{name: "new", run: newDesk,
			usage: []usageLine{{"new", "SCENARIO"}},
			about: "Prints a complete desk with one case of SCENARIO, every given and\nexpected key present."},
		{name: "try", run: try,
			usage: []usageLine{{"try", "[-desk] [-host HOST@VERSION] [limits] SCENARIO [GIVEN | @FILE | -]"}},
			about: "Runs one given block of SCENARIO, without writing a desk first: GIVEN is\n" +
				"the block as an argument ('{\"mode\": \"always-ask\"}'), @FILE reads it from a\n" +
				"file, - or nothing from standard input. Prints the release that answered\n" +
				"(the newest, or the one -host names), what happened, what decided it\n" +
				"and the expected block the model observes; -desk prints a complete desk\n" +
				"holding the case instead, its hosts key that release, ready to save.\n" +
				"Writes no file; exit 0 unless the input is invalid."},
		{name: "schema", run: schemaCommand,
			usage: []usageLine{{"schema", ""}},
			about: "Prints the JSON Schema of case files."},
		{name: "version", run: versionCommand,
			usage: []usageLine{{"version", ""}},
			about: "Prints the version and VCS revision of this deskcheck, as its reports\nrecord them."},
		{name: "help",
			usage: []usageLine{{"help", "[COMMAND]"}, {"help", "SCENARIO"}}},
	}
	commands = map[string]func(args []string, stdout, stderr io.Writer) int{}
	synopses = map[string]string{}
	descriptions = map[string]string{}
	stamps = map[string]bool{}
	for _, c := range commandTable {
		var lines []string
		for _, u := range c.usage {
			lines = append(lines, strings.TrimSuffix("deskcheck "+u.words+" "+u.args, " "))
		}
		synopses[c.name] = strings.Join(lines, " | ")
		if c.about != "" {
			descriptions[c.name] = c.about
		}
		if c.run != nil {
			commands[c.name] = c.run
		}
		stamps[c.name] = c.stamps
	}
	usage = usageHead + "\nUsage:\n" + usageLines("  ") + "\n" + usageBody
}

// usageWidth is the width the command's words are padded to in the
// usage block: the longest one-word command name.
const usageWidth = len("validate")

// usageLines are the usage lines of every command, each line indented by
// indent and the arguments aligned.
func usageLines(indent string) string {
	var b strings.Builder
	for _, c := range commandTable {
		for _, u := range c.usage {
			b.WriteString(indent + "deskcheck " + u.words)
			if u.args != "" {
				b.WriteString(strings.Repeat(" ", max(0, usageWidth-len(u.words))) + " " + u.args)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// commands run each command with its arguments; synopses are their usage
// lines, for their own help; descriptions say what each does; stamps are
// the commands that build a report. All are made from commandTable.
var (
	commands     map[string]func(args []string, stdout, stderr io.Writer) int
	synopses     map[string]string
	descriptions map[string]string
	stamps       map[string]bool
)

// usage is what deskcheck help prints: usageHead, the usage lines of
// every command and usageBody.
var usage string

const usageHead = "deskcheck verifies inert JSON teaching cases about agent permission boundaries.\n"

const usageBody = `explain shows, case by case, what happened and why; observe prints the
expected block the host model observes, ready to paste, and how it differs
from the authored one; new prints a complete desk with one case of a
scenario; schema prints the JSON Schema of case files. None of them writes
a file.

faults runs every case once per deliberate host fault and shows which
faults the cases catch; it exits 1 when any fault is missed. cover lists
the boundary points of each host the cases reach, with a case for each
point none reaches; mutants runs the generated mutants of each host and
exits 1 when any survives. With -suggest both print a desk of the cases
they made instead.

For verify and report render, FORMAT is text, json, markdown, junit, html,
github (annotations) or sarif (code scanning); validate takes text, github
or sarif; faults text, json, github or sarif; diff text, markdown, github
or json. Whatever the format, verify and faults print their results first
and then write report.json, report.html, report.md and report.junit.xml
into -out (default reports/private; -out none writes no folder, -out
./none a folder named none); report render re-renders a saved
report.json; diff compares two of them.

With no PATH, the bundled desks (cases/*.json) are used. A PATH may be a
file or a folder, whose *.json files are read recursively; - reads
standard input. limits are the input limits every command that reads
desks takes (-limit SCENARIO.NAME=N, -max-file-size BYTES, …; deskcheck
help verify lists them).

Exit codes: 0 all cases passed (validate: no errors), 1 a case failed or
could not run, 2 invalid input or usage.

deskcheck help COMMAND (or deskcheck COMMAND -h) describes a command and
its flags; deskcheck help SCENARIO lists a scenario's keys, limits,
warnings and faults.
`
