package reports

import (
	"encoding/json"

	"github.com/deskcheck/deskcheck/verifier"
)

// diffCase is what Compare reads of a saved case: no trace, observed
// values or suggestions, which a report of large cases is mostly made of.
type diffCase struct {
	Desk       string                    `json:"desk"`
	ID         string                    `json:"id"`
	Line       int                       `json:"line"`
	Column     int                       `json:"column"`
	Title      string                    `json:"title"`
	Status     verifier.Status           `json:"status"`
	Given      json.RawMessage           `json:"given"`
	Expected   json.RawMessage           `json:"expected"`
	Mismatches []json.RawMessage         `json:"mismatches"`
	Range      string                    `json:"range"`
	Releases   []verifier.ReleaseVerdict `json:"releases"`
}

// ReadForDiff reads saved evidence for Compare, checked as ReadJSON checks
// it, keeping of each case only what Compare reads: its ids, title,
// location, status, given and expected blocks, range and releases. Its
// memory is that of those, not of the cases' traces and observed values;
// the report it returns is for Compare only.
func ReadForDiff(data []byte) (*Report, error) {
	if err := CheckJSON(data); err != nil {
		return nil, err
	}
	var r struct {
		Report
		Cases []diffCase `json:"cases"`
	}
	r.Report.sizeLists(data)
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	rep := r.Report
	rep.Cases = make([]Case, len(r.Cases))
	for i, c := range r.Cases {
		rep.Cases[i] = Case{Desk: c.Desk, ID: c.ID, Line: c.Line, Column: c.Column, Title: c.Title, Status: c.Status,
			Given: c.Given, Expected: c.Expected, Range: c.Range, Releases: c.Releases,
			Mismatches: make([]verifier.Mismatch, len(c.Mismatches))}
		r.Cases[i] = diffCase{}
	}
	if err := checkConsistent(&rep); err != nil {
		return nil, err
	}
	return &rep, nil
}
