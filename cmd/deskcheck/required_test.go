package main

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/all"
)

// TestReadmeRequiredKeys: the README's list of the keys every case must
// state names, for each scenario, the required expected keys of its schema
// fragment, and every scenario is in it.
func TestReadmeRequiredKeys(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	readme := strings.Join(strings.Fields(string(data)), " ")
	start := strings.Index(readme, "Every case must state its scenario's required keys")
	require.GreaterOrEqual(t, start, 0)
	end := strings.Index(readme[start:], "marks them `required`")
	require.Positive(t, end)
	sentence := readme[start : start+end]
	// Each group: the keys in backquotes, then the scenarios in brackets.
	group := regexp.MustCompile("((?:`[A-Za-z]+`(?:, | and )?)+) \\(((?:`[a-z-]+`(?:, )?)+)\\)")
	listed := map[string][]string{}
	word := regexp.MustCompile("`([A-Za-z-]+)`")
	for _, m := range group.FindAllStringSubmatch(sentence, -1) {
		var keys []string
		for _, k := range word.FindAllStringSubmatch(m[1], -1) {
			keys = append(keys, k[1])
		}
		sort.Strings(keys)
		for _, s := range word.FindAllStringSubmatch(m[2], -1) {
			listed[s[1]] = keys
		}
	}
	reg := all.Registry()
	for _, name := range reg.Names() {
		sc, _, _ := reg.Lookup(name)
		var want []string
		for _, k := range gjson.GetBytes(sc.Schema, "expected.required").Array() {
			want = append(want, k.String())
		}
		sort.Strings(want)
		assert.Equal(t, want, listed[name], "the README's required keys of %s", name)
	}
}

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
