// Package all lists the host families deskcheck verifies. Adding a family
// is one entry in Families (and its import) here.
package all

import (
	"sync"

	"github.com/deskcheck/deskcheck/cases"
	"github.com/deskcheck/deskcheck/host/agentloop/agentloopcheck"
	"github.com/deskcheck/deskcheck/host/arena/arenacheck"
	"github.com/deskcheck/deskcheck/host/gateway/gatewaycheck"
	"github.com/deskcheck/deskcheck/host/gemini/geminicheck"
	"github.com/deskcheck/deskcheck/host/household/householdcheck"
	"github.com/deskcheck/deskcheck/host/omp/ompcheck"
	"github.com/deskcheck/deskcheck/scenario"
)

// Families are the host families, in the order reports list them.
var Families = []scenario.Family{
	ompcheck.Family,
	householdcheck.Family,
	gatewaycheck.Family,
	agentloopcheck.Family,
	arenacheck.Family,
	geminicheck.Family,
}

// Registry returns the registry of every family, built on the first call
// and shared: a registry is only read, and building one composes the case
// schema (about a millisecond), which every command did twice, once for
// its help text at start-up. The families are fixed at build time, so an
// error here is a programming error, caught by this package's tests.
func Registry() *scenario.Registry { return registry() }

var registry = sync.OnceValue(func() *scenario.Registry {
	r, err := scenario.NewRegistry(Families...)
	if err != nil {
		panic("deskcheck: the host families do not fit together: " + err.Error())
	}
	return r
})

// Desks are the bundled suite, the desks deskcheck runs when no path is
// named: every desk of cases/, sorted by name. Commands and tests read the
// bundled suite here and nowhere else.
func Desks() []cases.File { return cases.Files() }
