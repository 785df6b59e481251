package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Ordered computes work(i) for every i in [0, n) spread over GOMAXPROCS
// goroutines, and hands each result to done(i, result) on the caller's
// goroutine in index order. At most window results (at least one per
// goroutine) are computed ahead of the one done waits for, so that the
// memory held is that of a window of items, not of all n.
//
// Each goroutine takes a token for the item it is about to start, then
// the next index; done gives the token back after item i. So item
// i+window starts only once item i is done, and the results pass through
// a ring of window slots: item i's slot is free again by then. No
// goroutine hands the indices out: a handoff per item cost a wakeup per
// item.
func Ordered[T any](n, window int, work func(i int) T, done func(i int, v T)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			done(i, work(i))
		}
		return
	}
	window = max(window, workers)
	ring := make([]chan T, window)
	for k := range ring {
		ring[k] = make(chan T, 1)
	}
	// ahead holds a token for each item started but not yet done, and
	// for a goroutine that is finding there is no item left.
	ahead := make(chan struct{}, window)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				ahead <- struct{}{}
				i := int(next.Add(1)) - 1
				if i >= n {
					<-ahead
					return
				}
				ring[i%window] <- work(i)
			}
		}()
	}
	for i := range n {
		v := <-ring[i%window]
		done(i, v)
		// Only now is item i let go: its token makes room for the next.
		<-ahead
	}
	wg.Wait()
}
