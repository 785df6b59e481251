package checktest_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/cases"
	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/verifier"
)

// TestRespell writes every character of every key and string as an
// escape and nothing else.
func TestRespell(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": "b"}`, `{"\u0061": "\u0062"}`},
		{`["é😀", 1.5e3, true, null]`, `["\u00e9\ud83d\ude00", 1.5e3, true, null]`},
		{`"\ud800x\u0041"`, `"\ud800\u0078\u0041"`},
		{`{"k\"": "\n"}`, `{"\u006b\u0022": "\u000a"}`},
		{` "" `, ` "" `},
	}
	for _, tt := range tests {
		got, ok := checktest.Respell([]byte(tt.in))
		require.True(t, ok, tt.in)
		assert.Equal(t, tt.want, string(got), tt.in)
	}
	for _, bad := range []string{``, `{`, `"\x"`, `[1,]`, `{"a" 1}`} {
		_, ok := checktest.Respell([]byte(bad))
		assert.False(t, ok, bad)
	}
}

// TestSpellingChangesNothing: every bundled case and every case made from
// a family's generated inputs gets the same verdict, observation,
// mismatches and boundary counts when each of its keys and strings is
// written with escapes.
func TestSpellingChangesNothing(t *testing.T) {
	reg := all.Registry()
	desks := all.Desks()
	// The families' test desks, among them a spelling desk each, whose
	// strings hold what only a host's own reader keeps: lone surrogates in
	// keys, values, ids and answers. Those pass as written.
	paths, err := filepath.Glob("../../host/*/*check/testdata/*.json")
	require.NoError(t, err)
	spelling := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		if filepath.Base(path) == "spelling-desk.json" {
			spelling++
			for id, v := range checktest.Judge(t, reg, path, data) {
				assert.Equal(t, verifier.Pass, v.Status, "%s: %s: %v", path, id, v.Mismatches)
			}
		}
		desks = append(desks, cases.File{Path: path, Data: data})
	}
	require.Positive(t, spelling, "the families' spelling desks are read")
	for _, d := range desks {
		t.Run(d.Path, func(t *testing.T) {
			n := checktest.SameUnderSpelling(t, reg, d.Path, d.Data)
			t.Logf("%d cases, each the same respelled", n)
			assert.Positive(t, n)
		})
	}
	ctx := context.Background()
	for _, fam := range reg.Families() {
		t.Run("generated/"+fam.Host.Name, func(t *testing.T) {
			n := 0
			for i, c := range fam.Generate() {
				p, err := verifier.NewProbe(reg, c.Scenario, []byte(c.Given))
				require.NoError(t, err)
				first, err := p.First(ctx)
				require.NoError(t, err)
				d, ds := verifier.Load(reg, "first.json", first, verifier.DefaultLimits)
				require.False(t, ds.HasErrors(), "%v", ds)
				results, err := verifier.Run(ctx, d.Cases[:1], verifier.RunOptions{})
				require.NoError(t, err)
				saved := p.Saved(results[0])
				n += checktest.SameUnderSpelling(t, reg, fam.Host.Name+"-generated-"+strconv.Itoa(i), saved)
			}
			t.Logf("%d generated cases, each the same respelled", n)
			assert.Positive(t, n)
		})
	}
}
