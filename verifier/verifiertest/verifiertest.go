// Package verifiertest holds what the tests of the families share to run
// one case through the engine: a desk of one case written from its given
// and expected blocks, its result, and the errors that refuse it.
package verifiertest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// OneCase is a desk of one case of scenario with the given and expected
// blocks as JSON text. The case is the desk's line 11 onwards, so a test
// can state where the engine locates a problem of given.
func OneCase(scenario, given, expected string) []byte {
	return []byte(fmt.Sprintf(`{
  "schemaVersion": 1,
  "id": "values",
  "title": "Values as the host reads them",
  "label": "TEACHING DATA — DO NOT EXECUTE COMMAND STRINGS",
  "cases": [
    {
      "id": "case",
      "title": "one case",
      "scenario": %q,
      "given": %s,
      "expected": %s
    }
  ]
}
`, scenario, given, expected))
}

// VerifyOne loads, lints and runs a one-case desk read as values.json and
// returns its result, failing on any diagnostic error.
func VerifyOne(t testing.TB, reg *scenario.Registry, data []byte) verifier.Result {
	t.Helper()
	suite, ds, err := verifier.Verify(context.Background(), []verifier.Input{{Path: "values.json", Data: data}}, verifier.Options{Registry: reg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	require.Len(t, suite.Results, 1)
	return suite.Results[0]
}

// Refused loads and lints a one-case desk read as values.json and returns
// its errors, failing when there are none.
func Refused(t testing.TB, reg *scenario.Registry, data []byte) verifier.Diagnostics {
	t.Helper()
	desks, ds := verifier.LoadAll(reg, []verifier.Input{{Path: "values.json", Data: data}}, verifier.Limits{})
	if !ds.HasErrors() {
		ds = append(ds, verifier.Lint(desks, verifier.Limits{})...)
	}
	var errs verifier.Diagnostics
	for _, d := range ds {
		if d.Severity == verifier.Error {
			errs = append(errs, d)
		}
	}
	require.NotEmpty(t, errs, "the desk is refused")
	return errs
}

// DiagText is the diagnostics as printed, a line each.
func DiagText(ds verifier.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}
