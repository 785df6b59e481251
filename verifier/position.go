package verifier

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"
)

// position maps byte offsets of one file to 1-based lines and columns.
// Columns count characters (runes) from the start of the line.
//
// It keeps no index of the file: it counts from the last offset it
// answered, so offsets asked in increasing order (as diagnostics are) cost
// one pass over the file in all, whatever its shape — 16 MiB on one line
// or 16 million empty lines.
type position struct {
	data string

	mu sync.Mutex
	// The last answer: off lies on line, which starts at lineStart, and
	// has column col.
	off, line, lineStart, col int
}

func newPosition(data string) *position {
	return &position{data: data, line: 1, col: 1}
}

// at returns the line and column of byte offset off.
func (p *position) at(off int) (line, col int) {
	off = min(max(off, 0), len(p.data))
	p.mu.Lock()
	defer p.mu.Unlock()
	if off < p.off {
		if off >= p.lineStart {
			// Back on the same line: count from its start.
			p.off, p.col = p.lineStart, 1
		} else {
			p.off, p.line, p.lineStart, p.col = 0, 1, 0, 1
		}
	}
	seg := p.data[p.off:off]
	if n := strings.Count(seg, "\n"); n > 0 {
		last := strings.LastIndexByte(seg, '\n')
		p.line += n
		p.lineStart = p.off + last + 1
		p.col = 1 + utf8.RuneCountInString(p.data[p.lineStart:off])
	} else {
		p.col += utf8.RuneCountInString(seg)
	}
	p.off = off
	return p.line, p.col
}

// bomPrefix is the UTF-8 byte-order mark.
var bomPrefix = []byte{0xEF, 0xBB, 0xBF}

func hasBOM(b []byte) bool { return bytes.HasPrefix(b, bomPrefix) }
