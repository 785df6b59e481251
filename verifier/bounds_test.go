package verifier

import (
	"fmt"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/gen"
)

// sixteenMiB is the default file size limit.
const sixteenMiB = 16 << 20

// fill repeats unit until the text would pass size bytes, between head and
// tail.
func fill(head, unit, tail string, size int) []byte {
	n := (size - len(head) - len(tail)) / len(unit)
	var b strings.Builder
	b.Grow(len(head) + n*len(unit) + len(tail))
	b.WriteString(head)
	for i := 0; i < n; i++ {
		b.WriteString(unit)
	}
	b.WriteString(tail)
	return []byte(b.String())
}

// heapAllocated runs f and returns the bytes of heap it allocated: an
// upper bound of the most heap f held at once, which it cannot miss as a
// sample of the heap in use misses a peak shorter than its interval. It
// counts what every goroutine allocates, and the tests that call it run
// alone.
func heapAllocated(f func()) uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	f()
	metrics.Read(sample)
	return sample[0].Value.Uint64() - before
}

// TestHeapAllocatedSeesAShortPeak: 64 MiB held for no time at all are
// counted, however short the peak.
func TestHeapAllocatedSeesAShortPeak(t *testing.T) {
	var sink []byte
	got := heapAllocated(func() {
		sink = make([]byte, 64<<20)
		sink[len(sink)-1] = 1
		sink = nil
	})
	assert.Nil(t, sink)
	assert.GreaterOrEqual(t, got, uint64(64<<20))
}

// allocPerByte bounds what loading a file at the size limit allocates, per
// byte of the file. A case that fails the schema is checked against every
// scenario's fragment, so the worst shape (an unknown key in every case)
// grows with the scenarios: 29 times its size with six, 32 with eight.
const allocPerByte = 40

// TestSixteenMiBOfAnyShape loads files at the size limit made of the
// shapes that used to crash deskcheck or take it minutes: each must come
// back in a few seconds, in memory bounded by a small multiple of its
// size (all it allocates, which bounds the most it holds at once), with
// at most Diagnostics problems listed and the rest counted.
//
// The allocation bound is not checked under the race detector, whose
// instrumentation changes what is allocated (a valid desk at the limit:
// 731 MiB under it, 302 MiB without); .ci/run checks it in a plain pass.
func TestSixteenMiBOfAnyShape(t *testing.T) {
	if testing.Short() {
		t.Skip("16 MiB files")
	}
	valid := gen.Desk(0, 0, 11_000)
	tests := []struct {
		reason string
		data   []byte
		want   string // in a diagnostic; "" for none
		more   bool   // problems beyond the cap are counted
	}{
		{"opening brackets only: no stack overflow, the nesting is named", fill("", "[", "", sixteenMiB), "nesting deeper than 64 levels", false},
		{"nested objects, never closed", fill("", `{"a":`, "", sixteenMiB), "nesting deeper than 64 levels", false},
		{"nested objects, closed", []byte(strings.Repeat(`{"a":`, sixteenMiB/6-1) + "1" + strings.Repeat("}", sixteenMiB/6-1)), "nesting deeper than 64 levels", false},
		{"millions of duplicate keys: linear, capped", fill(`{"a":1`, `,"a":1`, "}", sixteenMiB), `duplicate key "a"`, true},
		{"millions of numbers out of range: linear, capped", fill(`{"a":[1`, `,1e400`, "]}", sixteenMiB), "number 1e400 is out of range", true},
		{"one string of escapes, measured decoded", fill(`{"title":"`, `\u0041`, `"}`, sixteenMiB), "the length of a string is 2796200, over the limit of 65536", false},
		{"sixteen million lines", fill("", "\n", "{", sixteenMiB), "malformed JSON: unexpected end of JSON input", false},
		{"a valid object of a million keys", []byte(`{"sources":{` + keys(1_150_000) + `}}`), `missing required key`, false},
		{"a valid desk at the size limit", valid, "", false},
		{"an unknown key in every case: capped", []byte(strings.ReplaceAll(string(valid), `"scenario":`, `"bogus":1,"scenario":`)), `unknown key "bogus"`, true},
	}
	// The bound is on the processor time the load takes (the machine's
	// other work does not count), with wall time only guarding against a
	// hang: a 2-core machine shared with other builds makes wall time
	// wander.
	budget, hang := 6*time.Second, 60*time.Second
	if raceEnabled {
		budget, hang = 90*time.Second, 300*time.Second
	}
	for _, tt := range tests {
		require.LessOrEqual(t, len(tt.data), sixteenMiB, tt.reason)
		var ds Diagnostics
		var took, cpu time.Duration
		allocated := heapAllocated(func() {
			start, cpu0 := time.Now(), cpuTime()
			_, ds = LoadAll(testReg, []Input{{Path: "big.json", Data: tt.data}}, Limits{})
			took, cpu = time.Since(start), cpuTime()-cpu0
		})
		t.Logf("%s: %d bytes, %v (%v of processor time), %d MiB allocated, %d diagnostics", tt.reason, len(tt.data), took.Round(time.Millisecond), cpu.Round(time.Millisecond), allocated>>20, len(ds))
		assert.Less(t, cpu, budget, tt.reason)
		assert.Less(t, took, hang, tt.reason)
		if !raceEnabled {
			assert.Less(t, allocated, uint64(allocPerByte*len(tt.data)), "%s: memory bounded by the file size", tt.reason)
		}
		assert.LessOrEqual(t, len(ds), DefaultLimits.Diagnostics+2, tt.reason) // and the count of the rest, and the checks skipped
		if tt.want == "" {
			assert.False(t, ds.HasErrors(), "%s: %v", tt.reason, ds)
			continue
		}
		require.NotEmpty(t, ds, tt.reason)
		assert.Contains(t, strings.Join(diagStrings(ds), "\n"), tt.want, tt.reason)
		last := ds[len(ds)-1]
		if tt.more {
			assert.Regexp(t, `^… and [0-9,]+ more$`, last.Summary, tt.reason)
		}
	}
}

func keys(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":"v"`, i)
	}
	return b.String()
}
