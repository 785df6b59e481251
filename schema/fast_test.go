package schema

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// checkValue is the node's verdict on v, a decoded value.
func checkValue(t testing.TB, n *fastNode, v any) verdict {
	t.Helper()
	f, ok := flatOf(v)
	require.True(t, ok, "a flat of %v", v)
	return n.check(f, 0)
}

// agree checks the fast check's verdict on v against gojsonschema's
// (accepts) for one compiled part: valid only where gojsonschema finds
// no problem, invalid only where it finds one. It returns the verdict.
func agree(t testing.TB, fast *fastNode, part *Schema, v any, what string) verdict {
	t.Helper()
	got := checkValue(t, fast, v)
	ok := accepts(part, v)
	switch got {
	case valid:
		require.True(t, ok, "%s: the fast check found valid what gojsonschema does not", what)
	case invalid:
		require.False(t, ok, "%s: the fast check found invalid what gojsonschema accepts", what)
	}
	return got
}

// agreeAll holds every part of split to gojsonschema on root: the shell
// on the document, and every branch (not only its own) on every item.
func agreeAll(t testing.TB, split *Split, root any, what string) (decided, own int) {
	t.Helper()
	agree(t, split.fastShell, split.shell, root, what+", shell")
	m, _ := root.(map[string]any)
	list, _ := m[split.items].([]any)
	tags := make([]string, 0, len(split.branches))
	for tag := range split.branches {
		tags = append(tags, tag)
	}
	sort.Strings(tags)
	for i, it := range list {
		obj, _ := it.(map[string]any)
		mine, _ := obj[split.tag].(string)
		for _, tag := range tags {
			v := agree(t, split.fastBranches[tag], split.branches[tag], it, fmt.Sprintf("%s, item %d, branch %s", what, i, tag))
			if v != unsure {
				decided++
			}
			if tag == mine && v == valid {
				own++
			}
		}
	}
	return decided, own
}

// TestFastAgreesWithGojsonschema holds the fast check to gojsonschema on
// every case file of the repository and their one-case mutations, part
// by part; and it must decide: every case of a valid file is found valid
// by the fast check alone, so that gojsonschema is not asked.
func TestFastAgreesWithGojsonschema(t *testing.T) {
	split, err := NewSplit(CaseSchema, "cases", "scenario")
	require.NoError(t, err)
	names := scenarioNames(t)
	decided, validCases, fastValid := 0, 0, 0
	for path, doc := range splitCorpus(t) {
		for k, d := range append([][]byte{doc}, mutations(t, doc, names)...) {
			root, err := decode(d)
			require.NoError(t, err)
			n, own := agreeAll(t, split, root, fmt.Sprintf("%s, document %d", path, k))
			decided += n
			problems, err := split.Validate(d)
			require.NoError(t, err)
			if k == 0 && len(problems) == 0 {
				cases, _ := root.(map[string]any)["cases"].([]any)
				validCases += len(cases)
				fastValid += own
				assert.Equal(t, valid, checkValue(t, split.fastShell, root), "%s: the shell decides a valid file", path)
			}
		}
	}
	t.Logf("%d verdicts given; %d of %d cases of valid files found valid by the fast check", decided, fastValid, validCases)
	assert.Greater(t, validCases, 100)
	assert.Equal(t, validCases, fastValid, "every case of a valid file is decided by the fast check")
}

