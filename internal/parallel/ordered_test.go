package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOrderedDeliversInOrderWithinTheWindow(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		for _, tt := range []struct{ n, window int }{{0, 3}, {1, 3}, {10, 1}, {100, 3}, {100, 8}} {
			prev := runtime.GOMAXPROCS(procs)
			var started, finished atomic.Int64
			var most int64
			var got []int
			Ordered(tt.n, tt.window, func(i int) int {
				started.Add(1)
				return i * i
			}, func(i, v int) {
				// Started but not yet done: what is held in memory.
				if held := started.Load() - finished.Load(); held > most {
					most = held
				}
				assert.Equal(t, i*i, v)
				got = append(got, i)
				finished.Add(1)
			})
			runtime.GOMAXPROCS(prev)
			want := make([]int, tt.n)
			for i := range want {
				want[i] = i
			}
			assert.Equal(t, want, append([]int{}, got...), "procs %d n %d: every item once, in order", procs, tt.n)
			assert.LessOrEqual(t, most, int64(max(tt.window, min(procs, tt.n), 1)), "procs %d n %d window %d: no more than the window held", procs, tt.n, tt.window)
		}
	}
}
