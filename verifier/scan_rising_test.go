package verifier

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// risingKeys is an object of n members whose keys rise ("k0000000",
// "k0000001", …), then the members of more, as written.
func risingKeys(n int, more string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%07d":%d`, i, i)
	}
	b.WriteString(more + "}")
	return b.String()
}

// TestScanRisingKeys: an object whose keys rise is checked for repeats
// from the offsets of its keys, and the set of its keys made at the first
// that does not rise: the same problems are found as by the reference
// walk — a repeat of an early key after many rising ones, a key that
// falls but repeats none, an escaped repeat, the same in a nested object.
func TestScanRisingKeys(t *testing.T) {
	for _, doc := range []string{
		risingKeys(40, ""),
		risingKeys(40, `,"k0000003":"again"`),
		risingKeys(40, `,"a":1,"k0000039":2`),
		risingKeys(40, `,"\u006b0000005":1`),
		risingKeys(40, `,"l":`+risingKeys(20, `,"k0000000":1`)+`,"k0000001":0`),
		risingKeys(10, `,"k0000003":1`),
		`{"x":` + risingKeys(30, "") + `,"y":` + risingKeys(30, `,"k0000029":1`) + `}`,
	} {
		scanAgrees(t, []byte(doc))
	}
}

// TestScanRisingKeysIsSmall: an object of 300,000 rising keys, ten bytes
// of text each, is checked in about the offset of each (a map entry per
// key took some 40 bytes of each).
func TestScanRisingKeysIsSmall(t *testing.T) {
	doc := []byte(risingKeys(300000, ""))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ds := Scan("x.json", doc, Limits{})
	runtime.ReadMemStats(&after)
	assert.False(t, ds.HasErrors())
	allocated := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, allocated, uint64(2*len(doc)), "checked in %d bytes for %d of text", allocated, len(doc))
}
