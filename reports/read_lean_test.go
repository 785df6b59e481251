package reports

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// leanReadInputs are saved reports to read both ways: the goldens, and
// the streamed reports of the suites TestStreamIsBuild makes (hundreds
// of failures past the cards, host values that only the host decoders
// read faithfully).
func leanReadInputs(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	goldens, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	for _, path := range goldens {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		if CheckJSON(data) == nil {
			out[path] = data
		}
	}
	require.NotEmpty(t, out, "the goldens hold reports")
	for name, inputs := range streamInputs(t) {
		var buf bytes.Buffer
		require.NoError(t, JSON{}.Write(&buf, streamed(t, inputs, false)))
		out[name] = buf.Bytes()
	}
	return out
}

// TestReadJSONLeanIsReadJSON: a report read a case at a time, its
// evidence set aside, says byte for byte in every format what the report
// read whole says.
func TestReadJSONLeanIsReadJSON(t *testing.T) {
	for name, data := range leanReadInputs(t) {
		t.Run(name, func(t *testing.T) {
			whole, err := ReadJSON(data)
			require.NoError(t, err)
			lean, err := ReadJSONLean(data, true)
			require.NoError(t, err)
			defer lean.Close()
			want, got := everyFormat(t, whole, Text{Dimensions: true}), everyFormat(t, lean, Text{Dimensions: true})
			for format := range want {
				if !assert.True(t, want[format] == got[format], "the lean %s differs", format) {
					diffAt(t, want[format], got[format])
				}
			}
		})
	}
}

// TestReadJSONLeanRefusesWhatReadJSONRefuses: the same error, where.
func TestReadJSONLeanRefusesWhatReadJSONRefuses(t *testing.T) {
	data, err := os.ReadFile("testdata/releases.json")
	require.NoError(t, err)
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&doc))
	cases := doc["cases"].([]any)
	var fails []int
	pass := -1
	for i, c := range cases {
		switch c.(map[string]any)["status"] {
		case "fail":
			fails = append(fails, i)
		case "pass":
			if pass < 0 {
				pass = i
			}
		}
	}
	require.True(t, len(fails) >= 2 && pass >= 0)
	fail := fails[0]
	edited := func(f func(cases []any)) []byte {
		var copied map[string]any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		require.NoError(t, dec.Decode(&copied))
		f(copied["cases"].([]any))
		out, err := json.Marshal(copied)
		require.NoError(t, err)
		return out
	}
	for name, bad := range map[string][]byte{
		"not JSON":     []byte(`{"formatVersion":`),
		"not a report": []byte(`[]`),
		"a case twice": edited(func(cases []any) { cases[fails[1]] = cases[fail] }),
		"a pass that failed": edited(func(cases []any) {
			cases[pass].(map[string]any)["mismatches"] = cases[fail].(map[string]any)["mismatches"]
		}),
	} {
		t.Run(name, func(t *testing.T) {
			_, want := ReadJSON(bad)
			require.Error(t, want)
			_, got := ReadJSONLean(bad, true)
			require.Error(t, got)
			assert.Equal(t, want.Error(), got.Error())
		})
	}
}

