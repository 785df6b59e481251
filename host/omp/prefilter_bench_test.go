package omp

import (
	"testing"

	omptools "github.com/deskcheck/deskcheck/host/omp/conformance/tools"
)

// BenchmarkCritical finds the first critical family of each bash command
// the tools' conformance test generates (3,600 calls, 18.1.16 and later):
// "regexp" runs every family's pattern as before, "prefilter" runs a
// pattern only when its prefilter lets the command through.
func BenchmarkCritical(b *testing.B) {
	var commands []string
	for _, c := range omptools.Generate(1, 3600) {
		if s, ok := c.Args["command"].(string); ok {
			commands = append(commands, s)
		}
	}
	families := eraFamilies(Bash18)
	b.Run("regexp", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, c := range commands {
				for _, f := range families {
					if f.p.compiled().re.MatchString(c) {
						break
					}
				}
			}
		}
	})
	b.Run("prefilter", func(b *testing.B) {
		e := newBashEval(Bash18, BashSettings{}, Faults{})
		for i := 0; i < b.N; i++ {
			for _, c := range commands {
				e.critical(c)
			}
		}
	})
}
