package verifier

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// forEach calls f(i) for every i in [0, n), spread over GOMAXPROCS
// goroutines. Callers write results by index, so the output order does not
// depend on scheduling.
func forEach(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}
