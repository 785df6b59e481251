package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// layoutProbe records, once the page is laid out, where the dimensions
// table's suite column is against the window and its scrolling box, and
// how many labels the desk bars and the coverage grids carry.
const layoutProbe = `<script>
(function () {
  var th = document.querySelector("table.dims thead th:last-child");
  var box = document.querySelector("section.boundary .wide").getBoundingClientRect();
  var r = th.getBoundingClientRect();
  var facts = {width: window.innerWidth, suite: th.textContent, left: r.left, right: r.right, boxLeft: box.left, boxRight: box.right,
    barLabels: document.querySelectorAll("#chart text.clbl").length,
    gridLabels: document.querySelectorAll("figure.grids svg text title").length,
    marked: Array.prototype.map.call(document.querySelectorAll("tr.mismatch td:first-child"), function (td) { return td.textContent; })};
  var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = JSON.stringify(facts); document.body.appendChild(pre);
})();
</script>
</body>`

// TestHTMLLayoutInChromium: at 1,400 pixels the suite column of the
// dimensions table is on screen, however many desk columns scroll beside
// it; every desk bar and every coverage-grid column is labelled; and the
// row of a list that mismatches inside is marked.
func TestHTMLLayoutInChromium(t *testing.T) {
	bin := browser(t)
	dir := t.TempDir()
	desks := append(slices.Clone(bundledDesks), "testdata/list-mutated.json")
	r := Build(suiteOf(t, desks...), fixedOrigin)
	var buf bytes.Buffer
	require.NoError(t, HTML{}.Write(&buf, r))
	page := filepath.Join(dir, "probed.html")
	require.NoError(t, os.WriteFile(page, []byte(strings.Replace(buf.String(), "</body>", layoutProbe, 1)), 0o600))
	out, _ := chrome(t, bin, dir, page, "--window-size=1400,900", "--dump-dom")
	f := readPage(t, string(out))
	var facts struct {
		Width                          float64
		Suite                          string
		Left, Right, BoxLeft, BoxRight float64
		BarLabels, GridLabels          int
		Marked                         []string
	}
	require.NoError(t, json.Unmarshal([]byte(f.text["probe"]), &facts), f.text["probe"])
	t.Logf("%+v", facts)
	assert.Equal(t, "suite", facts.Suite)
	assert.LessOrEqual(t, facts.Right, facts.Width, "the suite column is inside the window")
	assert.LessOrEqual(t, facts.Right, facts.BoxRight+1, "and inside the table's scrolling box")
	assert.GreaterOrEqual(t, facts.Left, facts.BoxLeft)
	assert.Equal(t, len(desks), facts.BarLabels, "one label per desk bar")
	assert.Greater(t, facts.GridLabels, 20, "the coverage grids' columns are labelled")
	assert.Equal(t, []string{"reasons"}, facts.Marked, "the reasons row of the case failing on reasons[1] is marked")
	if *keep != "" {
		screenshot(t, bin, dir, page, "layout.png", 1400, 900)
	}
}
