package verifier

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"

	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// referenceIndex is the straightforward recursive walk that check
// replaces; the tests check that both find the same problems in a document
// that is JSON.
func (d *Desk) referenceIndex(v gjson.Result, depth int, limits Limits) Diagnostics {
	at := func(off int, ptr string, format string, args ...any) Diagnostics {
		line, col := d.position().at(off)
		return Diagnostics{{Severity: Error, File: d.Path, Line: line, Col: col, Pointer: ptr, Summary: fmt.Sprintf(format, args...)}}
	}
	switch {
	case depth > limits.Depth:
		return at(v.Index, d.pointerAt(v.Index), "nesting deeper than %d levels", limits.Depth)
	case v.Type == gjson.Number:
		if f, err := strconv.ParseFloat(v.Raw, 64); err != nil || math.IsInf(f, 0) {
			return at(v.Index, d.pointerAt(v.Index), "number %s is out of range", v.Raw)
		} else if f == 0 && strings.ContainsAny(strings.FieldsFunc(v.Raw, func(r rune) bool { return r == 'e' || r == 'E' })[0], "123456789") {
			return at(v.Index, d.pointerAt(v.Index), "number %s is out of range: it is not 0 but too small for a double, which reads it as 0", v.Raw)
		}
	case v.Type == gjson.String && len(v.Str) > limits.String:
		return at(v.Index, d.pointerAt(v.Index), "%s", overLimit("the length of a string", int64(len(v.Str)), int64(limits.String)))
	}
	var ds Diagnostics
	if v.IsObject() {
		first := map[string]int{}
		v.ForEach(func(k, val gjson.Result) bool {
			// A key as the hosts read it: "a\ud800" and "a\udc00" are two.
			key := hostText(k)
			if len(key) > limits.String {
				ds = append(ds, at(k.Index, d.pointerAt(k.Index), "%s", overLimit("the length of a key", int64(len(key)), int64(limits.String)))...)
			} else if off, dup := first[key]; dup {
				fl, fc := d.position().at(off)
				ptr := d.pointerAt(k.Index) + "/" + jsontext.PointerToken(key)
				ds = append(ds, at(k.Index, ptr, "duplicate key %s (first at %d:%d)", jsontext.Quote(key), fl, fc)...)
			} else {
				first[key] = k.Index
			}
			ds = append(ds, d.referenceIndex(val, depth+1, limits)...)
			return true
		})
	} else if v.IsArray() {
		v.ForEach(func(_, val gjson.Result) bool {
			ds = append(ds, d.referenceIndex(val, depth+1, limits)...)
			return true
		})
	}
	return ds
}

// pointerAt returns the JSON pointer of the innermost value whose text
// holds byte offset off, walking from the root.
func (d *Desk) pointerAt(off int) string {
	var b strings.Builder
	cur := d.root
	for {
		found := false
		switch {
		case cur.IsObject():
			cur.ForEach(func(k, v gjson.Result) bool {
				if v.Index <= off && off < v.Index+len(v.Raw) {
					b.WriteByte('/')
					b.WriteString(jsontext.PointerToken(k.Str))
					cur, found = v, true
					return false
				}
				return true
			})
		case cur.IsArray():
			i := 0
			cur.ForEach(func(_, v gjson.Result) bool {
				if v.Index <= off && off < v.Index+len(v.Raw) {
					b.WriteByte('/')
					b.WriteString(strconv.Itoa(i))
					cur, found = v, true
					return false
				}
				i++
				return true
			})
		}
		if !found || cur.Index == off {
			return b.String()
		}
	}
}

// scanAgrees checks data both ways: where encoding/json finds the text is
// not JSON, check must say so with the same message at the same place;
// where it is JSON (and an object), check must find what the reference
// walk finds.
func scanAgrees(t testingT, data []byte) {
	if !utf8.Valid(data) || len(strings.TrimSpace(string(data))) == 0 {
		return
	}
	d := &Desk{Path: "x.json", text: string(data)}
	got := diagStrings(d.check(DefaultLimits))
	var raw json.RawMessage
	err := json.Unmarshal(data, &raw)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		if strings.Contains(se.Error(), "exceeded max depth") {
			return // encoding/json stops at 10,000 levels; check does not
		}
		off := int(se.Offset)
		if off > 0 {
			off--
		}
		msg := se.Error()
		// NaN and the infinities are named instead, at the value's start;
		// only where a value (or a number's digits) is looked for: after
		// the top-level value, or where an object's key is, there is no
		// value to name.
		noValue := !strings.Contains(msg, "looking for beginning of value") && !strings.Contains(msg, "in numeric literal")
		if !noValue && off > 0 && data[off-1] == '-' && notANumber(string(data[off-1:])) != "" {
			off--
		}
		if w := notANumber(string(data[off:])); w != "" && !noValue {
			msg = w + " is not JSON: JSON has no such number (write a finite number, or null)"
		}
		line, col := d.position().at(off)
		want := fmt.Sprintf("x.json:%d:%d: error: malformed JSON: %s", line, col, msg)
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Fatalf("check found %q, encoding/json %q, in %q", got, want, data)
		}
		return
	}
	if err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	d.root = gjson.Parse(d.text)
	if !d.root.IsObject() {
		if len(got) != 1 || !strings.Contains(got[0], "the top level must be a JSON object") {
			t.Fatalf("check found %q in a top level that is not an object: %q", got, data)
		}
		return
	}
	for _, limits := range []Limits{DefaultLimits, {FileSize: 1 << 30, Depth: 3, Cases: 10, String: 8, Diagnostics: 1000}} {
		limits = limits.WithDefaults()
		got := diagStrings(d.check(limits))
		want := diagStrings(d.referenceIndex(d.root, 1, limits))
		if len(want) > limits.Diagnostics {
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("check found %q, the reference walk %q, in %q", got, want, data)
		}
	}
}

type testingT interface {
	Fatalf(format string, args ...any)
}
