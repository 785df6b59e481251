// Package schema holds the JSON Schema of deskcheck case files and checks
// documents against it.
//
// The schema (draft-07) is embedded and compiled once. Validation never
// fetches anything: the schema refers only to its own definitions, and the
// $schema of a case file is data like any other string. The schema engine
// (gojsonschema) is used in this file only, so it can be swapped here.
package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/xeipuuv/gojsonschema"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// SHA256 returns the hex SHA-256 of a schema.
func SHA256(doc []byte) string {
	sum := sha256.Sum256(doc)
	return hex.EncodeToString(sum[:])
}

// Problem is one way a document breaks the schema.
type Problem struct {
	// Pointer is the RFC 6901 JSON pointer of the offending value.
	Pointer string
	// Key, when set, names an object key the problem is about (an
	// unexpected property); Pointer then names its object.
	Key string
	// Message says what is wrong, in words.
	Message string
}

// Schema is a compiled JSON Schema.
type Schema struct{ s *gojsonschema.Schema }

// Compile compiles a draft-07 schema from bytes. Only references inside
// the schema itself resolve; nothing is fetched.
func Compile(doc []byte) (*Schema, error) {
	return compileLoader(gojsonschema.NewBytesLoader(doc))
}

func compileLoader(doc gojsonschema.JSONLoader) (*Schema, error) {
	loader := gojsonschema.NewSchemaLoader()
	loader.Draft = gojsonschema.Draft7
	loader.AutoDetect = false
	loader.Validate = false
	s, err := loader.Compile(doc)
	if err != nil {
		return nil, err
	}
	return &Schema{s: s}, nil
}

// wrappers are the error types that only say a sub-schema failed; the
// failures inside them are reported on their own.
var wrappers = map[string]bool{
	"condition_then": true, "condition_else": true,
	"number_all_of": true, "number_any_of": true, "number_one_of": true,
}

// Validate checks a JSON document against s. doc must be well-formed
// JSON whose nesting a reader may follow (the loader recurses once per
// level): deskcheck hands it only documents its first reader passed.
// Problems come sorted by pointer and then key, in the schema's order
// otherwise.
//
// gojsonschema decodes the document itself, with encoding/json. A
// hand-written decoder did it until the end-to-end benchmark showed it
// bought less than 10 % (BENCHMARKS.md).
func (s *Schema) Validate(doc []byte) ([]Problem, error) {
	return s.problems(gojsonschema.NewBytesLoader(doc))
}

// ValidateWithLoader is Validate: gojsonschema decoding the document
// itself, as a program using gojsonschema alone does. The benchmarks
// call it by this name for the floor they compare deskcheck with.
func (s *Schema) ValidateWithLoader(doc []byte) ([]Problem, error) {
	return s.Validate(doc)
}

func (s *Schema) problems(doc gojsonschema.JSONLoader) ([]Problem, error) {
	res, err := s.s.Validate(doc)
	if err != nil {
		return nil, fmt.Errorf("validating: %w", err)
	}
	var out []Problem
	for _, e := range res.Errors() {
		if wrappers[e.Type()] {
			continue
		}
		p := Problem{Pointer: pointer(e.Context()), Message: message(e)}
		if e.Type() == "additional_property_not_allowed" {
			p.Key, _ = e.Details()["property"].(string)
		}
		out = append(out, p)
	}
	sortProblems(out)
	return out, nil
}

// sortProblems sorts by pointer and then key, keeping the order of the
// rest. gojsonschema reports an object's unknown keys in map order and the
// rest in the schema's order: the sort makes the list the same from run
// to run and keeps the rest as it was.
func sortProblems(out []Problem) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Pointer != b.Pointer {
			return a.Pointer < b.Pointer
		}
		return a.Key < b.Key
	})
}

// pointer converts a gojsonschema context ("(root)", "cases", "0", ...) to
// a JSON pointer. The context is read back with a separator no key can
// hold: keys are decoded from valid UTF-8 and are valid UTF-8 themselves
// (a NUL, or any other character, may be part of a key), and the byte
// 0xFF never appears in valid UTF-8.
func pointer(ctx *gojsonschema.JsonContext) string {
	if ctx == nil {
		return ""
	}
	const sep = "\xff"
	parts := strings.Split(ctx.String(sep), sep)
	var b strings.Builder
	for _, p := range parts[1:] {
		b.WriteByte('/')
		b.WriteString(jsontext.PointerToken(p))
	}
	return b.String()
}

func message(e gojsonschema.ResultError) string {
	d := e.Details()
	switch e.Type() {
	case "additional_property_not_allowed":
		return fmt.Sprintf("unknown key %q", d["property"])
	case "required":
		return fmt.Sprintf("missing required key %q", d["property"])
	case "invalid_type":
		return fmt.Sprintf("wrong type: expected %v, found %v", d["expected"], d["given"])
	case "enum":
		return fmt.Sprintf("must be one of %v", d["allowed"])
	case "const":
		return fmt.Sprintf("must be %v", d["allowed"])
	}
	return e.Description()
}