// TestHoldGivesBackTheValues: what is set aside reads back as the very
// values, nil and empty told apart, numbers as their doubles or literals,
// strings byte for byte; a damaged encoding is said in the case's error,
// and a value of a kind the encoding does not know stays in memory.
func TestHoldGivesBackTheValues(t *testing.T) {
	values := map[string]any{
		"nil": nil, "true": true, "false": false, "text": "a\x00b\xff\xed\xa0\x80", "float": 0.1, "nan": math.NaN(), "inf": math.Inf(-1),
		"number": json.Number("12345678901234567890"), "list": []any{1.0, "x", []any{}, []any(nil)}, "empty list": []any{},
		"nil list": []any(nil), "object": map[string]any{"k": map[string]any{}}, "nil object": map[string]any(nil),
		"long": strings.Repeat("long ", heldPiece/2),
	}
	c := Case{
		ID:       "c",
		Trace:    []scenario.Event{{Seq: 0, Kind: "k", Text: "t"}, {Seq: -3, Kind: "", Text: "\u2028"}, {Seq: 2, Kind: "k", Text: strings.Repeat("t", 3*heldPiece)}},
		Observed: values,
		Mismatches: []verifier.Mismatch{{Field: "f", Comparison: "exact", Expected: values, Observed: nil,
			Changes: []scenario.Change{{Path: "[1]", Kind: "changed", Expected: 1.0, Observed: "x"}}}, {Field: "g"}},
		Suggested: []verifier.Suggestion{{Key: "k", Value: []any{"v"}, Shaped: true}, {Key: "l"}},
	}
	for _, tmp := range []string{os.TempDir(), filepath.Join(t.TempDir(), "missing")} {
		t.Setenv("TMPDIR", tmp)
		h := newHold()
		x := c
		require.NoError(t, h.put(&x))
		require.NoError(t, h.flush())
		assert.Nil(t, x.Trace, "set aside")
		assert.Nil(t, x.Observed, "set aside")
		back := x.whole()
		assert.Empty(t, back.Error)
		assert.Equal(t, c.Trace, back.Trace)
		assert.Equal(t, c.Mismatches[1:], back.Mismatches[1:])
		assert.Equal(t, c.Suggested, back.Suggested)
		for k, v := range values {
			got, ok := back.Observed[k]
			require.True(t, ok, k)
			if f, isFloat := v.(float64); isFloat {
				assert.Equal(t, math.Float64bits(f), math.Float64bits(got.(float64)), k)
				continue
			}
			assert.Equal(t, v, got, k)
		}
		assert.Nil(t, back.Observed["nil list"].([]any))
		assert.NotNil(t, back.Observed["empty list"].([]any))
		assert.Nil(t, back.Observed["nil object"].(map[string]any))
		require.NoError(t, h.close())
	}

	h := newHold()
	defer h.close()
	odd := Case{Observed: map[string]any{"k": struct{}{}}, Trace: []scenario.Event{}}
	require.NoError(t, h.put(&odd))
	assert.Nil(t, odd.held, "a value of an unknown kind keeps the evidence")
	assert.NotNil(t, odd.Trace)

	x := Case{Trace: []scenario.Event{{Seq: 1, Kind: "k", Text: "t"}}}
	require.NoError(t, h.put(&x))
	require.NoError(t, h.flush())
	x.held.n-- // cut short
	assert.Contains(t, x.whole().Error, "could not be read back")
}

