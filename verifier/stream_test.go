package verifier

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
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

// TestVerifyEachIsVerify: run desk by desk, a suite has Verify's summary,
// diagnostics and errors, the limits of a run included, and each is handed
// every selected result in file order; a desk that would take the run over
// a limit is never run.
func TestVerifyEachIsVerify(t *testing.T) {
	bundled, err := os.ReadFile("../cases/boundary-desk.json")
	require.NoError(t, err)
	broken, err := os.ReadFile("testdata/invalid/malformed.json")
	require.NoError(t, err)
	tests := []struct {
		name   string
		inputs []Input
		limits Limits
		run    *regexp.Regexp
		ran    []string // desks each is handed
		after  *RanBeforeInvalid
	}{
		{"three desks", []Input{repeatDesk("a", 3, 2), {Path: "b.json", Data: bundled}, repeatDesk("c", 2, 1)}, Limits{}, nil, []string{"a", "boundary-desk", "c"}, nil},
		{"selected by -run", []Input{repeatDesk("a", 3, 2), repeatDesk("c", 2, 1)}, Limits{}, regexp.MustCompile(`^c/`), []string{"a", "c"}, nil},
		{"no case selected", []Input{repeatDesk("a", 3, 2)}, Limits{}, regexp.MustCompile(`^z/`), []string{"a"}, nil},
		{"an invalid file first", []Input{{Path: "bad.json", Data: broken}, repeatDesk("a", 3, 2)}, Limits{}, nil, nil, nil},
		{"an invalid file after two desks", []Input{repeatDesk("a", 3, 2), repeatDesk("b", 4, 2), {Path: "bad.json", Data: broken}, repeatDesk("c", 2, 1)}, Limits{}, nil, []string{"a", "b"}, &RanBeforeInvalid{Files: 2, Cases: 7}},
		{"over the work of a run at the third desk", []Input{repeatDesk("a", 5, 1000), repeatDesk("b", 4, 1000), repeatDesk("c", 5, 1000), repeatDesk("d", 1, 1)}, Limits{RunWork: 10_000}, nil, []string{"a", "b"}, nil},
		{"over the trace events at the first desk", []Input{repeatDesk("e", 20, 50), repeatDesk("f", 1, 1)}, Limits{Events: 500}, nil, nil, nil},
		{"over the trace text", []Input{repeatDesk("e", 20, 50)}, Limits{TraceBytes: 10_000}, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{Registry: testReg, Limits: tt.limits, Run: tt.run}
			want, wantDs, wantErr := Verify(context.Background(), tt.inputs, opts)
			var ran []string
			var results []Result
			got, ds, err := VerifyEach(context.Background(), tt.inputs, opts, func(d *Desk, rs []Result, _ []*Claim) error {
				ran = append(ran, d.ID)
				results = append(results, rs...)
				return nil
			})
			assert.Equal(t, wantDs, ds)
			assert.Equal(t, tt.ran, ran)
			switch {
			case tt.after != nil:
				assert.Equal(t, tt.after, err)
				assert.Nil(t, got)
			case wantErr != nil:
				assert.EqualError(t, err, wantErr.Error())
				assert.Nil(t, got)
			case want == nil:
				assert.NoError(t, err)
				assert.Nil(t, got)
			default:
				require.NoError(t, err)
				assert.Equal(t, want.Summary, got.Summary)
				require.Len(t, results, len(want.Results))
				for i := range results {
					assert.Equal(t, want.Results[i].Case.FullID(), results[i].Case.FullID())
					assert.Equal(t, want.Results[i].Status, results[i].Status)
				}
			}
		})
	}
}

// An error of each stops the run: no later desk is handed on, and the
// error is returned.
func TestVerifyEachStopsOnError(t *testing.T) {
	var ran []string
	_, _, err := VerifyEach(context.Background(), []Input{repeatDesk("a", 1, 1), repeatDesk("b", 1, 1), repeatDesk("c", 1, 1)}, Options{Registry: testReg},
		func(d *Desk, _ []Result, _ []*Claim) error {
			ran = append(ran, d.ID)
			if d.ID == "b" {
				return errors.New("disk full")
			}
			return nil
		})
	assert.EqualError(t, err, "disk full")
	assert.Equal(t, []string{"a", "b"}, ran)
	assert.Equal(t, "the 7 cases of the 2 files read before the first invalid one had already run", (&RanBeforeInvalid{Files: 2, Cases: 7}).Error())
	assert.Equal(t, "the 1 case of the 1 file read before the first invalid one had already run", (&RanBeforeInvalid{Files: 1, Cases: 1}).Error())
}
