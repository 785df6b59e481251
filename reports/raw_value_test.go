package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/verifier"
)

// repeated is a JSON list of n copies of elem, written with sep between
// them.
func repeated(elem, sep string, n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat(elem+sep, n), sep) + "]"
}

// manyKeys is a JSON object of n members "k<i>": i, in rising key order
// or, with backwards, the other way.
func manyKeys(n int, backwards bool) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		j := i
		if backwards {
			j = n - 1 - i
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%07d":%d`, j, j)
	}
	b.WriteString("}")
	return b.String()
}

// TestCanonicalIsWhatAppendWrites: the canonical text made of a value's
// text is what jsonx.Append writes of the value the lean decoder reads of
// it, as encoding/json reads it and as the hosts do, whatever the text's
// spacing, key order, escapes and number forms.
func TestCanonicalIsWhatAppendWrites(t *testing.T) {
	for _, text := range []string{
		`[0,1,2]`,
		` [ 0 , 1.0 , 1E2 , -0.0 , 1e-7 , 1e21, 123456789012345678901234 , 0.1 ] `,
		`{"b":1,"a":[{"d":null,"c":true}],"c":false}`,
		`{"a":1,"a":2,"b":{"x":1,"x":[3]}}`,
		`["\u00e9\/\u2028<&>\t","é","\ud800x","\u0041"]`,
		`{"\u0062":1,"a":2,"\u0061b":3}`,
		`[[],{},[[]],{"e":{}},"",[{}]]`,
		"[\"\xff\"]",
		manyKeys(100, true),
	} {
		for _, host := range []bool{false, true} {
			t.Run(fmt.Sprintf("%.30s/host=%v", text, host), func(t *testing.T) {
				text := strings.TrimSpace(text)
				d := leanDecoder{b: []byte(text), host: host}
				v, end := d.value(0, 1)
				require.Equal(t, len(text), end)
				c := canonicaliser{host: host}
				got, end := c.value(nil, []byte(text), 0, 0)
				require.Equal(t, len(text), end)
				assert.Equal(t, string(jsonx.Append(nil, v)), string(got))
			})
		}
	}
}

// TestRawValueKeepsLongText: a list or object longer than rawValueBytes
// is kept as its text (the file's own bytes when they are canonical, a
// canonical copy when not), which decodes to what the lean decoder reads
// of it; a shorter one is decoded.
func TestRawValueKeepsLongText(t *testing.T) {
	long := repeated("0", ",", rawValueBytes)
	for _, tc := range []struct {
		name, text string
		raw, same  bool
	}{
		{"short list", "[0,1]", false, false},
		{"long list", long, true, true},
		{"long list, spaced", strings.ReplaceAll(long, ",", " , "), true, false},
		{"long object", manyKeys(rawValueBytes/8, false), true, true},
		{"long object, keys backwards", manyKeys(rawValueBytes/8, true), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := []byte(tc.text)
			var v leanValue
			require.NoError(t, v.UnmarshalJSON(b))
			r, isRaw := v.v.(*rawValue)
			require.Equal(t, tc.raw, isRaw)
			plain := leanDecoder{b: b}
			want, _ := plain.value(0, 1)
			if !isRaw {
				assert.Equal(t, want, v.v)
				return
			}
			assert.Equal(t, tc.same, &r.text[0] == &b[0], "the file's own bytes")
			assert.Equal(t, want, r.decoded())
			assert.Equal(t, string(jsonx.Append(nil, want)), string(jsonx.Append(nil, r)))
		})
	}
}

