package schema

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// splitCorpus is every case file of the repository that is well-formed
// JSON: the bundled desks, the test desks of the hosts and the verifier's
// broken files.
func splitCorpus(t testing.TB) map[string][]byte {
	t.Helper()
	var paths []string
	for _, g := range []string{"../cases/*.json", "../host/*/*/testdata/*.json", "../verifier/testdata/*/*.json"} {
		m, err := filepath.Glob(g)
		require.NoError(t, err)
		paths = append(paths, m...)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		var v any
		if json.Unmarshal(b, &v) == nil {
			out[p] = b
		}
	}
	require.Greater(t, len(out), 20)
	return out
}

// mutations returns documents made from doc by changing one of its first
// four cases: its
// scenario replaced by every other scenario, by a number, or removed, and
// its given and expected blocks swapped with another case's.
func mutations(t testing.TB, doc []byte, scenarios []string) [][]byte {
	t.Helper()
	var root map[string]any
	if json.Unmarshal(doc, &root) != nil {
		return nil
	}
	cases, _ := root["cases"].([]any)
	var out [][]byte
	emit := func() {
		b, err := json.Marshal(root)
		require.NoError(t, err)
		out = append(out, b)
	}
	for i, c := range cases[:min(len(cases), 4)] {
		kase, ok := c.(map[string]any)
		if !ok {
			continue
		}
		was, had := kase["scenario"]
		for _, s := range append(scenarios, "", "nope") {
			kase["scenario"] = s
			emit()
		}
		kase["scenario"] = 1.5
		emit()
		delete(kase, "scenario")
		emit()
		if had {
			kase["scenario"] = was
		}
		if j := (i + 1) % len(cases); j != i {
			other, _ := cases[j].(map[string]any)
			given, expected := kase["given"], kase["expected"]
			kase["given"], kase["expected"] = other["given"], other["expected"]
			emit()
			kase["given"], kase["expected"] = given, expected
		}
	}
	// Problems in many cases at once, whose pointers sort otherwise than
	// the cases (/cases/10 before /cases/2): each case loses a required
	// key, gains an unknown one and has a given of the wrong type, in
	// turn and all together.
	saved := make([]map[string]any, len(cases))
	for i, c := range cases {
		if kase, ok := c.(map[string]any); ok {
			saved[i] = maps.Clone(kase)
		}
	}
	restore := func() {
		for i, m := range saved {
			if m != nil {
				cases[i] = maps.Clone(m)
			}
		}
	}
	breaks := []func(map[string]any){
		func(k map[string]any) { delete(k, "id") },
		func(k map[string]any) { k["zz~/unknown"] = true },
		func(k map[string]any) { k["given"] = 7 },
		func(k map[string]any) { k["expected"] = map[string]any{"nope": []any{}} },
	}
	for _, brk := range breaks {
		for i, c := range cases {
			if kase, ok := c.(map[string]any); ok && i%3 != 1 {
				brk(kase)
			}
		}
		emit()
		restore()
	}
	for _, c := range cases {
		if kase, ok := c.(map[string]any); ok {
			for _, brk := range breaks {
				brk(kase)
			}
		}
	}
	emit()
	restore()
	return out
}

func scenarioNames(t testing.TB) []string {
	t.Helper()
	var s struct {
		Definitions struct {
			Case struct {
				Properties struct {
					Scenario struct {
						Enum []string `json:"enum"`
					} `json:"scenario"`
				} `json:"properties"`
			} `json:"case"`
		} `json:"definitions"`
	}
	require.NoError(t, json.Unmarshal(CaseSchema, &s))
	names := s.Definitions.Case.Properties.Scenario.Enum
	require.NotEmpty(t, names)
	return names
}

