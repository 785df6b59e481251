package parallel

import (
	"runtime"
	"sync"
)

// Ordered computes work(i) for every i in [0, n) spread over GOMAXPROCS
// goroutines, and hands each result to done(i, result) on the caller's
// goroutine in index order. At most window results (at least one per
// goroutine) are computed ahead of the one done waits for, so that the
// memory held is that of a window of items, not of all n.
func Ordered[T any](n, window int, work func(i int) T, done func(i int, v T)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			done(i, work(i))
		}
		return
	}
	window = max(window, workers)
	slots := make([]chan T, n)
	for i := range slots {
		slots[i] = make(chan T, 1)
	}
	// ahead holds a token for each item started but not yet done.
	ahead := make(chan struct{}, window)
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				slots[i] <- work(i)
			}
		}()
	}
	go func() {
		for i := range n {
			ahead <- struct{}{}
			next <- i
		}
		close(next)
	}()
	for i := range n {
		v := <-slots[i]
		slots[i] = nil
		done(i, v)
		// Only now is item i let go: its token makes room for the next.
		<-ahead
	}
	wg.Wait()
}
