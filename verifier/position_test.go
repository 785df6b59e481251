package verifier

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPosition(t *testing.T) {
	p := newPosition("ab\n\"é\"x\n")
	for _, tt := range []struct {
		off, line, col int
	}{{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {6, 2, 3}, {7, 2, 4}, {9, 3, 1}, {-5, 1, 1}, {100, 3, 1}} {
		line, col := p.at(tt.off)
		assert.Equal(t, [2]int{tt.line, tt.col}, [2]int{line, col}, "offset %d", tt.off)
	}
}

func TestIsWholeNumber(t *testing.T) {
	for raw, want := range map[string]bool{
		"0": true, "7": true, "10": true, "999999999999999": true,
		"": false, "1000000000000000": false, "01": false, "00": false, "-1": false, "-0": false,
		"1.0": false, "1e2": false, "2E0": false, "1 ": false,
	} {
		assert.Equal(t, want, isWholeNumber(raw), "%q", raw)
	}
}
