package reports

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// peakHeap runs f and returns the most heap it held above what was in use
// before, sampled as it runs.
func peakHeap(f func()) uint64 {
	// A low GC target keeps garbage from counting as held memory however
	// much live heap the tests before this one left behind.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	base := s[0].Value.Uint64()
	var most atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > base && v-base > most.Load() {
				most.Store(v - base)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	<-done
	return most.Load()
}

// Evidence is checked a case at a time: the schema validator's decoded
// copy of a large report is never held whole. Checking a report of
// 20,000 cases holds less heap than twice the file (the whole document
// at once held about eight times its size).
func TestCheckJSONMemoryIsBoundedByTheLargestCase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a report of 20,000 cases")
	}
	var buf bytes.Buffer
	require.NoError(t, JSON{}.Write(&buf, scaleReport(t, 20, 1000, 50)))
	data := buf.Bytes()
	var err error
	peak := peakHeap(func() { err = CheckJSON(data) })
	require.NoError(t, err)
	t.Logf("%d bytes of evidence, peak heap %d MiB", len(data), peak>>20)
	assert.Less(t, peak, uint64(2*len(data)), "peak heap %d MiB for %d MiB of evidence", peak>>20, len(data)>>20)
}

// A problem inside one case is named at its place in the whole report,
// and the problems come sorted by pointer as the whole document's were.
func TestValidateEvidencePointsIntoTheCases(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, JSON{}.Write(&buf, scaleReport(t, 1, 3, 1)))
	data := bytes.Replace(buf.Bytes(), []byte(`"status":"pass"`), []byte(`"status":"maybe"`), 1)
	require.Error(t, CheckJSON(data))
	ps, more, err := validateEvidence(data)
	require.NoError(t, err)
	assert.False(t, more)
	whole, err := reportSchema.Validate(data)
	require.NoError(t, err)
	assert.Equal(t, whole, ps, "the same problems as the whole document's")
	require.NotEmpty(t, ps)
	assert.Regexp(t, `^/cases/[0-9]+/status$`, ps[0].Pointer)
}
