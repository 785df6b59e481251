package reports

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/deskcheck/deskcheck/schema"
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

// Write renders r as JSON with a final newline.
func (JSON) Write(w io.Writer, r *Report) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	field := func(name string, v any, last bool) error {
		b, err := marshal(v, "  ")
		if err != nil {
			return err
		}
		sep := ","
		if last {
			sep = ""
		}
		_, err = fmt.Fprintf(bw, "  %q: %s%s\n", name, b, sep)
		return err
	}
	if _, err := bw.WriteString("{\n"); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    any
	}{{"formatVersion", r.FormatVersion}, {"generatedAt", r.GeneratedAt}, {"verdict", r.Verdict}, {"provenance", r.Provenance}, {"summary", r.Summary}} {
		if err := field(f.name, f.v, false); err != nil {
			return err
		}
	}
	if err := writeLines(bw, "cases", len(r.Cases), func(i int) any { return r.Cases[i] }); err != nil {
		return err
	}
	bw.WriteString(",\n")
	last := r.Strength == nil
	if err := writeLines(bw, "sourceOnly", len(r.SourceOnly), func(i int) any { return r.SourceOnly[i] }); err != nil {
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
func writeLines(w *bufio.Writer, name string, n int, elem func(i int) any) error {
	fmt.Fprintf(w, "  %q: [", name)
	lines := make([][]byte, min(n, casesPerBatch))
	for start := 0; start < n; start += casesPerBatch {
		end := min(n, start+casesPerBatch)
		errs := make([]error, end-start)
		forEach(end-start, func(i int) { lines[i], errs[i] = marshal(elem(start+i), "") })
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

// CheckJSON validates JSON evidence against ReportSchema.
func CheckJSON(data []byte) error {
	reportSchemaOnce.Do(func() { reportSchema, reportSchemaErr = schema.Compile(ReportSchema) })
	if reportSchemaErr != nil {
		return fmt.Errorf("compiling the report schema: %w", reportSchemaErr)
	}
	if !json.Valid(data) {
		return fmt.Errorf("not JSON")
	}
	problems, err := reportSchema.Validate(data)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		var msgs []string
		for _, p := range problems {
			where := p.Pointer
			if p.Key != "" {
				where += "/" + p.Key
			}
			if where == "" {
				where = "/"
			}
			msgs = append(msgs, where+": "+p.Message)
		}
		return fmt.Errorf("not deskcheck evidence: %s", strings.Join(msgs, "; "))
	}
	return nil
}

// ReadJSON reads saved evidence, checking it against ReportSchema first.
func ReadJSON(data []byte) (*Report, error) {
	if err := CheckJSON(data); err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	return &r, nil
}
