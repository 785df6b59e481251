package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHTMLMarksAMismatchInsideAList: a case failing on reasons[1] and
// reasons[3] marks its reasons row, and "What failed" (and the Markdown
// summary) count it once under reasons, not once per index.
func TestHTMLMarksAMismatchInsideAList(t *testing.T) {
	r := Build(suiteOf(t, "testdata/list-mutated.json"), fixedOrigin)
	var buf bytes.Buffer
	require.NoError(t, HTML{}.Write(&buf, r))
	page := buf.String()
	assert.Equal(t, 1, strings.Count(page, `<tr class="mismatch">`))
	assert.Contains(t, page, `<tr class="mismatch"><td>reasons</td><td>exact sequence</td>`)
	assert.Contains(t, page, `<code>reasons</code> mismatched in 1 case`)
	assert.NotContains(t, page, `<code>reasons[1]</code> mismatched`)

	buf.Reset()
	require.NoError(t, Markdown{}.Write(&buf, r))
	assert.Equal(t, 1, strings.Count(buf.String(), "</code> mismatched"), "one group, reasons")
	assert.Contains(t, buf.String(), "<code>reasons</code> mismatched")
}

// TestMismatchKey: the key a mismatch's field lies in.
func TestMismatchKey(t *testing.T) {
	c := &Case{Comparisons: map[string]string{"reasons": "exact sequence", "declared": "the keys written", "a.b": "exact"}}
	for field, want := range map[string]string{
		"reasons": "reasons", "reasons[12]": "reasons", "declared.tier": "declared", "a.b": "a.b", "a.b[0]": "a.b", "other[1]": "other[1]",
	} {
		assert.Equal(t, want, mismatchKey(c, field), field)
	}
}

// TestEveryFailureCardMarksARow: on the page of 100 files and 5,000
// failures, every failure card marks the row of what failed.
func TestEveryFailureCardMarksARow(t *testing.T) {
	r := scaleReport(t, 100, 1000, 50)
	var buf bytes.Buffer
	require.NoError(t, HTML{}.Write(&buf, r))
	page := buf.String()
	cards := strings.Split(page, `<section class="card fail"`)[1:]
	require.NotEmpty(t, cards)
	unmarked := 0
	for _, c := range cards {
		if end := strings.Index(c, "</section>"); end >= 0 {
			c = c[:end]
		}
		if !strings.Contains(c, `<tr class="mismatch">`) {
			unmarked++
		}
	}
	assert.Zero(t, unmarked, "of %d failure cards", len(cards))
}
