package gatewaycheck

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gateway"
)

func TestCopyBytes(t *testing.T) {
	orders := len(gateway.DefaultRecords()[gateway.ResourceOrders])
	p := len(`"p"`)
	read := func(res string) string {
		return `{"request":{"action":"read","resource":"` + res + `","arguments":{}}}`
	}
	approval := `{"id":"ap","principal":"q","action":"publish_summary","resource":"mock/review-board","argumentsDigest":"x","state":"approved","expiresAt":"2026-06-01T13:00:00Z"}`
	for _, tt := range []struct {
		reason, given string
		want          int
	}{
		{"a step that reads nothing copies its principal", `{"principal":"p","steps":[{"request":{"action":"create_draft"}}]}`, p},
		{"the default records, per read", `{"principal":"p","steps":[` + read("ops/orders") + `,` + read("ops/orders") + `]}`, 2 * (p + orders)},
		{"records as written", `{"principal":"p","records":{"ops/orders":[1, 2]},"steps":[` + read("ops/orders") + `]}`, p + len(`[1, 2]`)},
		{"a resource without records", `{"principal":"p","steps":[` + read("ops/payroll") + `]}`, p},
		{"a request that is not an object", `{"principal":"p","steps":[{"request":"read"}]}`, p},
		{"an action written with an escape is the same action", `{"principal":"p","records":{"ops/orders":[]},"steps":[{"request":{"action":"re\u0061d","resource":"ops/orders"}}]}`, p + 2},
		{"a long principal, once per step", `{"principal":"` + strings.Repeat("x", 1000) + `","steps":[{"request":1},{"request":2}]}`, 2 * 1002},
		{"a step's own principal replaces the case's", `{"principal":"` + strings.Repeat("x", 1000) + `","steps":[{"request":1,"principal":"p"}]}`, p},
		{"a named approval, per step that names it", `{"principal":"p","approvals":[` + approval + `],"steps":[{"request":1,"approvalId":"ap"},{"request":1,"approvalId":"nope"}]}`, 2*p + len(approval)},
	} {
		for _, decode := range []func([]byte) (givenBlock, error){decodeGiven, decodeGivenPlain} {
			g, err := decode([]byte(tt.given))
			require.NoError(t, err, tt.reason)
			assert.Equal(t, tt.want, copyBytes(g), tt.reason)
		}
	}
}
