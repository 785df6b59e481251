package reports

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// SARIF renders a report, and the problems found in the case files, as a
// SARIF 2.1.0 log for code scanning, whose alerts persist across runs and
// are matched from one run to the next by their fingerprints.
//
// There is one rule per check of the loader and lint (lint/NAME), per
// kind of mismatch, named by the comparer (mismatch/COMPARER, and
// mismatch/not-observed), for a case that could not run (case/errored)
// and per fault of a strength run (fault/HOST/NAME). A failed case gives
// one result per mismatched key, at the case's line and column when the
// report located it (else at the file's first line); a missed fault is
// reported at the first line of the first desk with a case of a scenario
// it belongs to (no location when there is none). Every result carries a partialFingerprints
// entry made from <desk>/<case> and the key (a file's problem: the file,
// the check and the pointer), so that an alert keeps its identity when
// lines move.
//
// Code scanning shows at most 5,000 results of a run and refuses a file
// over 10 MB, so at most SARIFResults results are written (errors first,
// the first of each file before the second of any) and no more once they
// take SARIFBudget bytes; a notification of the invocation says how many
// were left out and where they are.
type SARIF struct {
	// Diagnostics are the problems found while reading the case files;
	// nil: those the report holds.
	Diagnostics verifier.Diagnostics
	// Registry, when set, tells each case's host, for where a missed
	// fault is reported.
	Registry *scenario.Registry
	// Version is the tool's version when there is no report.
	Version string
	// Where says where the results left out can be read; empty:
	// report.json in the report folder.
	Where string
}

// SARIFResults is the most results written: code scanning shows no more
// of one run.
const SARIFResults = 5000

// SARIFBudget bounds the bytes of the results, under code scanning's
// 10 MB limit on an uploaded file with room for the rules.
const SARIFBudget = 8 << 20

// sarifMessageBytes bounds the text of one result's message.
const sarifMessageBytes = 1 << 10

// FingerprintKey names deskcheck's entry of partialFingerprints.
const FingerprintKey = "deskcheckCase/v1"

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Properties  map[string]any    `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	ShortDescription     sarifText       `json:"shortDescription"`
	FullDescription      *sarifText      `json:"fullDescription,omitempty"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]string `json:"properties,omitempty"`
	// Suppressions marks an acknowledged warning: the desk says, in the
	// file itself, why it is meant, so code scanning opens no alert.
	Suppressions []sarifSuppression `json:"suppressions,omitempty"`
}

// sarifSuppression is a result's suppression: an acknowledge key of the
// case file, with its reason.
// A suppression without a status is an accepted one.
type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// sarifItem is a result before its rule has an index.
type sarifItem struct {
	rule   sarifRule
	result sarifResult
	file   string
}

// rules keeps the rules in order of first use.
type sarifRules struct {
	list  []sarifRule
	index map[string]int
}

func (rs *sarifRules) add(r sarifRule) int {
	if i, ok := rs.index[r.ID]; ok {
		return i
	}
	if rs.index == nil {
		rs.index = map[string]int{}
	}
	rs.index[r.ID] = len(rs.list)
	rs.list = append(rs.list, r)
	return len(rs.list) - 1
}

// fingerprint is a stable digest of the parts that identify a result.
func fingerprint(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:16])
}

// artifactURI writes a file path as the URI of an artifact: relative
// paths stay relative (to the checkout, for code scanning), with forward
// slashes and each segment escaped; absolute ones become file: URIs.
func artifactURI(p string) string {
	p = filepath.ToSlash(p)
	abs := strings.HasPrefix(p, "/")
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range segs {
		// A colon is escaped too: in a first segment it would read as a
		// scheme.
		segs[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
	}
	out := strings.Join(segs, "/")
	if abs {
		return "file:///" + out
	}
	return out
}

func sarifLocations(file string, line, col int) []sarifLocation {
	if file == "" {
		return nil
	}
	// Code scanning places a result only by its region's startLine: one
	// the report did not locate is placed at the file's first line.
	loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: artifactURI(file)},
		Region: &sarifRegion{StartLine: max(line, 1), StartColumn: max(col, 1)}}}
	return []sarifLocation{loc}
}

func sarifLevel(sev verifier.Severity) string {
	if sev == verifier.Warning {
		return "warning"
	}
	return "error"
}

