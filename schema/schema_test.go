package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// CaseSchema is the composed case schema as committed for editors; a test
// of host/all keeps it equal to what the registry composes.
var CaseSchema = func() []byte {
	b, err := os.ReadFile("case.schema.json")
	if err != nil {
		panic(err)
	}
	return b
}()

// Validate validates against CaseSchema.
func Validate(doc []byte) ([]Problem, error) {
	s, err := Compile(CaseSchema)
	if err != nil {
		return nil, err
	}
	return s.Validate(doc)
}

func TestBoundaryDeskIsValid(t *testing.T) {
	data, err := os.ReadFile("../cases/boundary-desk.json")
	require.NoError(t, err)
	problems, err := Validate(data)
	require.NoError(t, err)
	assert.Empty(t, problems)
}

// fixture is the text of a file of testdata: the desks whose cases are of
// one family's scenario live there, apart from the schema's own tests.
func fixture(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

func TestValidateProblems(t *testing.T) {
	tests := []struct {
		reason string
		doc    string
		want   []Problem
	}{
		{"an unknown top-level key names the key", `{"schemaVersion":1,"id":"d","title":"t","cases":[],"extra":1}`,
			[]Problem{{Pointer: "", Key: "extra", Message: `unknown key "extra"`}}},
		{"keys with / and ~ are escaped in pointers", `{"schemaVersion":1,"id":"d","title":"t","cases":[],"sources":{"a/b~c":3}}`,
			[]Problem{{Pointer: "/sources/a~1b~0c", Message: "wrong type: expected string, found integer"}}},
		{"a NUL inside a key stays inside its token, not a separator of the pointer", `{"schemaVersion":1,"id":"d","title":"t","cases":[],"sources":{"a\u0000b":3}}`,
			[]Problem{{Pointer: "/sources/a\x00b", Message: "wrong type: expected string, found integer"}}},
		{"so do a dot and other bytes a context might be joined with", `{"schemaVersion":1,"id":"d","title":"t","cases":[],"sources":{"a.b\u00ff":3}}`,
			[]Problem{{Pointer: "/sources/a.b\u00ff", Message: "wrong type: expected string, found integer"}}},
		{"missing required keys come in the schema's order, unknown keys by name", `{"z":1,"a":2,"y":3}`,
			[]Problem{
				{Pointer: "", Message: `missing required key "schemaVersion"`},
				{Pointer: "", Message: `missing required key "id"`},
				{Pointer: "", Message: `missing required key "title"`},
				{Pointer: "", Message: `missing required key "cases"`},
				{Pointer: "", Key: "a", Message: `unknown key "a"`},
				{Pointer: "", Key: "y", Message: `unknown key "y"`},
				{Pointer: "", Key: "z", Message: `unknown key "z"`},
			}},
		{"a missing required key", `{"schemaVersion":1,"id":"d","title":"t"}`,
			[]Problem{{Pointer: "", Message: `missing required key "cases"`}}},
		{"an id with spaces", `{"schemaVersion":1,"id":"a b","title":"t","cases":[]}`,
			[]Problem{{Pointer: "/id", Message: "Does not match pattern '^[A-Za-z0-9][A-Za-z0-9._-]*$'"}}},
		{"per-scenario shapes apply", fixture(t, "testdata/per-scenario-shape.json"),
			[]Problem{{Pointer: "/cases/0/given", Key: "mode", Message: `unknown key "mode"`}}},
		{"counts are non-negative integers", fixture(t, "testdata/negative-and-fractional-counts.json"),
			[]Problem{{Pointer: "/cases/0/expected/effects", Message: "Must be greater than or equal to 0"}, {Pointer: "/cases/0/expected/prompts", Message: "wrong type: expected integer, found number"}}},
	}
	for _, tt := range tests {
		got, err := Validate([]byte(tt.doc))
		require.NoError(t, err, tt.reason)
		assert.Equal(t, tt.want, got, tt.reason)
	}
}

// TestValidateAgreesWithGojsonschemaLoader: the tree Validate decodes
// itself gives the same problems as gojsonschema decoding the bytes.
// TestValidateEveryFixture validates every case file of the tests that
// is JSON (the first reader of the verifier rejects the rest before the
// schema sees them): the bundled desks have no problem, and the files
// that break the schema are found out.
func TestValidateEveryFixture(t *testing.T) {
	var paths []string
	for _, pattern := range []string{"../cases/*.json", "../verifier/testdata/*.json", "../verifier/testdata/invalid/*.json", "../verifier/testdata/hostile/*.json"} {
		more, err := filepath.Glob(pattern)
		require.NoError(t, err)
		paths = append(paths, more...)
	}
	require.Greater(t, len(paths), 10)
	s, err := Compile(CaseSchema)
	require.NoError(t, err)
	withProblems := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		if !json.Valid(data) {
			continue
		}
		got, err := s.Validate(data)
		require.NoError(t, err, p)
		if strings.HasPrefix(p, "../cases/") {
			assert.Empty(t, got, p)
		}
		if len(got) > 0 {
			withProblems++
		}
	}
	assert.Greater(t, withProblems, 3, "files that break the schema are found out")
}

func TestValidateMalformed(t *testing.T) {
	_, err := Validate([]byte(`{"a":`))
	assert.Error(t, err)
}

// TestSchemaIsSelfContained: nothing in the schema can make the engine
// fetch a document, and every property says what it is for.
func TestSchemaIsSelfContained(t *testing.T) {
	for _, ref := range regexp.MustCompile(`"\$ref":\s*"([^"]*)"`).FindAllStringSubmatch(string(CaseSchema), -1) {
		assert.True(t, strings.HasPrefix(ref[1], "#/definitions/"), "local reference only: %s", ref[1])
	}
	var doc any
	require.NoError(t, json.Unmarshal(CaseSchema, &doc))
	var walk func(path string, v any)
	walk = func(path string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		if props, ok := m["properties"].(map[string]any); ok {
			for name, p := range props {
				pm, _ := p.(map[string]any)
				if _, isRef := pm["$ref"]; !isRef || pm["description"] != nil {
					assert.NotEmpty(t, pm["description"], "%s/properties/%s has a description", path, name)
				}
			}
		}
		for k, child := range m {
			walk(path+"/"+k, child)
		}
	}
	walk("", doc)
	assert.Regexp(t, `^[0-9a-f]{64}$`, SHA256(CaseSchema))
}
