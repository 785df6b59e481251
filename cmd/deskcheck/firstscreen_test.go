package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
)

// TestReadmeFirstScreenSaysWhatTestsSkip: the README's first screen says
// that go test ./... skips the real-code and browser tests until they are
// installed, and how to install them.
func TestReadmeFirstScreenSaysWhatTestsSkip(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	lines := strings.Split(string(data), "\n")
	first := strings.Join(strings.Fields(strings.Join(lines[:min(len(lines), 30)], "\n")), " ")
	for _, want := range []string{"`go test ./...` skips", "apt-get install chromium", "bash .ci/run"} {
		assert.Contains(t, first, want)
	}
	// It installs a real release of a family.
	m := regexp.MustCompile("deskcheck-host install ([a-z-]+)@([0-9.]+)").FindStringSubmatch(first)
	require.NotNil(t, m, "the first screen says how to install a family's real code")
	found := false
	for _, f := range all.Registry().Families() {
		_, ok := f.Host.Release(m[2])
		found = found || (f.Host.Name == m[1] && ok)
	}
	assert.True(t, found, "%s@%s is a modelled release of a family", m[1], m[2])
}
