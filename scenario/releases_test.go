package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSelectReleases(t *testing.T) {
	h := Host{Name: "numbered", Releases: []Release{
		{Version: "13.19.0", Group: "G0"}, {Version: "17.3.5", Group: "G1"}, {Version: "18.1.16", Group: "G2"},
		{Version: "18.2.0", Group: "G2"}, {Version: "18.2.3", Group: "G3"}, {Version: "18.3.4", Group: "G3"},
	}}
	tests := []struct {
		expr    string
		want    []string
		problem string
	}{
		{"*", []string{"13.19.0", "17.3.5", "18.1.16", "18.2.0", "18.2.3", "18.3.4"}, ""},
		{">=18.1.16", []string{"18.1.16", "18.2.0", "18.2.3", "18.3.4"}, ""},
		{">=18.1.16 <18.2.3", []string{"18.1.16", "18.2.0"}, ""},
		{"  >17.3.5   <=18.1.16 ", []string{"18.1.16"}, ""},
		{"18.2.0", []string{"18.2.0"}, ""},
		{"=18.2.0", []string{"18.2.0"}, ""},
		{"<17.0.0", []string{"13.19.0"}, ""},
		{"* >=18.2.3", []string{"18.2.3", "18.3.4"}, ""},
		{"18.1.17", nil, `release range "18.1.17" selects no modelled release (modelled numbered releases: 13.19.0, 17.3.5`},
		{">=18.3.5", nil, "selects no modelled release"},
		{">=18.2.3 <18.2.0", nil, "selects no modelled release"},
		{">=18.1", nil, `">=18.1" is not a comparator`},
		{"^18.1.16", nil, `"^18.1.16" is not a comparator`},
		{"~18.1.16", nil, "is not a comparator"},
		{"18.1.16 || 18.2.0", nil, `"||" is not a comparator`},
		{"", nil, "empty release range"},
		{">= 18.1.16", nil, `">=" is not a comparator`},
	}
	for _, tt := range tests {
		got, err := h.SelectReleases(tt.expr)
		if tt.problem != "" {
			require.Error(t, err, tt.expr)
			assert.Contains(t, err.Error(), tt.problem, tt.expr)
			assert.Contains(t, err.Error(), "18.3.4", "%s: the error lists the modelled releases", tt.expr)
			continue
		}
		require.NoError(t, err, tt.expr)
		var names []string
		for _, r := range got {
			names = append(names, r.Version)
		}
		assert.Equal(t, tt.want, names, tt.expr)
	}
	_, err := Host{Name: "unversioned"}.SelectReleases("*")
	assert.EqualError(t, err, "host unversioned models no releases")
	r, ok := h.Newest()
	assert.True(t, ok)
	assert.Equal(t, "18.3.4", r.Version)
	assert.Equal(t, "numbered 17.3.5 has no retrying writer", h.NotApplicable(Release{Version: "17.3.5", Lacks: map[string]string{"file-write": "has no retrying writer"}}, "file-write"))
	assert.Equal(t, "", h.NotApplicable(Release{Version: "18.3.4"}, "file-write"))
}

func TestCompareVersions(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"0.9.0", "0.10.0", -1}, {"0.10.0", "0.9.0", 1}, {"1.2.3", "1.2.3", 0},
		{"x", "0.1.0", -1}, {"0.1.0", "x", 1}, {"a", "b", -1}, {"1.2", "1.2.0", -1},
	} {
		assert.Equal(t, tc.want, CompareVersions(tc.a, tc.b), "%s vs %s", tc.a, tc.b)
	}
}

// TestSelectNamedReleases: a host whose releases are programs
// (NAME@VERSION) takes a list of names, any of which selects.
func TestSelectNamedReleases(t *testing.T) {
	h := Host{Name: "programs", Releases: []Release{
		{Version: "vanilla@0.1.0", Group: "vanilla"}, {Version: "langgraph@1.2.11", Group: "langgraph"}, {Version: "openai-agents@0.22.0", Group: "openai-agents"},
	}}
	all := []string{"vanilla@0.1.0", "langgraph@1.2.11", "openai-agents@0.22.0"}
	tests := []struct {
		expr    string
		want    []string
		problem string
	}{
		{"*", all, ""},
		{"langgraph", []string{"langgraph@1.2.11"}, ""},
		{"langgraph@1.2.11", []string{"langgraph@1.2.11"}, ""},
		{"openai-agents  vanilla", []string{"vanilla@0.1.0", "openai-agents@0.22.0"}, ""},
		{"vanilla vanilla@0.1.0", []string{"vanilla@0.1.0"}, ""},
		{"vanilla *", all, ""},
		{"langraph", nil, `"langraph" names no modelled programs release (modelled programs releases: vanilla@0.1.0, langgraph@1.2.11, openai-agents@0.22.0); did you mean "langgraph"?`},
		{"langgraph@1.3.0", nil, `"langgraph@1.3.0" is not modelled: langgraph models langgraph@1.2.11`},
		{"langgraph@", nil, `"langgraph@" is not modelled`},
		{">=0.1.0", nil, `">=0.1.0" names no modelled programs release`},
		{"", nil, "empty release range"},
	}
	for _, tt := range tests {
		got, err := h.SelectReleases(tt.expr)
		if tt.problem != "" {
			require.Error(t, err, tt.expr)
			assert.Contains(t, err.Error(), tt.problem, tt.expr)
			continue
		}
		require.NoError(t, err, tt.expr)
		var names []string
		for _, r := range got {
			names = append(names, r.Version)
		}
		assert.Equal(t, tt.want, names, tt.expr)
	}
	assert.True(t, h.Named())
	assert.Len(t, h.Default(), 3, "a named host's cases are judged on every program by default")
	r, ok := h.Release("openai-agents")
	assert.True(t, ok)
	assert.Equal(t, "openai-agents@0.22.0", r.Version)
	_, ok = h.Release("0.22.0")
	assert.False(t, ok)

	versions := Host{Name: "numbered", Releases: []Release{{Version: "18.2.3"}, {Version: "18.3.4"}}}
	assert.False(t, versions.Named())
	assert.Equal(t, []Release{{Version: "18.3.4"}}, versions.Default(), "a versioned host's default is its newest")
	assert.Nil(t, Host{Name: "unversioned"}.Default())
}