// TestFastKeywords checks each keyword the fast check reads, and that it
// leaves to gojsonschema what it cannot be sure of, on small schemas.
func TestFastKeywords(t *testing.T) {
	tests := []struct {
		schema, value string
		want          verdict
	}{
		{`{"type": "string"}`, `"a"`, valid},
		{`{"type": "string"}`, `1`, invalid},
		{`{"type": ["string", "null"]}`, `null`, valid},
		{`{"type": "integer"}`, `12`, valid},
		{`{"type": "integer"}`, `-0`, valid},
		{`{"type": "integer"}`, `1.0`, valid}, // an integer to gojsonschema
		{`{"type": "integer"}`, `1.5`, invalid},
		{`{"type": "integer"}`, `1e40`, valid},
		{`{"type": "integer"}`, `1e-4`, invalid},
		{`{"type": "integer"}`, `1234567890123456`, valid}, // beyond 15 digits
		{`{"type": "integer"}`, `10000000000000000000000000000000000000000000000000000000000000000000000`, unsure}, // too long to read
		{`{"type": "number"}`, `1.5`, valid},
		{`{"type": "integer"}`, `"1"`, invalid},
		{`{"type": "boolean"}`, `false`, valid},
		{`{"type": "array"}`, `{}`, invalid},
		{`{"type": "object"}`, `[]`, invalid},
		{`{"type": "object", "required": ["a"]}`, `{"a": 1}`, valid},
		{`{"required": ["a"]}`, `{}`, invalid},
		{`{"required": ["a"]}`, `"no object"`, valid},
		{`{"properties": {"a": {"type": "string"}}, "additionalProperties": false}`, `{"a": "x"}`, valid},
		{`{"properties": {"a": {"type": "string"}}, "additionalProperties": false}`, `{"b": "x"}`, invalid},
		{`{"properties": {"a": {"type": "string"}}, "additionalProperties": false}`, `{"a": 1}`, invalid},
		{`{"properties": {"a": {"type": "string"}}}`, `{"b": 1}`, valid},
		{`{"additionalProperties": {"type": "integer"}}`, `{"b": 1}`, valid},
		{`{"additionalProperties": {"type": "integer"}}`, `{"b": "1"}`, invalid},
		{`{"items": {"type": "integer"}, "minItems": 1, "maxItems": 2}`, `[1, 2]`, valid},
		{`{"items": {"type": "integer"}, "minItems": 1}`, `[]`, invalid},
		{`{"items": {"type": "integer"}, "maxItems": 2}`, `[1, 2, 3]`, invalid},
		{`{"items": {"type": "integer"}}`, `[1, "a"]`, invalid},
		{`{"items": [{"type": "integer"}, {"type": "string"}]}`, `[1, "a", null]`, valid},
		{`{"items": [{"type": "integer"}, {"type": "string"}]}`, `[1, 2]`, invalid},
		{`{"items": [{"type": "integer"}], "additionalItems": false}`, `[1]`, unsure},
		{`{"minLength": 2, "maxLength": 3}`, `"éé"`, valid}, // runes, not bytes
		{`{"minLength": 2}`, `"é"`, invalid},
		{`{"maxLength": 3}`, `"abcd"`, invalid},
		{`{"minLength": 2}`, `7`, valid},
		{`{"pattern": "^a+$"}`, `"aaa"`, valid},
		{`{"pattern": "^a+$"}`, `"ab"`, invalid},
		{`{"enum": ["a", "b"]}`, `"b"`, valid},
		{`{"enum": ["a", "b"]}`, `"c"`, invalid},
		{`{"enum": ["a", "b"]}`, `1`, invalid},
		{`{"enum": ["a", null]}`, `null`, valid},
		{`{"enum": [true]}`, `false`, invalid},
		{`{"enum": [true, "rpc"]}`, `true`, valid},
		{`{"enum": [1, 2]}`, `2`, valid},
		{`{"enum": [1, 2]}`, `3`, invalid},
		{`{"enum": [9007199254740993]}`, `9007199254740992`, unsure}, // one float64
		{`{"enum": [1, 2]}`, `2.0`, valid},                           // equal to gojsonschema
		{`{"enum": [1]}`, `1.0000000000000000001`, unsure},           // equal as float64
		{`{"enum": [{"a": 1}]}`, `"x"`, invalid},
		{`{"enum": [{"a": 1}]}`, `{"a": 1}`, unsure},
		{`{"const": 1}`, `1`, valid},
		{`{"const": 1}`, `2`, invalid},
		{`{"const": "x"}`, `"x"`, valid},
		{`{"const": "x", "enum": ["x"]}`, `"x"`, unsure},
		{`{"minimum": 1}`, `1`, valid},
		{`{"minimum": 1}`, `0`, invalid},
		{`{"exclusiveMinimum": 0}`, `0`, invalid},
		{`{"exclusiveMinimum": 0}`, `1`, valid},
		{`{"maximum": 3, "exclusiveMaximum": 5}`, `4`, invalid},
		{`{"exclusiveMaximum": 5}`, `4`, valid},
		{`{"minimum": 1}`, `0.5`, invalid},
		{`{"minimum": 1}`, `1.5`, valid},
		{`{"maximum": 1}`, `12345678901234567890`, invalid},
		{`{"minimum": 1.5}`, `2`, unsure},
		{`{"minimum": 1}`, `"0"`, valid},
		{`{"allOf": [{"type": "string"}, {"minLength": 1}]}`, `"a"`, valid},
		{`{"allOf": [{"type": "string"}, {"minLength": 1}]}`, `""`, invalid},
		{`{"anyOf": [{"type": "string"}, {"type": "integer"}]}`, `1`, valid},
		{`{"anyOf": [{"type": "string"}, {"type": "integer"}]}`, `null`, invalid},
		{`{"oneOf": [{"type": "string"}, {"minLength": 1}]}`, `"a"`, invalid},
		{`{"oneOf": [{"type": "string"}, {"type": "integer"}]}`, `1`, valid},
		{`{"oneOf": [{"type": "string"}, {"format": "email"}]}`, `1`, unsure},
		{`{"not": {"type": "string"}}`, `1`, valid},
		{`{"not": {"type": "string"}}`, `"a"`, invalid},
		{`{"if": {"required": ["a"]}, "then": {"required": ["b"]}}`, `{"a": 1}`, invalid},
		{`{"if": {"required": ["a"]}, "then": {"required": ["b"]}}`, `{}`, valid},
		{`{"if": {"required": ["a"]}, "else": {"required": ["b"]}}`, `{}`, invalid},
		{`{"if": {"format": "email"}, "then": {}}`, `{}`, unsure},
		{`{"if": {"format": "email"}}`, `{}`, valid},
		{`{"$ref": "#/definitions/s", "type": "integer", "definitions": {"s": {"type": "string"}}}`, `"a"`, valid},
		{`{"$ref": "#/definitions/s", "definitions": {"s": {"type": "string"}}}`, `1`, invalid},
		{`{"$ref": "#/definitions/list", "definitions": {"list": {"type": "array", "items": {"$ref": "#/definitions/list"}}}}`, `[[[]]]`, valid},
		{`{"$ref": "#/definitions/list", "definitions": {"list": {"type": "array", "items": {"$ref": "#/definitions/list"}}}}`, `[[1]]`, invalid},
		{`{"properties": {"a": false}}`, `{"a": 1}`, invalid},
		{`{"properties": {"a": true}}`, `{"a": 1}`, valid},
		{`{"format": "email"}`, `"x"`, unsure},
		{`{"uniqueItems": true}`, `[1]`, unsure},
		{`{"title": "t", "description": "d", "$comment": "c"}`, `1`, valid},
	}
	for _, tt := range tests {
		root, err := decode([]byte(tt.schema))
		require.NoError(t, err, tt.schema)
		part, err := compileValue(root)
		require.NoError(t, err, tt.schema)
		v, err := decode([]byte(tt.value))
		require.NoError(t, err, tt.value)
		what := tt.schema + " on " + tt.value
		assert.Equal(t, tt.want, agree(t, compileFast(root), part, v, what), what)
	}
}

