package verifier

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/internal/gen"
)

// entriesAgree holds the walk's count of the top-level arrays' elements
// to what the limit on entries counted before the walk did: gjson's
// count on the text the later readers read.
func entriesAgree(t *testing.T, data []byte, limits Limits) {
	if !utf8.Valid(data) {
		return
	}
	d := &Desk{Path: "x.json", text: string(data)}
	_, fatal, text, _, walk := d.read(limits)
	entries := walk.entries
	if fatal {
		return
	}
	root := gjson.Parse(text)
	for i, key := range entryKeys {
		if entries[i] < 0 {
			continue
		}
		n := 0
		root.Get(key).ForEach(func(_, _ gjson.Result) bool { n++; return true })
		if n != entries[i] {
			t.Errorf("%q in %q: the walk counted %d, gjson %d", key, data, entries[i], n)
		}
	}
	indexAgrees(t, data, text, root, walk.index)
}

// indexAgrees holds the walk's index to what gjson's ForEach gives, level
// by level, on the text the loader reads: the same keys and values.
func indexAgrees(t *testing.T, data []byte, text string, root gjson.Result, x textIndex) {
	type member struct {
		key string
		v   gjson.Result
	}
	members := func(r gjson.Result, read func(string) bool) []member {
		out := []member{}
		r.ForEach(func(k, v gjson.Result) bool {
			if read(k.Str) {
				out = append(out, member{k.Str, v})
			}
			return true
		})
		return out
	}
	spans := func(ms []spanned) []member {
		out := []member{}
		for _, m := range ms {
			out = append(out, member{m.key, resultAt(text, m.start, m.end)})
		}
		return out
	}
	if !assert.Equal(t, members(root, readTop), spans(x.top), "the top level of %q", data) {
		return
	}
	cases := root.Get("cases")
	if !cases.IsArray() {
		assert.Empty(t, x.cases, "no array of cases in %q", data)
		return
	}
	var elements []gjson.Result
	cases.ForEach(func(_, c gjson.Result) bool { elements = append(elements, c); return true })
	if !assert.Len(t, x.cases, len(elements), "the cases of %q", data) {
		return
	}
	for i, c := range elements {
		want := []member{}
		if c.IsObject() {
			want = members(c, readCaseKey)
		}
		assert.Equal(t, want, spans(x.members[x.cases[i].from:x.cases[i].to]), "the members of case %d of %q", i, data)
	}
}

func TestEntriesCountedOnTheWalk(t *testing.T) {
	for _, tt := range []struct {
		doc   string
		depth int
		want  [2]int
	}{
		{`{"cases":[1,2,3],"sourceOnly":[]}`, 0, [2]int{3, 0}},
		{`{"cases":[]}`, 0, [2]int{0, -1}},
		{`{"cases":[ {"a":[1,2]} , [3,4] ],"x":[1,2,3,4,5]}`, 0, [2]int{2, -1}},
		// Only the first value of a repeated key is read.
		{`{"cases":[1],"cases":[1,2,3]}`, 0, [2]int{1, -1}},
		{`{"cases":5,"cases":[1,2]}`, 0, [2]int{-1, -1}},
		// A key is read as its decoded name.
		{`{"ca\u0073es":[1,2],"sourceOnl\u0079":[[],[]]}`, 0, [2]int{2, 2}},
		// Not a top-level key, or not an array: left to the later count.
		{`{"x":{"cases":[1,2]},"cases":{"a":1,"b":2}}`, 0, [2]int{-1, -1}},
		{`{"cases":"abc","sourceOnly":null}`, 0, [2]int{-1, -1}},
		{`{"cases":[[1,2],[3]]}`, 0, [2]int{2, -1}},
		// Past the depth limit the walk keeps no frame for the array.
		{`{"cases":[1,2]}`, 1, [2]int{-1, -1}},
		{`{"cases":[1,2]}`, 2, [2]int{2, -1}},
		{`{"cases":[[1,2],[3]]}`, 2, [2]int{2, -1}},
		{`{"id":"a","cases":[{"id":"x","id":"y","given":{"k":[1,{"a":2,"a":3}]},"expected":{}}, "s", 4, [], {}],"cases":[1]}`, 0, [2]int{5, -1}},
		{`{"x":1,"x":{"cases":[1]},"cases":{"a":{"b":1}},"y":"\u00e9\ud800 "}`, 0, [2]int{-1, -1}},
	} {
		limits := DefaultLimits
		if tt.depth > 0 {
			limits.Depth = tt.depth
		}
		d := &Desk{Path: "x.json", text: tt.doc}
		_, fatal, _, _, walk := d.read(limits)
		require.False(t, fatal && tt.depth == 0, tt.doc)
		assert.Equal(t, tt.want, walk.entries, tt.doc)
		entriesAgree(t, []byte(tt.doc), limits)
	}
}

func TestEntriesCountedOnEveryDesk(t *testing.T) {
	var paths []string
	for _, pattern := range []string{"../cases/*.json", "testdata/*.json", "testdata/*/*.json", "../host/*/*check/testdata/*.json"} {
		p, err := filepath.Glob(pattern)
		require.NoError(t, err)
		paths = append(paths, p...)
	}
	require.NotEmpty(t, paths)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		entriesAgree(t, data, DefaultLimits)
	}
	entriesAgree(t, gen.Desk(0, 0, 200), DefaultLimits)
}

func FuzzEntriesCounted(f *testing.F) {
	for _, doc := range []string{
		`{"cases":[1,2,3],"sourceOnly":[]}`,
		`{"cases":[1],"cases":[1,2,3],"sourceOnly":[{"a":[]}]}`,
		`{"x":{"cases":[1,2]},"cases":{"a":1,"b":2}}`,
		`{"ca\u0073es":[1,2],"sourceOnl\u0079":[[],[]]}`,
		`{"id":"a","cases":[{"id":"x","id":"y","given":{"k":[1,{"a":2,"a":3}]},"expected":{}}, "s", 4, [], {}],"cases":[1]}`,
		`{"x":1,"x":{"cases":[1]},"cases":{"a":{"b":1}},"y":"\u00e9\ud800"}`,
	} {
		f.Add([]byte(doc), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, depth uint8) {
		limits := DefaultLimits
		if depth%8 > 0 {
			limits.Depth = int(depth % 8)
		}
		entriesAgree(t, data, limits)
	})
}

// TestIndexIsBounded: the index keeps the keys the loader reads and no
// more than limits.Cases cases, whatever the text holds.
func TestIndexIsBounded(t *testing.T) {
	limits := DefaultLimits
	limits.Cases = 2
	doc := `{"cases":[{"id":"a","x":1},{"id":"b"},{"id":"c","given":{}},{"id":"d"}],` + risingKeys(2000, `,"id":"e"`)[1:]
	d := &Desk{Path: "x.json", text: doc}
	_, fatal, _, _, walk := d.read(limits)
	require.False(t, fatal)
	assert.Equal(t, 4, walk.entries[0])
	x := walk.index
	assert.Len(t, x.top, 2) // cases, id
	require.Len(t, x.cases, 2)
	assert.Len(t, x.members, 2)
	assert.Equal(t, "id", x.members[0].key)
	assert.Equal(t, [2]int{0, 1}, [2]int{x.cases[0].from, x.cases[0].to})
	assert.Equal(t, [2]int{1, 2}, [2]int{x.cases[1].from, x.cases[1].to})
}