// TestLongValuesWriteAsDecoded: a report whose cases hold long lists and
// objects — a passing case's observed value, a failed case's mismatch
// and observed values, a suggestion's value; canonical or not; strings
// the hosts' decoders read — read lean (the long values kept as text)
// says byte for byte in every format what it says read whole (every value
// decoded).
func TestLongValuesWriteAsDecoded(t *testing.T) {
	data, err := os.ReadFile("testdata/failing.json")
	require.NoError(t, err)
	n := rawValueBytes / 4
	for _, tc := range []struct{ name, pass, fail string }{
		{"zeros", repeated("0", ",", 2*n), repeated("7", ",", 2*n)},
		{"keys", manyKeys(n/2, false), manyKeys(n/3, false)},
		{"strings", repeated(`"a"`, ",", n), repeated(`"<b>"`, ",", n)},
		{"tiny lists", repeated("[0]", ",", n), repeated("[[]]", ",", n)},
		{"not canonical", repeated(`{ "z" : 1.0E2 , "\u0061":"\u00e9\/x\u2028<&>", "m":[ 1e-7 , -0.0 ] }`, " ,\n", n/8),
			manyKeys(n/4, true)},
		{"host values", repeated(`"\ud800x"`, ",", n), repeated("12345678901234567890123", ",", n/2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc map[string]any
			require.NoError(t, json.Unmarshal(data, &doc))
			cases := doc["cases"].([]any)
			pass, fail := cases[0].(map[string]any), cases[4].(map[string]any)
			require.Equal(t, "pass", pass["status"])
			require.Equal(t, "fail", fail["status"])
			pass["observed"].(map[string]any)["effects"] = "@pass@"
			m := fail["mismatches"].([]any)[0].(map[string]any)
			m["observed"], m["expected"] = "@fail@", "@pass@"
			fail["observed"].(map[string]any)[m["field"].(string)] = "@fail@"
			fail["suggested"] = append(fail["suggested"].([]any), map[string]any{"key": "shaped", "value": "@pass@"})
			text, err := json.Marshal(doc)
			require.NoError(t, err)
			text = bytes.ReplaceAll(text, []byte(`"@pass@"`), []byte(tc.pass))
			text = bytes.ReplaceAll(text, []byte(`"@fail@"`), []byte(tc.fail))

			whole, err := ReadJSON(text)
			require.NoError(t, err)
			lean, err := ReadJSONLean(text, true)
			require.NoError(t, err)
			defer lean.Close()
			kept := lean.Cases[0].whole().Observed["effects"]
			assert.IsType(t, &rawValue{}, kept, "the long value is kept as text")
			want, got := everyFormat(t, whole, Text{Dimensions: true, Verbose: true}), everyFormat(t, lean, Text{Dimensions: true, Verbose: true})
			for _, x := range []struct {
				r   *Report
				out map[string]string
			}{{whole, want}, {lean, got}} {
				var buf bytes.Buffer
				require.NoError(t, HTML{Registry: testReg}.Write(&buf, x.r))
				x.out["html with pictures"] = buf.String()
			}
			for format := range want {
				if !assert.True(t, want[format] == got[format], "the lean %s differs", format) {
					diffAt(t, want[format], got[format])
				}
			}
		})
	}
}

// TestHoldGivesBackRawValues: a value kept as text is set aside in the
// hold and read back as the same text, read the same way.
func TestHoldGivesBackRawValues(t *testing.T) {
	raw := &rawValue{text: []byte(repeated(`"\ud800"`, ",", 10)), host: true, depth: 1}
	c := Case{ID: "c", Observed: map[string]any{"k": raw},
		Suggested: []verifier.Suggestion{{Key: "k", Value: &rawValue{text: []byte("[0]"), depth: 0}, Shaped: true}}}
	h := newHold()
	defer h.close()
	x := c
	require.NoError(t, h.put(&x))
	require.NoError(t, h.flush())
	require.NotNil(t, x.held, "set aside")
	back := x.whole()
	assert.Empty(t, back.Error)
	assert.Equal(t, c.Observed, back.Observed)
	assert.Equal(t, c.Suggested, back.Suggested)
	assert.Equal(t, raw.decoded(), back.Observed["k"].(*rawValue).decoded())
}

// TestHoldKeepsARepeatedRawValueOnce: a value kept as text that a case
// holds twice (an observed value and its suggestion) is set aside once,
// and read back as one value in both places; a reference past the values
// read is refused as unreadable.
func TestHoldKeepsARepeatedRawValueOnce(t *testing.T) {
	raw := &rawValue{text: []byte("[" + repeated("0", ",", 10000) + "]")} // within one heldPiece
	other := &rawValue{text: []byte("[1]")}
	c := Case{ID: "c", Observed: map[string]any{"k": raw, "o": other},
		Suggested: []verifier.Suggestion{{Key: "k", Value: raw}, {Key: "o", Value: other}}}
	once := Case{ID: "c", Observed: map[string]any{"k": raw, "o": other}}
	held := func(c Case) int {
		e := heldEncoder{}
		encodeHeld(&e, &c)
		return len(e.b)
	}
	assert.Less(t, held(c)-held(once), 64, "the suggestions refer to the values already held")

	h := newHold()
	defer h.close()
	x := c
	require.NoError(t, h.put(&x))
	require.NoError(t, h.flush())
	back := x.whole()
	require.Empty(t, back.Error)
	assert.Equal(t, c.Observed, back.Observed)
	assert.Equal(t, c.Suggested, back.Suggested)
	assert.Same(t, back.Observed["k"], back.Suggested[0].Value, "one value read back")

	d := heldDecoder{b: []byte{tagRawAgain, 0}}
	assert.Nil(t, d.value())
	assert.True(t, d.bad, "a reference to no value read")
}
