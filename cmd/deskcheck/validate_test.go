package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestValidateListsEveryProblemInOneRun: validate of a file with a mistake
// of every stage (a repeated key, schema errors, counts written as
// floats, a release range, lint errors and warnings) lists all of them in
// one run, in file order, and one line says which later checks were
// skipped and why; a file that is not JSON says that everything after the
// reading was skipped. The goldens hold the text and the GitHub output.
func TestValidateListsEveryProblemInOneRun(t *testing.T) {
	const dir = "../../verifier/testdata/invalid/"
	tests := []struct {
		golden string
		args   []string
		lines  int // problems listed on standard error
	}{
		{"every-stage.txt", []string{dir + "every-stage.json"}, 12},
		{"every-stage-github.txt", []string{"-format", "github", dir + "every-stage.json"}, 12},
		{"malformed.txt", []string{dir + "malformed.json"}, 2},
		{"duplicate-key.txt", []string{dir + "duplicate-key.json"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			code, out, errOut := runCLI(t, append([]string{"validate"}, tt.args...)...)
			assert.Equal(t, exitInvalid, code)
			assert.Equal(t, tt.lines, strings.Count(errOut, "\n"), errOut)
			golden(t, "validate/"+tt.golden, "standard error:\n"+errOut+"standard output:\n"+out)
		})
	}
}
