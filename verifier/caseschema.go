package verifier

import (
	"fmt"
	"sync"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/schema"
)

// compiledSchemas holds each registry's case schema, compiled on first
// use: a registry is built once and only read.
var compiledSchemas sync.Map // *scenario.Registry → *compiledSchema

type compiledSchema struct {
	once  sync.Once
	split *schema.Split
	err   error
}

func caseSchema(reg *scenario.Registry) (*schema.Split, error) {
	v, _ := compiledSchemas.LoadOrStore(reg, &compiledSchema{})
	c := v.(*compiledSchema)
	c.once.Do(func() {
		c.split, c.err = schema.NewSplit(reg.CaseSchema(), "cases", "scenario")
		if c.err != nil {
			c.err = fmt.Errorf("compiling the case schema: %w", c.err)
		}
	})
	return c.split, c.err
}

// validateCases checks a JSON document against a registry's case schema.
// Each case is held to its own scenario's branch of the schema
// (schema.Split); the result is that of the whole schema. text is a
// string of doc's bytes the check reads its strings from ("" for none).
func validateCases(reg *scenario.Registry, doc []byte, text string) ([]schema.Problem, error) {
	s, err := caseSchema(reg)
	if err != nil {
		return nil, err
	}
	return s.ValidateText(doc, text)
}

// CompiledCaseSchema returns a registry's whole case schema, compiled.
func CompiledCaseSchema(reg *scenario.Registry) (*schema.Schema, error) {
	s, err := caseSchema(reg)
	if err != nil {
		return nil, err
	}
	full, err := s.FullSchema()
	if err != nil {
		return nil, fmt.Errorf("compiling the case schema: %w", err)
	}
	return full, nil
}
