package agentloopcheck

import (
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// worst is the family's most expensive desk at the default limits:
// scripts of 16 lookups of 60,000-byte arguments.
var worst = []scenario.Worst{{Name: "runner", Reaches: scenario.ReachesFileSize, Case: func(i int) string {
	e := fmt.Sprintf(`{"tool":"lookup_user","args":{"user_id":"%s"}}`, strings.Repeat("x", 60000))
	return fmt.Sprintf(`{"id":"r%d","title":"t","scenario":"runner","given":{"script":[%s]},"expected":{"outcome":"answered","effects":0}}`, i, strings.TrimSuffix(strings.Repeat(e+",", 16), ","))
}}}
