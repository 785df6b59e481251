package verifier

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// position maps byte offsets of one file to 1-based lines and columns.
// Columns count characters (runes) from the start of the line.
type position struct {
	data       string
	lineStarts []int
}

func newPosition(data string) *position {
	p := &position{data: data, lineStarts: []int{0}}
	for i := 0; i < len(data); i++ {
		if data[i] == '\n' {
			p.lineStarts = append(p.lineStarts, i+1)
		}
	}
	return p
}

// at returns the line and column of byte offset off.
func (p *position) at(off int) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > len(p.data) {
		off = len(p.data)
	}
	lo, hi := 0, len(p.lineStarts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if p.lineStarts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	start := p.lineStarts[lo]
	return lo + 1, utf8.RuneCountInString(p.data[start:off]) + 1
}

// pointerToken escapes one JSON pointer reference token.
func pointerToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// bomPrefix is the UTF-8 byte-order mark.
var bomPrefix = []byte{0xEF, 0xBB, 0xBF}

func hasBOM(b []byte) bool { return bytes.HasPrefix(b, bomPrefix) }
