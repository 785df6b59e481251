// Package real lists the host families' real code that deskcheck-host
// installs and runs through the driver (realhost): one line per family
// whose harness is declared through internal/realcode. It is apart from
// host/all because a harness package starts programs (npm at install),
// which deskcheck itself never links.
package real

import (
	"github.com/deskcheck/deskcheck/host/arena/realarena"
	geminireal "github.com/deskcheck/deskcheck/host/gemini/realhost"
	ompreal "github.com/deskcheck/deskcheck/host/omp/realhost"
	"github.com/deskcheck/deskcheck/internal/realcode"
)

// Families are the declared harnesses, in the order deskcheck-host lists
// them. The first is deskcheck-host's default: verify without -host runs
// its newest installed release, and drift runs its installed releases.
func Families() []realcode.Family {
	return []realcode.Family{ompreal.Family, geminireal.Family, realarena.Family}
}
