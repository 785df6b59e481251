package verifier

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// LoadEach is LoadAll one window at a time: on every case file of the
// repository, valid and broken, named together (so that desk ids repeat
// across files and lint limits apply), it returns the same diagnostics and
// hands on the same desks in the same order, under small and default
// diagnostic limits.
func TestLoadEachIsLoadAll(t *testing.T) {
	var paths []string
	for _, glob := range []string{"../cases/*.json", "../host/*/*/testdata/*.json", "testdata/invalid/*.json", "testdata/hostile/*.json"} {
		m, err := filepath.Glob(glob)
		require.NoError(t, err)
		paths = append(paths, m...)
	}
	require.Greater(t, len(paths), 30)
	var inputs []Input
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		inputs = append(inputs, Input{Path: p, Data: data})
	}
	// The boundary desk twice, under two names: a duplicate desk id.
	inputs = append(inputs, Input{Path: "again/boundary-desk.json", Data: inputs[0].Data})
	for _, limits := range []Limits{{}, {Diagnostics: 2}} {
		desks, want := LoadAll(testReg, inputs, limits)
		var got []*Desk
		ds := LoadEach(testReg, inputs, limits, func(d *Desk) { got = append(got, d) })
		assert.Equal(t, want, ds, "limits %+v", limits)
		require.Len(t, got, len(desks))
		for i := range desks {
			assert.Equal(t, desks[i].Path, got[i].Path)
			assert.Equal(t, desks[i].SHA256, got[i].SHA256)
			assert.Equal(t, len(desks[i].Cases), len(got[i].Cases))
		}
		assert.NotEmpty(t, ds.Unacknowledged()+len(ds), "the files hold problems to compare")
	}
}

// Files listed by ListPaths are read by LoadEach when it comes to them,
// with what ReadPaths would have said of them; one that went away since it
// was listed is skipped with a warning.
func TestListPathsReadsLate(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../cases/boundary-desk.json")
	require.NoError(t, err)
	for _, n := range []string{"a.json", "b.json", "c.json"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), data, 0o600))
	}
	read, rds, err := ReadPaths([]string{dir}, Limits{})
	require.NoError(t, err)
	listed, lds, err := ListPaths([]string{dir}, Limits{})
	require.NoError(t, err)
	assert.Equal(t, rds, lds)
	require.Len(t, listed, 3)
	for i := range listed {
		assert.Nil(t, listed[i].Data, "not read yet")
		assert.Equal(t, read[i].Path, listed[i].Path)
	}
	_, want := LoadAll(testReg, read, Limits{})
	var n int
	assert.Equal(t, want, LoadEach(testReg, listed, Limits{}, func(*Desk) { n++ }))
	assert.Equal(t, 3, n)

	require.NoError(t, os.Remove(filepath.Join(dir, "b.json")))
	n = 0
	ds := LoadEach(testReg, listed, Limits{}, func(*Desk) { n++ })
	assert.Equal(t, 2, n)
	var skipped Diagnostics
	for _, d := range ds {
		if d.Name == "skipped" {
			skipped = append(skipped, d)
		}
	}
	require.Len(t, skipped, 1)
	assert.Equal(t, filepath.Join(dir, "b.json"), skipped[0].File)
	assert.Equal(t, Warning, skipped[0].Severity)
	assert.Contains(t, skipped[0].Summary, "skipped: no such file or directory")
}