// TestSplitAgreesWithTheWholeSchema holds the split to the whole schema on
// every case file of the repository and on every one-case mutation of
// them: the same problems, and a valid document found valid without the
// whole schema.
func TestSplitAgreesWithTheWholeSchema(t *testing.T) {
	split, err := NewSplit(CaseSchema, "cases", "scenario")
	require.NoError(t, err)
	// The whole schema as compiled from its text, not from the decoded
	// document the split compiles it from.
	fromText, err := Compile(CaseSchema)
	require.NoError(t, err)
	names := scenarioNames(t)
	require.Len(t, split.branches, len(names), "a branch for every scenario")
	valid, invalid, byItem := 0, 0, 0
	for path, doc := range splitCorpus(t) {
		for k, d := range append([][]byte{doc}, mutations(t, doc, names)...) {
			want, err := fromText.Validate(d)
			require.NoError(t, err)
			full, err := split.Full().Validate(d)
			require.NoError(t, err)
			require.Equal(t, want, full, "%s, document %d", path, k)
			got, err := split.Validate(d)
			require.NoError(t, err)
			require.Equal(t, want, got, "%s, document %d", path, k)
			got, err = split.ValidateText(d, string(d))
			require.NoError(t, err)
			require.Equal(t, want, got, "%s, document %d, its text given", path, k)
			f, ok := flatten(d)
			if !ok {
				root, err := decode(d)
				require.NoError(t, err)
				f, ok = flatOf(root)
				require.True(t, ok, "%s, document %d: a flat of its value", path, k)
			}
			if items, tags, ok := split.itemsOf(f); ok && split.shellValid(f) && len(want) > 0 {
				// Only items are wrong: the check held each alone to its
				// branch.
				byItem++
				got, err := split.itemProblems(f, items, tags)
				require.NoError(t, err)
				require.Equal(t, want, got, "%s, document %d, item by item", path, k)
			}
			if len(want) == 0 {
				valid++
				assert.True(t, split.valid(f), "%s, document %d: valid, but the split asked the whole schema", path, k)
			} else {
				invalid++
				assert.False(t, split.valid(f), "%s, document %d", path, k)
			}
		}
	}
	t.Logf("%d valid and %d invalid documents, %d of them checked item by item", valid, invalid, byItem)
	assert.Greater(t, valid, 10)
	assert.Greater(t, invalid, 100)
	assert.Greater(t, byItem, 100)
}

// TestSplitBranches checks which allOf entries each branch keeps on a
// small schema: an entry that is not a plain if-const/then (here one with
// an else) is kept for every tag, so a document breaking it is caught.
func TestSplitBranches(t *testing.T) {
	doc := []byte(`{
	  "type": "object",
	  "properties": {"items": {"type": "array", "items": {"$ref": "#/definitions/item"}}},
	  "definitions": {"item": {
	    "type": "object",
	    "properties": {"kind": {"enum": ["a", "b"]}, "n": {}},
	    "allOf": [
	      {"if": {"required": ["kind"], "properties": {"kind": {"const": "a"}}}, "then": {"properties": {"n": {"type": "string"}}}},
	      {"if": {"required": ["kind"], "properties": {"kind": {"const": "b"}}}, "then": {"properties": {"n": {"type": "integer"}}}},
	      {"if": {"required": ["kind"], "properties": {"kind": {"const": "b"}}}, "then": {}, "else": {"required": ["n"]}},
	      {"not": {"required": ["forbidden"]}}
	    ]
	  }}
	}`)
	split, err := NewSplit(doc, "items", "kind")
	require.NoError(t, err)
	assert.Len(t, split.branches, 2)
	tests := []struct {
		doc   string
		valid bool
	}{
		{`{"items": [{"kind": "a", "n": "x"}, {"kind": "b", "n": 1}]}`, true},
		{`{"items": [{"kind": "a", "n": 1}]}`, false},
		{`{"items": [{"kind": "b", "n": "x"}]}`, false},
		{`{"items": [{"kind": "a"}]}`, false},                           // the else asks for n
		{`{"items": [{"kind": "b"}]}`, true},                            // the same entry's then does not
		{`{"items": [{"kind": "a", "n": "x", "forbidden": 1}]}`, false}, // not a branch: kept for every tag
		{`{"items": [{"n": 1}]}`, true},                                 // no tag: the whole schema decides
		{`{"items": [{"kind": "c", "n": 1}]}`, false},
		{`{"items": "none"}`, false},
		{`{"items": [3]}`, false},
		{`[]`, false},
	}
	for _, tt := range tests {
		assertSplit(t, split, tt.doc, tt.valid)
	}
}

// assertSplit checks that split finds doc valid or not as said, with the
// whole schema's problems.
func assertSplit(t *testing.T, split *Split, doc string, valid bool) {
	t.Helper()
	want, err := split.Full().Validate([]byte(doc))
	require.NoError(t, err)
	got, err := split.Validate([]byte(doc))
	require.NoError(t, err)
	assert.Equal(t, want, got, doc)
	assert.Equal(t, valid, len(got) == 0, doc)
}

