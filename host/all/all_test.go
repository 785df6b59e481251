package all

import (
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite schema/case.schema.json from the registry")

// TestCaseSchemaIsCurrent keeps the committed case schema, which editors
// read, equal to the one the registry composes from the scenarios'
// fragments. Regenerate it with go test ./host/all -update (or deskcheck
// schema > schema/case.schema.json).
func TestCaseSchemaIsCurrent(t *testing.T) {
	want := Registry().CaseSchema()
	const path = "../../schema/case.schema.json"
	if *update {
		require.NoError(t, os.WriteFile(path, want, 0o644))
	}
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "schema/case.schema.json is stale: run go test ./host/all -update")
}
