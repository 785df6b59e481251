package geminicheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

func TestRangedLint(t *testing.T) {
	untrusted := `{"tool":"run_shell_command","args":{"command":"git status"},"trustedFolder":false}`
	trusted := `{"tool":"run_shell_command","args":{"command":"git status"},"trustedFolder":true}`
	unset := `{"tool":"run_shell_command","args":{"command":"git status"}}`
	for _, tc := range []struct {
		name  string
		given string
		expr  string
		want  map[string]string // warning name → pointer
		text  string
	}{
		{name: "untrusted on old releases", given: untrusted, expr: ">=0.40.0 <0.58.0",
			want: map[string]string{"trust-not-read": "/given/trustedFolder"}, text: "is not read by 6 gemini releases (0.40.0 … 0.55.0)"},
		{name: "untrusted on one old release", given: untrusted, expr: "0.50.0",
			want: map[string]string{"trust-not-read": "/given/trustedFolder"}, text: "is not read by gemini 0.50.0:"},
		{name: "untrusted on the releases that read it", given: untrusted, expr: ">=0.58.0", want: map[string]string{}},
		{name: "untrusted with no range: the newest", given: untrusted, expr: "", want: map[string]string{}},
		{name: "trusted on old releases", given: trusted, expr: ">=0.40.0", want: map[string]string{}},
		{name: "trust unset on old releases", given: unset, expr: ">=0.40.0", want: map[string]string{}},
		{name: "a range reaching below the oldest modelled", given: unset, expr: ">=0.35.0",
			want: map[string]string{"unmodelled-release": "/hosts/gemini"}, text: `the range ">=0.35.0" also covers gemini 0.35.0, 0.35.2, 0.35.3, 0.36.0, which`},
		{name: "every release", given: unset, expr: "*",
			want: map[string]string{"unmodelled-release": "/hosts/gemini"}, text: "also covers 65 gemini releases (0.1.4 … 0.36.0)"},
		{name: "one unmodelled release named", given: unset, expr: ">=0.36.0 <0.41.0",
			want: map[string]string{"unmodelled-release": "/hosts/gemini"}, text: "also covers gemini 0.36.0,"},
		{name: "a range of modelled releases only", given: unset, expr: ">=0.40.0", want: map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := decodeGiven([]byte(tc.given))
			require.NoError(t, err)
			var selected []scenario.Release
			if tc.expr == "" {
				n, _ := Family.Host.Newest()
				selected = []scenario.Release{n}
			} else {
				selected, _ = Family.Host.SelectReleases(tc.expr)
			}
			ps := ranged(g, tc.expr, selected)
			got := map[string]string{}
			for _, p := range ps {
				assert.True(t, p.Warning)
				got[p.Name] = p.Pointer
				if tc.text != "" {
					assert.Contains(t, p.Message, tc.text)
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
