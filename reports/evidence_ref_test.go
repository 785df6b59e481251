package reports

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/schema"
)

// reportCase is the text of case n (counted from 0) of the report in file.
func reportCase(t testing.TB, file string, n int) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	start, _, ok := memberSpan(data, "cases")
	require.True(t, ok)
	at := jsontext.SkipSpace(data, start+1)
	for range n {
		at = jsontext.SkipSpace(data, valueEnd(data, at)+1)
	}
	return data[at:valueEnd(data, at)]
}

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
