package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/verifier"
)

// TestLineCursorFindsEachLineStart: asked offsets in rising order (as the
// cases of a desk are taken), out of order, and on another desk, the
// cursor gives the start of each offset's line.
func TestLineCursorFindsEachLineStart(t *testing.T) {
	desk := func(text string) *verifier.Desk {
		d, ds := verifier.Load(all.Registry(), "d.json", []byte(text), verifier.Limits{})
		if d == nil {
			// Any desk holds its text; a broken one is not returned, so
			// the text is made of a valid desk's padded with spaces.
			t.Fatal(ds)
		}
		return d
	}
	base, err := os.ReadFile("../../cases/boundary-desk.json")
	require.NoError(t, err)
	oneLine := strings.ReplaceAll(string(base), "\n", " ")
	for _, text := range []string{string(base), oneLine, strings.ReplaceAll(string(base), "\n", "\r\n")} {
		d := desk(text)
		want := func(at int) int { return strings.LastIndexByte(text[:at], '\n') + 1 }
		var l lineCursor
		r := rand.New(rand.NewPCG(1, 2))
		at := 0
		for range 200 {
			at = min(len(text), at+r.IntN(len(text)/100+1))
			require.Equal(t, want(at), l.lineStart(d, at), "rising, at %d", at)
		}
		for range 200 {
			at := r.IntN(len(text) + 1)
			require.Equal(t, want(at), l.lineStart(d, at), "at random, at %d", at)
		}
		other := desk(text + "\n")
		require.Equal(t, want(len(text)/2), l.lineStart(other, len(text)/2), "another desk")
	}
}

// TestObserveWriteNamesABoundedList: when a rewrite is refused, the
// message names the first ten cases and counts the rest.
func TestObserveWriteNamesABoundedList(t *testing.T) {
	var es []edit
	for i := range 12 {
		es = append(es, edit{id: fmt.Sprintf("d/c%d", i)})
	}
	assert.Equal(t, "d/c0, d/c1, d/c2, d/c3, d/c4, d/c5, d/c6, d/c7, d/c8, d/c9 and 2 more", editIDs(es))
	assert.Equal(t, "d/c0, d/c1", editIDs(es[:2]))
	assert.Equal(t, "d/c0, d/c1, d/c2, d/c3, d/c4, d/c5, d/c6, d/c7, d/c8, d/c9", editIDs(es[:10]))
}

// TestObserveWriteOnOneLine: a desk written on one line has its blocks
// rewritten on that line, one-line blocks as its own, and then passes.
func TestObserveWriteOnOneLine(t *testing.T) {
	t.Setenv("CI", "")
	broken, runs, _ := twoBroken(t)
	flat := filepath.Join(t.TempDir(), "flat.json")
	text := strings.ReplaceAll(string(broken), "\n", " ")
	require.NoError(t, os.WriteFile(flat, []byte(text), 0o600))
	run := strings.Join(runs[:], "|")
	code, _, _ := runCLI(t, "verify", "-out", "none", "-run", run, flat)
	require.Equal(t, 1, code, "the two cases fail")
	code, out, errOut := runCLI(t, "observe", "-w", "-run", run, flat)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "rewrote the expected blocks of 2 cases")
	got, err := os.ReadFile(flat)
	require.NoError(t, err)
	assert.NotEqual(t, text, string(got), "the blocks were rewritten")
	assert.NotContains(t, string(got), "\n", "on the one line")
	code, _, errOut = runCLI(t, "verify", "-out", "none", "-run", run, flat)
	assert.Equal(t, 0, code, errOut)
}
