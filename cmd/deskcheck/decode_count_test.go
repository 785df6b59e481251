package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

// TestGivenDecodedOncePerProcess counts, for each command a teacher runs
// on the bundled desks, how many given blocks the engine decodes and how
// many suggestions it computes: every case is decoded once whatever the
// command, faults runs hundreds of fault runs without a suggestion, and a
// suggestion is computed once per case only where a report shows it. It
// runs the commands in this process, so it must not run in parallel with
// another test (it calls no t.Parallel, and runs before every test that
// does).
func TestGivenDecodedOncePerProcess(t *testing.T) {
	cases := bundledCaseCount(t)
	require.Greater(t, cases, 50)
	out := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		suggests int
	}{
		{"verify", []string{"verify", "-out", filepath.Join(out, "v")}, cases},
		{"verify without a report folder", []string{"verify", "-out", "none"}, cases},
		{"faults", []string{"faults", "-out", "none"}, 0},
		{"faults with its report folder", []string{"faults", "-out", filepath.Join(out, "f")}, cases},
		{"explain", []string{"explain"}, cases},
		{"observe", []string{"observe"}, cases},
		{"validate", []string{"validate"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			decodes, suggests := scenario.Calls.Decodes.Load(), scenario.Calls.Suggests.Load()
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr)
			require.Contains(t, []int{exitPass, exitFail}, code, stderr.String())
			assert.Equal(t, int64(cases), scenario.Calls.Decodes.Load()-decodes, "given blocks decoded")
			assert.Equal(t, int64(tt.suggests), scenario.Calls.Suggests.Load()-suggests, "suggestions computed")
		})
	}
}
