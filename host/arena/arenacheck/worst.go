package arenacheck

import (
	"fmt"

	"github.com/deskcheck/deskcheck/scenario"
)

// worst is the family's most expensive desk at the default limits: as
// many cases as the file holds, each of one call whose expected decision
// and reason contradict the table (two warnings a case). Every case is
// run on each adapter and reported, so what a run holds grows with the
// number of cases more than with their size: 65,000 cases of one call
// peak higher than 4,300 of 64 calls.
var worst = []scenario.Worst{{Name: "arena", Reaches: scenario.ReachesFileSize, Case: func(i int) string {
	return fmt.Sprintf(`{"id":"a%d","title":"t","scenario":"arena","given":{"turns":[[{"action":"file.read.workspace"}]]},"expected":{"decisions":["deny"],"reasons":["unknown_action"],"effects":0,"visibleDenials":1,"serviceRequests":1,"modelRequests":2,"traceComplete":true}}`, i)
}}}
