package reports

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/schema"
	"github.com/tidwall/gjson"
)

// ReportSchema is the draft-07 JSON Schema of report.json.
//
//go:embed report.schema.json
var ReportSchema []byte

// JSON renders the evidence, deterministic for the same results and time
// stamp: indented, except that each case and each source-only claim takes
// one line, so that a large report stays fast to write and a changed case
// is one changed line.
type JSON struct{}

// casesPerBatch bounds how many encoded cases are held in memory at once.
const casesPerBatch = 4096

// lineBytes is the room each element's line starts with.
const lineBytes = 8 << 10

// Write renders r as JSON with a final newline.
func (JSON) Write(w io.Writer, r *Report) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	// The head's fields go through one buffer and one encoder, which
	// keep their room from one field to the next (coverage alone is
	// about 1 MB of a 10,000-case report).
	var buf bytes.Buffer
	var quoted []byte
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	var written []byte // coverage, written by hand
	field := func(name string, v any, last bool) error {
		var b []byte
		if c, isCoverage := v.(*Coverage); isCoverage {
			if out, ok := appendCoverageJSON(written[:0], c, "  "); ok {
				written, b = out, out
			}
		}
		if b == nil {
			buf.Reset()
			if err := enc.Encode(v); err != nil {
				return err
			}
			b = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		}
		sep := ","
		if last {
			sep = ""
		}
		bw.WriteString("  ")
		quoted = strconv.AppendQuote(quoted[:0], name)
		bw.Write(quoted)
		bw.WriteString(": ")
		bw.Write(b)
		_, err := bw.WriteString(sep + "\n")
		return err
	}
	if _, err := bw.WriteString("{\n"); err != nil {
		return err
	}
	type named struct {
		name string
		v    any
	}
	head := []named{{"formatVersion", r.FormatVersion}, {"generatedAt", r.GeneratedAt}, {"verdict", r.Verdict}}
	if r.StrengthVerdict != "" {
		head = append(head, named{"strengthVerdict", r.StrengthVerdict})
	}
	head = append(head, named{"provenance", r.Provenance}, named{"summary", r.Summary}, named{"dimensions", r.Dimensions})
	if r.Coverage != nil {
		head = append(head, named{"coverage", r.Coverage})
	}
	if len(r.Diagnostics) > 0 {
		head = append(head, named{"diagnostics", r.Diagnostics})
	}
	if len(r.Lessons) > 0 {
		head = append(head, named{"lessons", r.Lessons})
	}
	if len(r.RealCode) > 0 {
		head = append(head, named{"realCode", r.RealCode})
	}
	for _, f := range head {
		if err := field(f.name, f.v, false); err != nil {
			return err
		}
	}
	if r.spill != nil {
		if err := r.spill.writeCases(bw, r.Cases); err != nil {
			return err
		}
	} else if err := writeLines(bw, "cases", len(r.Cases), func(b []byte, i int) ([]byte, error) { return r.Cases[i].appendJSON(b), nil }); err != nil {
		return err
	}
	bw.WriteString(",\n")
	last := r.Strength == nil
	if err := writeLines(bw, "sourceOnly", len(r.SourceOnly), func(b []byte, i int) ([]byte, error) {
		m, err := marshal(r.SourceOnly[i], "")
		return append(b, m...), err
	}); err != nil {
		return err
	}
	if last {
		bw.WriteString("\n")
	} else {
		bw.WriteString(",\n")
		if err := field("strength", r.Strength, true); err != nil {
			return err
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// writeLines writes a JSON array field with one compact element per line,
// encoding elements in parallel batches.
func writeLines(w *bufio.Writer, name string, n int, elem func(b []byte, i int) ([]byte, error)) error {
	fmt.Fprintf(w, "  %q: [", name)
	lines := make([][]byte, min(n, casesPerBatch))
	for start := 0; start < n; start += casesPerBatch {
		end := min(n, start+casesPerBatch)
		errs := make([]error, end-start)
		parallel.For(end-start, func(i int) {
			if lines[i] == nil {
				// Most cases take a few kilobytes: start there rather
				// than grow to it from nothing.
				lines[i] = make([]byte, 0, lineBytes)
			}
			lines[i], errs[i] = elem(lines[i][:0], start+i)
		})
		for i := 0; i < end-start; i++ {
			if errs[i] != nil {
				return errs[i]
			}
			if start+i > 0 {
				w.WriteByte(',')
			}
			w.WriteString("\n    ")
			w.Write(lines[i])
		}
	}
	if n > 0 {
		w.WriteString("\n  ")
	}
	_, err := w.WriteString("]")
	return err
}

// marshal encodes v without HTML escaping; indent, when set, indents nested
// lines as a field of the top-level object.
func marshal(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent(indent, "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

var (
	reportSchemaOnce sync.Once
	reportSchema     *schema.Schema
	reportSchemaErr  error
)

// CheckJSON validates JSON evidence: it must pass the reading rules of
// case files (see ReadLimits), match ReportSchema, and say what its counts
// say (see checkVerdicts).
func CheckJSON(data []byte) error {
	reportSchemaOnce.Do(func() { reportSchema, reportSchemaErr = schema.Compile(ReportSchema) })
	if reportSchemaErr != nil {
		return fmt.Errorf("compiling the report schema: %w", reportSchemaErr)
	}
	if err := scanEvidence(data); err != nil {
		return err
	}
	problems, more, err := validateEvidence(data)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		var msgs []string
		for i, p := range problems {
			if i == evidenceProblemsShown {
				if more {
					msgs = append(msgs, fmt.Sprintf("and %d more (the check stops after %d problems)", len(problems)-i, evidenceProblemsKept))
				} else {
					msgs = append(msgs, fmt.Sprintf("and %d more", len(problems)-i))
				}
				break
			}
			where := p.Pointer
			if p.Key != "" {
				where += "/" + p.Key
			}
			if where == "" {
				where = "/"
			}
			msg := where + ": " + p.Message
			if len(msg) > evidenceProblemBytes {
				msg = clipUTF8(msg, evidenceProblemBytes) + "…"
			}
			msgs = append(msgs, msg)
		}
		hint := ""
		if gjson.GetBytes(data, "executionPolicy").Exists() && gjson.GetBytes(data, "cases").IsArray() && !gjson.GetBytes(data, "formatVersion").Exists() {
			hint = " (this looks like a case file: verify it, then render the report.json that verify writes)"
		}
		return fmt.Errorf("not deskcheck evidence%s: %s", hint, strings.Join(msgs, "; "))
	}
	return checkVerdicts(data)
}

// evidenceProblemsShown is how many problems of a file that is not a
// report the error names; the rest are counted.
const evidenceProblemsShown = 20

// evidenceProblemBytes bounds each problem the error names.
const evidenceProblemBytes = 300

// ReadJSON reads saved evidence, checking it with CheckJSON first.
func ReadJSON(data []byte) (*Report, error) {
	if err := CheckJSON(data); err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	if err := checkConsistent(&r); err != nil {
		return nil, err
	}
	// A suggestion without a value suggests the observed one.
	for i := range r.Cases {
		suggestObserved(&r.Cases[i])
	}
	return &r, nil
}

// appendJSON appends the case as compact JSON, field for field as
// encoding/json would write the Case struct, without reflection.
func (c *Case) appendJSON(b []byte) []byte {
	str := func(name, v string) {
		b = append(b, ',', '"')
		b = append(b, name...)
		b = append(b, '"', ':')
		b = jsonx.AppendString(b, v)
	}
	raw := func(name string, v []byte) {
		b = append(b, ',', '"')
		b = append(b, name...)
		b = append(b, '"', ':')
		if len(v) == 0 {
			v = []byte("null")
		}
		b = append(b, v...)
	}
	b = append(b, `{"desk":`...)
	b = jsonx.AppendString(b, c.Desk)
	str("id", c.ID)
	if c.Line != 0 {
		b = append(b, `,"line":`...)
		b = strconv.AppendInt(b, int64(c.Line), 10)
	}
	if c.Column != 0 {
		b = append(b, `,"column":`...)
		b = strconv.AppendInt(b, int64(c.Column), 10)
	}
	str("title", c.Title)
	str("scenario", c.Scenario)
	if c.Arena != "" {
		str("family", c.Arena)
	}
	if c.Lesson != "" {
		str("lesson", c.Lesson)
	}
	str("status", string(c.Status))
	if c.Why != "" {
		str("why", c.Why)
	}
	b = append(b, `,"sourceRefs":[`...)
	for i, s := range c.SourceRefs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"key":`...)
		b = jsonx.AppendString(b, s.Key)
		b = append(b, `,"source":`...)
		b = jsonx.AppendString(b, s.Source)
		b = append(b, '}')
	}
	b = append(b, ']')
	raw("given", c.Given)
	raw("expected", c.Expected)
	b = append(b, `,"observed":`...)
	if c.Observed == nil {
		b = append(b, "null"...)
	} else {
		b = jsonx.Append(b, c.Observed)
	}
	b = append(b, `,"mismatches":[`...)
	for i, m := range c.Mismatches {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"field":`...)
		b = jsonx.AppendString(b, m.Field)
		b = append(b, `,"comparison":`...)
		b = jsonx.AppendString(b, m.Comparison)
		b = append(b, `,"expected":`...)
		b = jsonx.Append(b, m.Expected)
		b = append(b, `,"observed":`...)
		b = jsonx.Append(b, m.Observed)
		if len(m.Changes) > 0 {
			b = append(b, `,"changes":`...)
			b = jsonx.Append(b, m.Changes)
		}
		b = append(b, '}')
	}
	b = append(b, `],"comparisons":`...)
	b = jsonx.Append(b, c.Comparisons)
	b = append(b, `,"suggested":[`...)
	for i, x := range c.Suggested {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"key":`...)
		b = jsonx.AppendString(b, x.Key)
		if x.Shaped {
			b = append(b, `,"value":`...)
			b = jsonx.Append(b, x.Value)
		}
		b = append(b, '}')
	}
	b = append(b, `],"unit":`...)
	b = jsonx.AppendString(b, c.Unit)
	b = append(b, `,"dimensions":`...)
	b = c.Dimensions.AppendJSON(b)
	b = append(b, `,"trace":[`...)
	for i, e := range c.Trace {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"seq":`...)
		b = strconv.AppendInt(b, int64(e.Seq), 10)
		b = append(b, `,"kind":`...)
		b = jsonx.AppendString(b, e.Kind)
		b = append(b, `,"text":`...)
		b = jsonx.AppendString(b, e.Text)
		b = append(b, '}')
	}
	b = append(b, ']')
	if c.Error != "" {
		str("error", c.Error)
	}
	if c.Range != "" {
		str("range", c.Range)
	}
	if len(c.Releases) > 0 {
		b = append(b, `,"releases":[`...)
		for i, v := range c.Releases {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"host":`...)
			b = jsonx.AppendString(b, v.Host)
			str("release", v.Release)
			str("group", v.Group)
			str("status", string(v.Status))
			if v.Reason != "" {
				str("reason", v.Reason)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if c.Release != "" {
		str("release", c.Release)
	}
	if c.Reason != "" {
		str("reason", c.Reason)
	}
	return append(b, '}')
}
