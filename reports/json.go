package reports

import (
	"bytes"
	"encoding/json"
	"io"
)

// MarshalIndent renders the evidence as indented JSON with a final newline.
// The output is deterministic for the same results and time stamp.
func (r *Report) MarshalIndent() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteJSON writes the evidence to w.
func WriteJSON(w io.Writer, r *Report) error {
	b, err := r.MarshalIndent()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
