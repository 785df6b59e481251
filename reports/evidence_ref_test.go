package reports

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/schema"
)

// wholeCaseSchema is the report schema's case definition compiled on its
// own, validating a case in one call: what a case's checks in pieces are
// held to.
func wholeCaseSchema(t testing.TB) *schema.Schema {
	t.Helper()
	split, err := reportSplitter()
	require.NoError(t, err)
	c, err := split.compiled("/definitions/case")
	require.NoError(t, err)
	return c
}
