package reports

import (
	"encoding/json"
	"sync"

	"github.com/deskcheck/deskcheck/schema"
)

// caseSchema is the report schema's case definition compiled whole, with
// the definitions it refers to: the validation the case checks are held
// to.
var (
	caseSchemaOnce sync.Once
	caseSchema     *schema.Schema
	caseSchemaErr  error
)

// compileCaseSchema compiles the report schema's case definition, with
// the definitions it refers to.
func compileCaseSchema() (*schema.Schema, error) {
	var whole map[string]json.RawMessage
	if err := json.Unmarshal(ReportSchema, &whole); err != nil {
		return nil, err
	}
	doc, err := json.Marshal(map[string]json.RawMessage{
		"$schema":     whole["$schema"],
		"definitions": whole["definitions"],
		"allOf":       json.RawMessage(`[{"$ref": "#/definitions/case"}]`),
	})
	if err != nil {
		return nil, err
	}
	return schema.Compile(doc)
}