// TestFastUnreadSchemas: a reference the fast check cannot follow, or a
// keyword written as it does not read it, leaves every value to
// gojsonschema.
func TestFastUnreadSchemas(t *testing.T) {
	for _, doc := range []string{`{"type": "no type"}`, `{"type": []}`, `{"minLength": -1}`, `{"minimum": "1"}`, `{"pattern": "("}`, `{"items": [], "additionalItems": false}`, `{"allOf": []}`, `3`, `{"$ref": "#/definitions/none"}`, `{"$ref": "other.json"}`, `{"$ref": "#/definitions/a~1b", "definitions": {"a/b": {}}}`, `{"$ref": 1}`} {
		root, err := decode([]byte(doc))
		require.NoError(t, err)
		assert.Equal(t, unsure, checkValue(t, compileFast(root), "x"), doc)
	}
}

// FuzzFast holds the fast check to gojsonschema on any document, part by
// part, every branch on every item.
func FuzzFast(f *testing.F) {
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
		root, err := decode(doc)
		require.NoError(t, err)
		if f, ok := flatten(doc); ok {
			require.Equal(t, root, f.decode(0), "a flat holds the decoded value")
			require.LessOrEqual(t, len(f.nodes), nodesAtMost(doc), "the list made at once holds every node")
		} else if _, libOK := jsontext.DecodeUseNumberLibrary(doc); libOK {
			repeated, most := objectKeys(t, doc)
			require.True(t, repeated || most > mostKeys, "a flat refuses only a key twice or too many keys beside what the fast reader refuses")
		}
		agreeAll(t, split, root, "fuzzed document")
	})
}
