package reports

import (
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

// JSON renders the evidence as indented JSON, deterministic for the same
// results and time stamp.
type JSON struct{}

// Write renders r as JSON with a final newline.
func (JSON) Write(w io.Writer, r *Report) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
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
