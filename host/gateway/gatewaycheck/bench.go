package gatewaycheck

import (
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// worst is the family's most expensive desk at the default limits: eight
// cases of 270 reads of 5,000 empty objects (4 MiB of copies each, the 32
// MiB of a run together), the rest of the file in long why texts.
var worst = []scenario.Worst{{Name: "gateway", Reaches: scenario.ReachesFileSize | scenario.ReachesCopies, Case: func(i int) string {
	read := `{"request":{"action":"read","resource":"ops/orders","arguments":{}}}`
	list := func(s string, n int) string { return strings.TrimSuffix(strings.Repeat(s+",", n), ",") }
	if i < 8 {
		return fmt.Sprintf(`{"id":"g%d","title":"t","scenario":"gateway","given":{"principal":"synthetic-analyst","records":{"ops/orders":[%s]},"steps":[%s]},"expected":{"decisions":[%s],"reasons":[%s],"draftEffects":0,"publicationEffects":0}}`,
			i, list("{}", 5000), list(read, 270), list(`"allow"`, 270), list(`"allowed"`, 270))
	}
	return fmt.Sprintf(`{"id":"g%d","title":"t","scenario":"gateway","why":"%s","given":{"principal":"synthetic-analyst","steps":[%s]},"expected":{"decisions":["allow"],"reasons":["allowed"],"draftEffects":0,"publicationEffects":0}}`, i, strings.Repeat("x", 60000), read)
}}}
