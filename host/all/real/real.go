// Package real lists the host families' real code that deskcheck-host
// installs and runs through the driver (realhost): one line per family
// whose harness is declared through internal/realcode. It is apart from
// host/all because a harness package starts programs (npm at install),
// which deskcheck itself never links.
package real

import (
	"github.com/deskcheck/deskcheck/host/arena/realarena"
	geminireal "github.com/deskcheck/deskcheck/host/gemini/realhost"
	"github.com/deskcheck/deskcheck/internal/realcode"
)

// Families are the declared harnesses, in the order deskcheck-host lists
// them.
func Families() []realcode.Family {
	return []realcode.Family{geminireal.Family, realarena.Family}
}
