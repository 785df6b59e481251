package realhost

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHostPackagesImportNoEngine: the driver judges through verifier, so
// it lives outside host/; no package of host/ depends on the engine
// (verifier, reports), the driver or the sandbox it starts programs in.
func TestHostPackagesImportNoEngine(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/deskcheck/deskcheck/host/...").CombinedOutput()
	require.NoError(t, err, string(out))
	for _, p := range strings.Fields(string(out)) {
		for _, engine := range []string{"verifier", "reports", "realhost", "internal/sandbox"} {
			require.False(t, p == "github.com/deskcheck/deskcheck/"+engine || strings.HasPrefix(p, "github.com/deskcheck/deskcheck/"+engine+"/"),
				"a package of host/ depends on %s", p)
		}
	}
}
