package scenario

import "context"

// legacy declares a scenario written against the untyped fields (Lint,
// Script, Run, Suggest) as a Kind whose given block is its bytes.
func legacy(sc *Scenario, h Host) {
	for j := range sc.Limits {
		if sc.Limits[j].Measure != nil {
			sc.Limits[j].Measured = true
		}
	}
	type script struct {
		expected []Field
	}
	Declare(sc, Kind[[]byte, script, *Boundary]{
		Decode: func(given []byte) ([]byte, error) { return given, nil },
		Plan: func(g []byte, expected []Field) Plan[script] {
			p := Plan[script]{Script: script{expected}}
			if sc.Lint != nil {
				p.Problems = sc.Lint(g, expected, nil)
			}
			if sc.Script != nil {
				p.Permitted, p.Denied = sc.Script(g, expected)
			}
			return p
		},
		Measure: func(g []byte, limit string) int {
			for _, l := range sc.Limits {
				if l.Name == limit && l.Measure != nil {
					return l.Measure(g)
				}
			}
			return 0
		},
		Run: func(ctx context.Context, g []byte, env Env) (Observation, *Boundary, error) {
			obs, err := sc.Run(ctx, g, env)
			return obs, obs.Boundary, err
		},
		Boundary: func(_ script, b *Boundary) *Boundary { return b },
		Suggest:  func(g []byte, observed map[string]any) []string { return sc.Suggest(g, observed) },
		Group: func(g []byte, r Release) string {
			if h.RunGroup != nil {
				return h.RunGroup(sc.Name, g, r)
			}
			return r.Group
		},
	})
	if sc.Script == nil {
		sc.kind.control = false
	}
}
