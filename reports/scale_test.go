package reports

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/gen"
	"github.com/deskcheck/deskcheck/verifier"
)

// wrongEffects makes every generated case that asserts effects expect 7,
// which no case observes.
var wrongEffects = regexp.MustCompile(`"effects":\s*[0-9]+`)

// scaleReport is the report of a suite of desks files of perDesk cases
// each, the first failing cases of every desk failing: real cases of the
// generated suite, verified once as written and once with effects
// mistaken, copied out to the size wanted. Building it this way takes a
// fraction of a second, so the page of a large suite can be checked under
// the race detector too.
func scaleReport(t testing.TB, desks, perDesk, failing int) *Report {
	t.Helper()
	const shapes = 120
	data := gen.Desk(0, 0, shapes)
	verify := func(b []byte) *Report {
		suite, ds, err := verifier.Verify(context.Background(), []verifier.Input{{Path: "generated-0000.json", Data: b}}, verifier.Options{Registry: testReg})
		require.NoError(t, err)
		require.False(t, ds.HasErrors(), "%v", ds)
		return Build(suite, fixedOrigin)
	}
	good := verify(data)
	bad := verify(wrongEffects.ReplaceAll(data, []byte(`"effects": 7`)))
	var passing, failed []Case
	for _, c := range good.Cases {
		if c.Status == verifier.Pass {
			passing = append(passing, c)
		}
	}
	for _, c := range bad.Cases {
		if c.Status == verifier.Fail {
			failed = append(failed, c)
		}
	}
	require.NotEmpty(t, passing)
	require.NotEmpty(t, failed)

	r := *good
	r.Cases = make([]Case, 0, desks*perDesk)
	r.Provenance.Files = nil
	r.Dimensions = &Boundary{Suite: good.Dimensions.Suite}
	r.Summary = verifier.Summary{}
	r.Provenance.Deskcheck, r.Provenance.Revision, r.Provenance.GoVersion = "test", "test", "go-test"
	for d := 0; d < desks; d++ {
		desk := fmt.Sprintf("generated-%04d", d)
		r.Provenance.Files = append(r.Provenance.Files, File{Path: fmt.Sprintf("desks/generated-%04d.json", d), Desk: desk, SHA256: good.Provenance.Files[0].SHA256, SchemaVersion: 1})
		r.Dimensions.Desks = append(r.Dimensions.Desks, DeskDimensions{Desk: desk, Dimensions: good.Dimensions.Desks[0].Dimensions})
		for i := 0; i < perDesk; i++ {
			var c Case
			if i < failing {
				c = failed[(d*perDesk+i)%len(failed)]
				r.Summary.Failed++
			} else {
				c = passing[(d*perDesk+i)%len(passing)]
				r.Summary.Passed++
			}
			c.Desk, c.ID = desk, fmt.Sprintf("case-%07d", d*perDesk+i)
			c.Line, c.Column = 0, 0
			if c.Status != verifier.Pass && r.Summary.Failed <= LocatedCases {
				c.Line, c.Column = 8+3*i, 5
			}
			r.Cases = append(r.Cases, c)
		}
	}
	r.Summary.Cases = len(r.Cases)
	r.Summary.SourceOnly = len(r.SourceOnly)
	r.Verdict = "pass"
	if r.Summary.Passed != r.Summary.Cases {
		r.Verdict = "fail"
	}
	return &r
}
