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
func risingKeys(n int, more string) string { return keysObject(n, false, more) }

// fallingKeys is risingKeys with the keys falling.
func fallingKeys(n int, more string) string { return keysObject(n, true, more) }

func keysObject(n int, falling bool, more string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		j := i
		if falling {
			j = n - 1 - i
		}
		fmt.Fprintf(&b, `"k%07d":%d`, j, j)
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
		fallingKeys(300, ""),
		fallingKeys(300, `,"k0000150":1,"k0000000":2,"z":3,"z":4`),
		fallingKeys(20, `,"\u006b0000005":1`),
		risingKeys(100, `,"a":1`+strings.Repeat(`,"b":2`, 3)+`,"k0000099":3`),
	} {
		scanAgrees(t, []byte(doc))
	}
}

// TestScanManyKeysIsSmall: an object of 300,000 keys, ten bytes of text
// each, is checked in about the offset of each when they rise, and in a
// few slots of eight bytes each when they do not (a map entry per key
// took some 40 bytes of each, 5 times the text in all).
func TestScanManyKeysIsSmall(t *testing.T) {
	for _, tc := range []struct {
		name  string
		doc   string
		times int
	}{
		{"rising", risingKeys(300000, ""), 2},
		{"falling", fallingKeys(300000, ""), 3},
	} {
		doc := []byte(tc.doc)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ds := Scan("x.json", doc, Limits{})
		runtime.ReadMemStats(&after)
		assert.False(t, ds.HasErrors())
		allocated := after.TotalAlloc - before.TotalAlloc
		assert.Less(t, allocated, uint64(tc.times*len(doc)), "%s: checked in %d bytes for %d of text", tc.name, allocated, len(doc))
	}
}
