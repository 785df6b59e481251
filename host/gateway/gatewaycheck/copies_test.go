package gatewaycheck

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/deskcheck/deskcheck/host/gateway"
)

func TestReadBytes(t *testing.T) {
	orders := len(gateway.DefaultRecords()[gateway.ResourceOrders])
	read := func(res string) string {
		return `{"request":{"action":"read","resource":"` + res + `","arguments":{}}}`
	}
	for _, tt := range []struct {
		reason, given string
		want          int
	}{
		{"no read", `{"principal":"p","steps":[{"request":{"action":"create_draft"}}]}`, 0},
		{"the default records, per read", `{"principal":"p","steps":[` + read("ops/orders") + `,` + read("ops/orders") + `]}`, 2 * orders},
		{"records as written", `{"principal":"p","records":{"ops/orders":[1, 2]},"steps":[` + read("ops/orders") + `]}`, len(`[1, 2]`)},
		{"a resource without records", `{"principal":"p","steps":[` + read("ops/payroll") + `]}`, 0},
		{"a request that is not an object", `{"principal":"p","steps":[{"request":"read"}]}`, 0},
		{"an action written with an escape is the same action", `{"principal":"p","records":{"ops/orders":[]},"steps":[{"request":{"action":"re\u0061d","resource":"ops/orders"}}]}`, 2},
	} {
		assert.Equal(t, tt.want, readBytes([]byte(tt.given)), tt.reason)
	}
}
