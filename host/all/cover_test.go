package all

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// TestEveryFamilyHoldsToItsDeclarations holds every family to its boundary
// points and generated mutants: the declarations are well formed, every
// generated input is a valid case of the family's own scenarios, every
// point is reached by a case made from a generated input (checked by
// running it), and every mutant is either killed by such a case (it
// passes on the correct model and fails under the mutant, as printed) or
// declared equivalent, in which case no generated input tells it from the
// correct host.
func TestEveryFamilyHoldsToItsDeclarations(t *testing.T) {
	reg := Registry()
	ctx := context.Background()
	for _, fam := range reg.Families() {
		fam := fam
		t.Run(fam.Host.Name, func(t *testing.T) {
			require.NotEmpty(t, fam.Points, "the family declares no boundary point")
			require.NotEmpty(t, fam.Mutants, "the family declares no mutant")
			require.NotNil(t, fam.Generate, "the family generates no input")
			scenarios := map[string]bool{}
			for _, sc := range fam.Scenarios {
				scenarios[sc.Name] = true
			}
			points := map[string]bool{}
			for _, p := range fam.Points {
				assert.False(t, points[p.Name], "point %s is declared twice", p.Name)
				points[p.Name] = true
				assert.True(t, scenarios[p.Scenario], "point %s names scenario %q, not one of the family's", p.Name, p.Scenario)
				assert.NotEmpty(t, p.Text, "point %s says nothing", p.Name)
			}
			names := map[string]bool{}
			for i, m := range fam.Mutants {
				assert.False(t, names[m.Name], "mutant %s is declared twice", m.Name)
				names[m.Name] = true
				assert.Equal(t, i+1, m.ID, "mutant %s", m.Name)
				assert.NotEmpty(t, m.Text, "mutant %s says nothing", m.Name)
			}
			candidates := fam.Generate()
			for i, c := range candidates {
				assert.True(t, scenarios[c.Scenario], "a generated input names scenario %q", c.Scenario)
				for _, a := range c.Aims {
					assert.True(t, points[a], "a generated input aims at %q, not a declared point", a)
				}
				// As a case, with the expected block its first run
				// observes, it loads without an error: the schema, the
				// limits and lint take it.
				p, err := verifier.NewProbe(reg, c.Scenario, []byte(c.Given))
				if !assert.NoError(t, err, "generated input %d: %s", i, c.Given) {
					continue
				}
				first, err := p.First(ctx)
				if !assert.NoError(t, err, "generated input %d: %s", i, c.Given) {
					continue
				}
				_, ds := verifier.Load(reg, "generated.json", first, verifier.DefaultLimits)
				assert.False(t, ds.HasErrors(), "generated input %d is not a valid case: %v\n%s", i, ds, c.Given)
			}

			// Every point: a case made for it reaches it, as a desk.
			search := verifier.NewSearch(&fam)
			var made []*verifier.Made
			for _, p := range fam.Points {
				m := search.Reach(ctx, p)
				if assert.NotNil(t, m, "no generated input reaches %s", p.Name) {
					made = append(made, m)
				}
			}
			checkDesk(t, reg, "reach-"+fam.Host.Name, made, points)

			// Every mutant: killed by a made case, or declared equivalent
			// and told apart by no generated input.
			made = nil
			for _, m := range fam.Mutants {
				if m.Equivalent != "" {
					c, found := search.Distinguishes(ctx, m)
					assert.False(t, found, "mutant %s is declared equivalent, but the generated input %s tells it apart", m.Name, c.Given)
					continue
				}
				k := search.Kill(ctx, m)
				if assert.NotNil(t, k, "no generated input kills mutant %s (%s)", m.Name, m.Text) {
					made = append(made, k)
				}
			}
			checkDesk(t, reg, "kill-"+fam.Host.Name, made, points)
		})
	}
}

// checkDesk prints the made cases as one desk, loads it as a case file
// (schema, lint: no error) and runs it: every case passes on the correct
// model, reaches its point and fails under its mutant, and every point a
// run records is one the family declares.
func checkDesk(t *testing.T, reg *scenario.Registry, id string, made []*verifier.Made, points map[string]bool) {
	t.Helper()
	if len(made) == 0 {
		return
	}
	desk := verifier.MadeDesk(reg, id, "made by the test", made)
	require.True(t, json.Valid(desk), "%s", desk)
	d, ds := verifier.Load(reg, id+".json", desk, verifier.DefaultLimits)
	require.False(t, ds.HasErrors(), "%v", ds)
	require.Len(t, d.Cases, len(made))
	assert.NoError(t, verifier.CheckMade(context.Background(), reg, desk, made))
	results, err := verifier.Run(context.Background(), d.Cases, verifier.RunOptions{})
	require.NoError(t, err)
	for _, r := range results {
		for _, p := range r.Points {
			assert.True(t, points[p], "%s records point %q, which the family does not declare", r.Case.ID, p)
		}
	}
}

// The bundled and testdata desks record only declared points.
func TestDesksRecordDeclaredPoints(t *testing.T) {
	reg := Registry()
	suite, ds, err := verifier.Verify(context.Background(), desks(t), verifier.Options{Registry: reg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	n := 0
	for _, r := range suite.Results {
		_, fam := r.Case.Spec()
		declared := map[string]bool{}
		for _, p := range fam.Points {
			declared[p.Name] = true
		}
		for _, p := range r.Points {
			assert.True(t, declared[p], "%s records point %q, which %s does not declare", r.Case.FullID(), p, fam.Host.Name)
			n++
		}
	}
	assert.Positive(t, n)
}
