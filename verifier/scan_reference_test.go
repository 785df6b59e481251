package verifier

import (
	"fmt"
	"math"
	"strconv"

	"github.com/tidwall/gjson"
)

// referenceIndex is the straightforward recursive walk that scan replaces;
// the tests check that both find the same problems.
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
		}
	case v.Type == gjson.String && len(v.Raw) > limits.String+2:
		return at(v.Index, d.pointerAt(v.Index), "%s", overLimit("the length of a string", int64(len(v.Raw)-2), int64(limits.String)))
	}
	var ds Diagnostics
	if v.IsObject() {
		// Keys seen so far: a short list for the usual small object, a map
		// once an object grows large.
		var small [16]gjson.Result
		keys := small[:0]
		var many map[string]int
		v.ForEach(func(k, val gjson.Result) bool {
			if len(k.Raw) > limits.String+2 {
				ds = append(ds, at(k.Index, d.pointerAt(k.Index), "%s", overLimit("the length of a key", int64(len(k.Raw)-2), int64(limits.String)))...)
				return false
			}
			first := -1
			if many != nil {
				if off, ok := many[k.Str]; ok {
					first = off
				}
				many[k.Str] = k.Index
			} else {
				for _, s := range keys {
					if s.Str == k.Str {
						first = s.Index
						break
					}
				}
				if keys = append(keys, k); len(keys) > len(small) {
					many = make(map[string]int, 2*len(keys))
					for _, s := range keys {
						many[s.Str] = s.Index
					}
				}
			}
			if first >= 0 {
				fl, fc := d.position().at(first)
				ptr := d.pointerAt(k.Index) + "/" + pointerToken(k.Str)
				ds = append(ds, at(k.Index, ptr, "duplicate key %q (first at %d:%d)", k.Str, fl, fc)...)
				return true
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

// scanAgrees loads data both ways and compares the problems found.
func scanAgrees(t testingT, data []byte) {
	d := &Desk{Path: "x.json", text: string(data)}
	if !gjson.Valid(d.text) {
		return
	}
	d.root = gjson.Parse(d.text)
	if !d.root.IsObject() {
		return
	}
	for _, limits := range []Limits{DefaultLimits, {FileSize: 1 << 30, Depth: 3, Cases: 10, String: 8}} {
		got := diagStrings(d.scan(limits))
		want := diagStrings(d.referenceIndex(d.root, 1, limits))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("scan found %q, the reference walk %q, in %q", got, want, data)
		}
	}
}

type testingT interface {
	Fatalf(format string, args ...any)
}