// TestLeanCaseReadsWhatUnmarshalReads: a case's observed object, and the
// values of its mismatches and suggestions, read by the lean reader are
// the very values Case.UnmarshalJSON makes of them,
// for the host decoders' cases too (an unpaired surrogate, an integer of
// more than 15 digits), and an empty object or list nested in it is the
// one shared value.
func TestLeanCaseReadsWhatUnmarshalReads(t *testing.T) {
	// Past the depth reportValue's fast reader reads, a host case's
	// value is reportValue's, shared nothing.
	deep := `{"deep":` + strings.Repeat(`[`, 120) + `{}` + strings.Repeat(`]`, 120) + `,"w":"\ud800"}`
	for _, observed := range []string{
		`{}`,
		`null`,
		`{"a":{},"b":[],"c":[{},{},[],{"d":{}}],"e":[[]]}`,
		`{"s":"plain","t":"esc\"aped \u00e9 \n","n":1.5,"i":-3,"e":1e300,"z":0,"b":[true,false,null]}`,
		`{"w":"x\ud800y","big":12345678901234567890,"f":1.0,"list":[{}, [], 1.25]}`,
		`{"key \u0041":"v","bad":"\ud83d"}`,
		`{ "spaced" : [ { } , [ ] ] }`,
		deep,
		`{"deep":` + strings.Repeat(`[`, 120) + `{}` + strings.Repeat(`]`, 120) + `}`,
	} {
		t.Run(observed[:min(len(observed), 30)], func(t *testing.T) {
			data := []byte(`{"desk":"d","id":"c","title":"t","scenario":"s","status":"fail","sourceRefs":[],"given":{},"expected":{},"observed":` + observed +
				`,"mismatches":[{"field":"a","comparison":"exact","expected":` + observed + `,"observed":` + observed +
				`,"changes":[{"path":"[0]","kind":"changed","expected":` + observed + `,"observed":` + observed + `},{"path":"","kind":"missing"}]},{"field":"b","comparison":"exact","expected":1,"observed":null}]` +
				`,"comparisons":{},"suggested":[{"key":"a","value":` + observed + `},{"key":"b"}],"unit":"call","dimensions":{},"trace":[]}`)
			hv, hok := hostValue([]byte(observed), -1)
			rv, rok := reportValue([]byte(observed))
			assert.Equal(t, rok, hok)
			assert.Equal(t, rv, hv, "hostValue reads what reportValue reads")
			var want, got Case
			require.NoError(t, json.Unmarshal(data, &want))
			require.NoError(t, readLeanCase(data, &got))
			assert.Equal(t, want, got)
			var shared []any
			var walk func(v any, depth int)
			walk = func(v any, depth int) {
				switch x := v.(type) {
				case map[string]any:
					if len(x) == 0 && depth > 0 {
						shared = append(shared, x)
					}
					for _, y := range x {
						walk(y, depth+1)
					}
				case []any:
					if len(x) == 0 && depth > 0 {
						shared = append(shared, x)
					}
					for _, y := range x {
						walk(y, depth+1)
					}
				}
			}
			if observed != deep {
				walk(got.Observed, 0)
				for _, m := range got.Mismatches {
					walk(m.Expected, 0)
					walk(m.Observed, 0)
					for _, ch := range m.Changes {
						walk(ch.Expected, 0)
						walk(ch.Observed, 0)
					}
				}
				for _, x := range got.Suggested {
					walk(x.Value, 0)
				}
			}
			for _, v := range shared {
				if m, ok := v.(map[string]any); ok {
					assert.Equal(t, reflectPointer(emptyObject), reflectPointer(m), "a nested {} is the shared one")
				} else {
					assert.Equal(t, reflectPointer(emptyList), reflectPointer(v), "a nested [] is the shared one")
				}
			}
		})
	}
	var c Case
	assert.Error(t, readLeanCase([]byte(`{"observed":[1]}`), &c), "what encoding/json refuses, the lean reader refuses")
	assert.Error(t, readLeanCase([]byte(`{"observed":{"n":1e999}}`), &c))
}

// reflectPointer is where a map or slice's data is.
func reflectPointer(v any) uintptr { return reflect.ValueOf(v).Pointer() }

// TestLeanReadOfEmptyObjectsIsSmall: a failed case observing 300,000
// empty objects, and listing them in its mismatch, is read, and read back
// from its hold, in about an interface per object, 16 bytes for 3 of text
// (encoding/json and the hold made a map of each, some 20 times the
// text).
func TestLeanReadOfEmptyObjectsIsSmall(t *testing.T) {
	const n = 300000
	records := `[` + strings.Repeat(`{},`, n-1) + `{}]`
	data := []byte(`{"desk":"d","id":"c","title":"t","scenario":"s","status":"fail","sourceRefs":[],"given":{},"expected":{},"observed":{"records":` + records +
		`},"mismatches":[{"field":"records","comparison":"exact","expected":[],"observed":` + records + `}],"comparisons":{},"suggested":[],"unit":"call","dimensions":{},"trace":[]}`)
	allocated := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	var c Case
	read := allocated(func() { require.NoError(t, readLeanCase(data, &c)) })
	assert.Less(t, read, uint64(7*len(data)), "read in %d bytes for %d of text", read, len(data))
	h := newHold()
	defer h.close()
	require.NoError(t, h.put(&c))
	require.NoError(t, h.flush())
	var back *Case
	readBack := allocated(func() { back = c.whole() })
	assert.Less(t, readBack, uint64(7*len(data)), "read back in %d bytes for %d of text", readBack, len(data))
	assert.Len(t, decodedValues(back.Observed["records"]), n, "kept as its text (rawValue), which decodes to every object")
}
