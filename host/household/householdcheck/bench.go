package householdcheck

import (
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// worst is the family's most expensive desk at the default limits: cases
// of 16 tool decisions of 60,000-byte arguments, with a decision budget of
// 16.
var worst = []scenario.Worst{{Name: "household", Reaches: scenario.ReachesFileSize, Case: func(i int) string {
	d := fmt.Sprintf(`{"tool":"portfolio.read","arguments":{"household":"%s"}}`, strings.Repeat("x", 60000))
	return fmt.Sprintf(`{"id":"h%d","title":"t","scenario":"household","given":{"maxDecisions":16,"decisions":[%s]},"expected":{"outcome":"parser_failure","effects":0}}`, i, strings.TrimSuffix(strings.Repeat(d+",", 16), ","))
}}}
