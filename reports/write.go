package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/deskcheck/deskcheck/reports/folder"
	"github.com/deskcheck/deskcheck/verifier"
)

// DefaultDir is where reports go unless told otherwise. It is git-ignored.
const DefaultDir = "reports/private"

// reportFiles are the formats written into a report folder.
func reportFiles() []Format {
	var files []Format
	for _, f := range Formats(Text{}) {
		if f.File != "" {
			files = append(files, f)
		}
	}
	return files
}

// FolderFiles are the files of the report folder for r, one for each
// format that has a file name, for folder.Writer to write.
func FolderFiles(r *Report) []folder.File {
	var files []folder.File
	for _, f := range reportFiles() {
		files = append(files, folder.File{Name: f.File, Render: func(w io.Writer) error { return f.Reporter.Write(w, r) }})
	}
	return files
}

// ReadLimits are the reading rules `report render` applies to a saved
// report.json: those of case files, with room for what a report holds (a
// report is larger than the files it was made from and quotes long
// texts). Its nesting may be that of any report a run can write: case
// data as deep as the largest -max-depth, nested reportNesting levels
// deeper.
var ReadLimits = verifier.Limits{FileSize: 1 << 30, Depth: verifier.MaxDepth + reportNesting, String: 1 << 30, Diagnostics: 1}

// reportNesting is how much deeper than the case data a report nests it
// (cases, a case, observed, a key, and room).
const reportNesting = 16

// scanEvidence applies the reading rules of case files to saved evidence
// before anything that recurses reads it: JSON whose top level is an
// object, no duplicate key (a second "verdict" never wins), no number
// beyond float64, nesting within ReadLimits.
func scanEvidence(data []byte) error {
	ds := verifier.Scan("", data, ReadLimits)
	if !ds.HasErrors() {
		return nil
	}
	d := ds[0]
	what, msg := "not deskcheck evidence", strings.Replace(d.Summary, "a case file is", "a report is", 1)
	if rest, ok := strings.CutPrefix(msg, "malformed JSON: "); ok {
		what, msg = "not JSON", rest
	}
	if d.Line > 0 {
		msg = fmt.Sprintf("%d:%d: %s", d.Line, d.Col, msg)
	}
	if d.Pointer != "" {
		msg += " (" + d.Pointer + ")"
	}
	return fmt.Errorf("%s: %s", what, msg)
}

// checkVerdicts holds schema-valid evidence to its counts: the verdict is
// pass exactly when at least one case ran and every case passed; the
// summary adds up and matches the cases and claims listed; a strength
// section agrees with its results, and its verdict with them.
func checkVerdicts(data []byte) error {
	var r struct {
		Verdict         string           `json:"verdict"`
		StrengthVerdict string           `json:"strengthVerdict"`
		Summary         verifier.Summary `json:"summary"`
		Cases           []struct {
			Status verifier.Status `json:"status"`
		} `json:"cases"`
		SourceOnly []json.RawMessage `json:"sourceOnly"`
		Strength   *struct {
			Caught       int `json:"caught"`
			Faults       int `json:"faults"`
			NotAddressed int `json:"notAddressed"`
			Results      []struct {
				Caught       bool   `json:"caught"`
				NotAddressed string `json:"notAddressed"`
			} `json:"results"`
		} `json:"strength"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("not deskcheck evidence: %w", err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("not deskcheck evidence: %s", fmt.Sprintf(format, args...))
	}
	seen := verifier.Summary{Cases: len(r.Cases), SourceOnly: len(r.SourceOnly)}
	for _, c := range r.Cases {
		switch c.Status {
		case verifier.Pass:
			seen.Passed++
		case verifier.Fail:
			seen.Failed++
		case verifier.NotApplicable:
			seen.NotApplicable++
		default:
			seen.Errored++
		}
	}
	s := r.Summary
	if seen != s {
		return bad("the summary (%d cases: %d passed, %d failed, %d errored, %d not applicable; %d source-only) does not match what is listed (%d cases: %d passed, %d failed, %d errored, %d not applicable; %d source-only)",
			s.Cases, s.Passed, s.Failed, s.Errored, s.NotApplicable, s.SourceOnly, seen.Cases, seen.Passed, seen.Failed, seen.Errored, seen.NotApplicable, seen.SourceOnly)
	}
	want := "fail"
	if (&verifier.SuiteResult{Summary: s}).Passed() {
		want = "pass"
	}
	if r.Verdict != want {
		return bad("the verdict is %q but %d of %d cases passed, which is %q", r.Verdict, s.Passed, s.Cases, want)
	}
	st := r.Strength
	if st == nil {
		if r.StrengthVerdict != "" {
			return bad("a strength verdict without a strength section")
		}
		return nil
	}
	caught, notAddressed := 0, 0
	for _, x := range st.Results {
		if x.Caught {
			caught++
		}
		if x.NotAddressed != "" {
			if x.Caught {
				return bad("a fault is both caught and not addressed")
			}
			notAddressed++
		}
	}
	if st.Faults != len(st.Results) || st.Caught != caught || st.NotAddressed != notAddressed {
		return bad("the strength section says %d of %d faults caught (%d not addressed) but lists %d of %d (%d not addressed)", st.Caught, st.Faults, st.NotAddressed, caught, len(st.Results), notAddressed)
	}
	want = "fail"
	if (&Strength{Caught: st.Caught, Faults: st.Faults, NotAddressed: st.NotAddressed}).Pass() {
		want = "pass"
	}
	if r.StrengthVerdict != "" && r.StrengthVerdict != want {
		return bad("the strength verdict is %q but %d of %d faults were caught, which is %q", r.StrengthVerdict, st.Caught, st.Faults, want)
	}
	return nil
}
