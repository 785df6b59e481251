package conformance

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gemini"
)

// composite is the manifest hash of an unpacked release's policy modules,
// as gemini.Release.Composite records it.
func composite(t *testing.T, core string) string {
	t.Helper()
	src := filepath.Join(core, "dist", "src")
	var manifest strings.Builder
	for _, m := range gemini.HashedModules {
		files := []string{m}
		if strings.Contains(m, "*") {
			matches, err := filepath.Glob(filepath.Join(src, m))
			require.NoError(t, err)
			files = nil
			for _, f := range matches {
				rel, _ := filepath.Rel(src, f)
				files = append(files, filepath.ToSlash(rel))
			}
			sort.Strings(files)
		}
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(src, f))
			if os.IsNotExist(err) {
				manifest.WriteString("missing  " + f + "\n")
				continue
			}
			require.NoError(t, err)
			sum := sha256.Sum256(data)
			manifest.WriteString(hex.EncodeToString(sum[:]) + "  " + f + "\n")
		}
	}
	sum := sha256.Sum256([]byte(manifest.String()))
	return hex.EncodeToString(sum[:])[:12]
}

// TestHashClasses: every installed release's policy modules hash as the
// model records; a release that hashes like another of its group is
// proven identical to it, and every other release is one the
// differential drives.
func TestHashClasses(t *testing.T) {
	driven := map[string]bool{}
	for _, v := range hashClasses {
		driven[v] = true
	}
	byHash := map[string]gemini.Release{}
	for _, r := range gemini.Releases() {
		core, _ := installed(t, r.Version)
		assert.Equal(t, r.Composite, composite(t, core), "gemini %s", r.Version)
		if first, ok := byHash[r.Composite]; ok {
			assert.Equal(t, first.Group, r.Group, "gemini %s hashes like %s: one group", r.Version, first.Version)
			assert.True(t, driven[first.Version], "%s, proven by its hash, stands for %s", first.Version, r.Version)
			continue
		}
		byHash[r.Composite] = r
		assert.True(t, driven[r.Version], "gemini %s hashes like no other release: the differential drives it", r.Version)
	}
}

// TestEmbeddedPoliciesAreTheReleases: the default policy files the model
// embeds are each release's own, byte for byte.
func TestEmbeddedPoliciesAreTheReleases(t *testing.T) {
	for _, r := range gemini.Releases() {
		core, _ := installed(t, r.Version)
		dir := filepath.Join(core, "dist", "src", "policy", "policies")
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		embedded := gemini.DefaultPolicyFiles(r)
		var names []string
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".toml") {
				names = append(names, e.Name())
				data, err := os.ReadFile(filepath.Join(dir, e.Name()))
				require.NoError(t, err)
				assert.Equal(t, string(data), embedded[e.Name()], "gemini %s %s", r.Version, e.Name())
			}
		}
		assert.Len(t, embedded, len(names), "gemini %s", r.Version)
	}
}