// TestSplitEdges: numbers beyond float64's precision stay exact in the
// compiled parts, a branch may test the empty string, and an item without
// its tag is left to the whole schema.
func TestSplitEdges(t *testing.T) {
	doc := []byte(`{
	  "properties": {"items": {"type": "array", "items": {"$ref": "#/definitions/item"}}},
	  "definitions": {"item": {
	    "allOf": [
	      {"if": {"required": ["kind"], "properties": {"kind": {"const": ""}}}, "then": {"properties": {"n": {"minimum": 9007199254740993}}}},
	      {"if": {"required": ["kind"], "properties": {"kind": {"const": "a"}}}, "then": {"properties": {"n": {"type": "string"}}}}
	    ],
	    "required": ["n"]
	  }}
	}`)
	split, err := NewSplit(doc, "items", "kind")
	require.NoError(t, err)
	for _, tt := range []struct {
		doc   string
		valid bool
	}{
		{`{"items": [{"kind": "", "n": 9007199254740993}]}`, true},
		{`{"items": [{"kind": "", "n": 9007199254740992}]}`, false},
		{`{"items": [{"kind": "a", "n": "x"}]}`, true},
		{`{"items": [{"n": 3}]}`, true},
		{`{"items": [{"kind": 1, "n": 3}]}`, true},
		{`{"items": [3]}`, true}, // the item schema asks nothing of a number
		{`{"items": [{"kind": ""}]}`, false},
	} {
		assertSplit(t, split, tt.doc, tt.valid)
	}
}

func TestNewSplitRefusesSchemasItCannotSplit(t *testing.T) {
	for _, tt := range []struct{ doc, want string }{
		{`{"properties": {"items": {"items": {"type": "object"}}}}`, "not a reference to a definition"},
		{`{"properties": {"items": {"items": {"$ref": "#/definitions/x"}}}}`, `no definition "x"`},
		{`{"properties": {"items": {"items": {"$ref": "#/definitions/x"}}}, "definitions": {"x": {"allOf": [{"if": {"required": ["kind"]}, "then": {}}]}}}`, `no branch on "kind"`},
		{`{"type": 3}`, ""},
		{`{"properties": {"items": {"items": {"$ref": "#/definitions/x"}}, "one": {"$ref": "#/definitions/x"}}, "definitions": {"x": {"allOf": [{"if": {"required": ["kind"], "properties": {"kind": {"const": "a"}}}, "then": {}}]}}}`, "referenced 2 times"},
	} {
		_, err := NewSplit([]byte(tt.doc), "items", "kind")
		require.Error(t, err, tt.doc)
		assert.Contains(t, err.Error(), tt.want)
	}
}

func TestSplitReportsUndecodableDocuments(t *testing.T) {
	split, err := NewSplit(CaseSchema, "cases", "scenario")
	require.NoError(t, err)
	_, err = split.Validate([]byte(`{"cases": [`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "validating")
}

// FuzzSplit holds the split to the whole schema on any document.
func FuzzSplit(f *testing.F) {
	for _, doc := range splitCorpus(f) {
		f.Add(doc)
	}
	split, err := NewSplit(CaseSchema, "cases", "scenario")
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, doc []byte) {
		var v any
		if json.Unmarshal(doc, &v) != nil || len(doc) > 1<<16 {
			return
		}
		want, werr := split.Full().Validate(doc)
		got, gerr := split.Validate(doc)
		require.Equal(t, werr == nil, gerr == nil)
		require.Equal(t, want, got)
	})
}

// TestValidateTextTakesTheCallersCopy: given the document's text, the
// check makes no copy of its own; a text of another length is not used.
func TestValidateTextTakesTheCallersCopy(t *testing.T) {
	split, err := NewSplit(CaseSchema, "cases", "scenario")
	require.NoError(t, err)
	var docs [][]byte
	for _, d := range splitCorpus(t) {
		docs = append(docs, d)
	}
	slices.SortFunc(docs, func(a, b []byte) int { return len(b) - len(a) })
	var doc []byte // the largest valid document of the corpus
	for _, d := range docs {
		if problems, err := split.Validate(d); err == nil && len(problems) == 0 {
			doc = d
			break
		}
	}
	require.NotEmpty(t, doc)
	text := string(doc)
	validate := func(text string) func() {
		return func() {
			if problems, err := split.ValidateText(doc, text); err != nil || len(problems) > 0 {
				t.Fatal(err, problems)
			}
		}
	}
	validate(text)() // the pools filled
	own := testing.AllocsPerRun(20, validate(""))
	given := testing.AllocsPerRun(20, validate(text))
	other := testing.AllocsPerRun(20, validate(text[1:]))
	t.Logf("allocations: %v with no text, %v with the text, %v with a text of another length", own, given, other)
	assert.Less(t, given, own, "no copy of the check's own")
	assert.Less(t, given, other, "a text of another length is not used")
}
