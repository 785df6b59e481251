package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestForCallsEveryIndexOnce(t *testing.T) {
	for _, procs := range []int{1, 4} {
		prev := runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 7, 1000} {
			counts := make([]atomic.Int32, n)
			For(n, func(i int) { counts[i].Add(1) })
			for i := range counts {
				assert.Equal(t, int32(1), counts[i].Load(), "index %d of %d with %d processors", i, n, procs)
			}
		}
		runtime.GOMAXPROCS(prev)
	}
}