func sarifMessage(s string) sarifText {
	s = visible(s, true)
	if len(s) > sarifMessageBytes {
		s = clipUTF8(s, sarifMessageBytes) + "… (report.json holds it whole)"
	}
	return sarifText{Text: s}
}

// diagnosticItems are the problems of the case files as results.
func diagnosticItems(ds verifier.Diagnostics) []sarifItem {
	var out []sarifItem
	for _, d := range ds {
		check := checkOf(d)
		level := sarifLevel(d.Severity)
		rule := sarifRule{ID: "lint/" + check.name, Name: check.name, ShortDescription: sarifText{check.description}, DefaultConfiguration: sarifRuleConfig{level}}
		msg := d.Summary
		if d.Pointer != "" {
			msg += " (" + d.Pointer + ")"
		}
		if d.Detail != "" {
			msg += "\n" + d.Detail
		}
		if e, w, a := d.LeftOut(); e+w+a > 0 {
			// A count of problems left out of a file's list is no
			// problem of its own: a note, which opens no alert of
			// error or warning level.
			level = "note"
			msg += fmt.Sprintf(" not listed: %s, %s and %s (-max-diagnostics raises how many are listed)",
				plural(e, "error", "errors"), plural(w, "warning", "warnings"), plural(a, "acknowledged warning", "acknowledged warnings"))
		}
		props := map[string]string{}
		if d.Pointer != "" {
			props["pointer"] = d.Pointer
		}
		var suppressions []sarifSuppression
		if d.Acknowledged != "" {
			suppressions = []sarifSuppression{{Kind: "inSource", Justification: sarifMessage(d.Acknowledged).Text}}
		}
		out = append(out, sarifItem{rule: rule, file: d.File, result: sarifResult{
			Level: level, Message: sarifMessage(msg), Locations: sarifLocations(d.File, d.Line, d.Col),
			PartialFingerprints: map[string]string{FingerprintKey: fingerprint("file", d.File, rule.ID, d.Pointer, d.Summary)},
			Properties:          props,
			Suppressions:        suppressions,
		}})
	}
	return out
}

// caseItems are the failed and errored cases of r as results: one per
// mismatched key.
func caseItems(r *Report) []sarifItem {
	var out []sarifItem
	files := deskFiles(r)
	for _, c := range failures(r.Cases) {
		c := c.whole()
		id := c.Desk + "/" + c.ID
		file := files[c.Desk]
		props := map[string]string{"case": id, "scenario": c.Scenario}
		if c.Status != verifier.Fail {
			rule := sarifRule{ID: "case/errored", Name: "case-errored", ShortDescription: sarifText{"A case could not run."}, DefaultConfiguration: sarifRuleConfig{"error"}}
			out = append(out, sarifItem{rule: rule, file: file, result: sarifResult{
				Level: "error", Message: sarifMessage(id + " (" + c.Title + ") could not run: " + c.Error), Locations: sarifLocations(file, c.Line, c.Column),
				PartialFingerprints: map[string]string{FingerprintKey: fingerprint("case", id, "")}, Properties: props,
			}})
			continue
		}
		for _, m := range c.Mismatches {
			kind := mismatchKind(m)
			rule := sarifRule{ID: "mismatch/" + kind, Name: "mismatch-" + kind,
				ShortDescription:     sarifText{"An expected key differs from what the host model observes (" + m.Comparison + ")."},
				DefaultConfiguration: sarifRuleConfig{"error"}}
			if kind == "not-observed" {
				rule.ShortDescription = sarifText{"An expected key is not observed by the case's scenario."}
			}
			p := map[string]string{"key": m.Field}
			for k, v := range props {
				p[k] = v
			}
			out = append(out, sarifItem{rule: rule, file: file, result: sarifResult{
				Level: "error", Message: sarifMessage(id + " (" + c.Title + "): " + mismatchText(m, "  ")), Locations: sarifLocations(file, c.Line, c.Column),
				PartialFingerprints: map[string]string{FingerprintKey: fingerprint("case", id, m.Field)}, Properties: p,
			}})
		}
	}
	return out
}

// faultRule is the rule of a fault.
func faultRule(f FaultResult) sarifRule {
	return sarifRule{ID: "fault/" + f.Fault, Name: "fault-" + ruleToken(f.Fault), ShortDescription: sarifText{"No case fails when " + f.Bug + "."},
		DefaultConfiguration: sarifRuleConfig{"error"}}
}

