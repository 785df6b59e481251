package verifier

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNestedKeysGetSuggestions: an unknown key inside a given block (a
// gateway step, an approval) is named with the closest key its fragment
// allows there.
func TestNestedKeysGetSuggestions(t *testing.T) {
	doc := named(`{"schemaVersion":1,"id":"d","title":"t","label":"DO NOT EXECUTE","cases":[{"id":"a","title":"t","scenario":"{requests}",`) +
		`"given":{"principal":"synthetic-operator","steps":[{"request":{},"aprovalId":"x"}],` +
		`"approvals":[{"id":"a","principal":"p","action":"read","resource":"r","arguments":{},"state":"approved","expiresAt":"2026-06-01T12:00:00Z","consumd":true}]},` +
		`"expected":{"decisions":["deny"],"reasons":["envelope_missing_key"],"draftEffects":0,"publicationEffects":0}}]}`
	_, ds := LoadAll(testReg, []Input{{Path: "nested.json", Data: []byte(doc)}}, Limits{})
	s := diagStrings(ds)
	assert.Contains(t, s, `nested.json:1:183: error: unknown key "aprovalId"; did you mean "approvalId"? (/cases/0/given/steps/0/aprovalId)`)
	assert.Contains(t, s, `nested.json:1:340: error: unknown key "consumd"; did you mean "consumed"? (/cases/0/given/approvals/0/consumd)`)
}