// faultItems are the missed faults of r as results.
func (s SARIF) faultItems(r *Report) []sarifItem {
	if r.Strength == nil {
		return nil
	}
	at := faultFiles(r, s.Registry)
	var out []sarifItem
	for _, f := range r.Strength.Results {
		if f.Caught {
			continue
		}
		rule := faultRule(f)
		rule.FullDescription = &sarifText{"To catch it: " + f.Hint}
		line := 0
		if at[f.Fault] != "" {
			line = 1
		}
		out = append(out, sarifItem{rule: rule, file: at[f.Fault], result: sarifResult{
			Level: "error", Message: sarifMessage("fault " + f.Fault + " missed: no case fails when " + f.Bug + "\nto catch it: " + f.Hint),
			Locations:           sarifLocations(at[f.Fault], line, 1),
			PartialFingerprints: map[string]string{FingerprintKey: fingerprint("fault", f.Fault)}, Properties: map[string]string{"fault": f.Fault},
		}})
	}
	return out
}

// Write renders r, and the diagnostics, as a SARIF log.
func (s SARIF) Write(w io.Writer, r *Report) error { return s.write(w, r) }

// WriteDiagnostics renders the diagnostics alone, with no run of cases.
func (s SARIF) WriteDiagnostics(w io.Writer) error { return s.write(w, nil) }

func (s SARIF) write(w io.Writer, r *Report) error {
	var errs, warns []sarifItem
	ds := s.Diagnostics
	if ds == nil && r != nil {
		ds = r.Diagnostics
	}
	for _, it := range diagnosticItems(ds) {
		if it.result.Level == "error" {
			errs = append(errs, it)
		} else {
			warns = append(warns, it)
		}
	}
	version := s.Version
	var rules sarifRules
	props := map[string]any{}
	if r != nil {
		errs = append(errs, caseItems(r)...)
		errs = append(errs, s.faultItems(r)...)
		errs = append(errs, realCodeItems(r)...)
		version = r.Provenance.Deskcheck
		props["verdict"] = r.Verdict
		props["summary"] = SummaryLine(r.Summary)
		if r.StrengthVerdict != "" {
			props["strengthVerdict"] = r.StrengthVerdict
		}
	}
	byFile := func(it sarifItem) string { return it.file }
	items := append(spread(errs, byFile), spread(warns, byFile)...)
	var results []json.RawMessage
	size := 0
	for _, it := range items {
		if len(results) == SARIFResults || size > SARIFBudget {
			break
		}
		it.result.RuleID = it.rule.ID
		it.result.RuleIndex = rules.add(it.rule)
		b, err := marshal(it.result, "")
		if err != nil {
			return err
		}
		size += len(b)
		results = append(results, b)
	}
	// Every fault measured has its rule, caught or not.
	if r != nil && r.Strength != nil {
		for _, f := range r.Strength.Results {
			rules.add(faultRule(f))
		}
	}
	inv := sarifInvocation{ExecutionSuccessful: true}
	if rest := len(items) - len(results); rest > 0 {
		where := s.Where
		if where == "" {
			where = "report.json in the report folder"
		}
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "note", Message: sarifText{fmt.Sprintf("%s of %s are written (code scanning shows at most %s of a run); the %s left out are in %s",
			verifier.Thousands(len(results)), plural(len(items), "result", "results"), verifier.Thousands(SARIFResults), verifier.Thousands(rest), where)}})
		props["resultsLeftOut"] = rest
	}
	if len(props) == 0 {
		props = nil
	}
	if rules.list == nil {
		rules.list = []sarifRule{}
	}
	run := sarifRun{
		Tool:        sarifTool{Driver: sarifDriver{Name: "deskcheck", Version: version, InformationURI: "https://github.com/deskcheck/deskcheck", Rules: rules.list}},
		Invocations: []sarifInvocation{inv},
		Properties:  props,
	}
	// The log is compact JSON with each result on a line of its own, so
	// that a changed result is one changed line.
	head, err := marshal(run, "")
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(`{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[`)
	bw.Write(head[:len(head)-1])
	bw.WriteString(`,"results":[`)
	for i, b := range results {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n")
		bw.Write(b)
	}
	if len(results) > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString("]}]}\n")
	return bw.Flush()
}
