package omp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReleasesAndGroups(t *testing.T) {
	want := map[Group][]string{
		G0: {"13.19.0", "14.9.9"},
		G1: {"17.2.15", "17.3.5"},
		G2: {"18.1.16", "18.1.17", "18.1.20", "18.1.21", "18.2.0"},
		G3: {"18.2.3", "18.2.9", "18.3.4"},
	}
	total := 0
	for _, g := range Groups() {
		var got []string
		for _, v := range g.Releases() {
			got = append(got, v.String())
			gg, ok := GroupOf(v)
			require.True(t, ok)
			assert.Equal(t, g, gg, "%s", v)
		}
		assert.Equal(t, want[g], got, "%s", g)
		total += len(got)
	}
	assert.Len(t, Releases(), total)
	assert.Equal(t, "18.3.4", Newest().String())
	for i := 1; i < len(Releases()); i++ {
		assert.Equal(t, -1, Releases()[i-1].Compare(Releases()[i]), "releases are oldest first")
	}
	g, ok := GroupOf(Version{})
	assert.True(t, ok)
	assert.Equal(t, G2, g, "the zero Version is Reference")
	assert.Equal(t, "@oh-my-pi/pi-coding-agent@"+Reference.String(), Release)
	assert.Equal(t, "18.1.16 … 18.2.0", G2.Range())
}

func TestLookup(t *testing.T) {
	tests := []struct {
		in      string
		group   Group
		problem string
	}{
		{"18.2.3", G3, ""},
		{"13.19.0", G0, ""},
		{"18.1.18", 0, "omp 18.1.18 is not a modelled release; modelled releases: 13.19.0, 14.9.9, 17.2.15"},
		{"18.1", 0, `version "18.1" is not MAJOR.MINOR.PATCH`},
		{"v18.1.16", 0, "not MAJOR.MINOR.PATCH"},
		{"18.01.16", 0, "no leading zeros"},
		{"", 0, "not MAJOR.MINOR.PATCH"},
	}
	for _, tt := range tests {
		v, g, err := Lookup(tt.in)
		if tt.problem != "" {
			require.Error(t, err, tt.in)
			assert.Contains(t, err.Error(), tt.problem)
			assert.Contains(t, err.Error(), "18.3.4", "the error lists the modelled releases")
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tt.in, v.String())
		assert.Equal(t, tt.group, g)
	}
}

// TestGroupBehaviour runs one call per row on one release of each group,
// where the groups differ (spec §1).
func TestGroupBehaviour(t *testing.T) {
	seedDeny := `Tool "seed_note" is blocked by user policy.` + "\n" + `To allow: remove "tools.approval.seed_note: deny" from config.`
	tests := []struct {
		name     string
		approval any
		mode     string
		user     any
		revise   any
		// per group: the error ("" for none) and the executions
		err   [4]string
		execs [4]int
	}{
		{"an unknown mode auto-approves every tier from 18.2.3", "exec", "YOLO", nil, nil,
			[4]string{"", noUIText, noUIText, ""}, [4]int{1, 0, 0, 1}},
		{"a known mode behaves alike from 17.x", "write", ModeWrite, nil, nil,
			[4]string{"", "", "", ""}, [4]int{1, 1, 1, 1}},
		{"a tool deny: no gate, user text, tool text, tool text", map[string]any{"policy": "deny", "reason": "r"}, ModeYolo, nil, nil,
			[4]string{"", seedDeny, "Tool \"seed_note\" is blocked by tool policy.\nReason: r", "Tool \"seed_note\" is blocked by tool policy.\nReason: r"}, [4]int{1, 0, 0, 0}},
		{"a tool deny under a policyKey names the key before 18.1.16", map[string]any{"policy": "deny", "policyKey": "k"}, ModeYolo, nil, nil,
			[4]string{"", `Tool "k" is blocked by user policy.` + "\n" + `To allow: remove "tools.approval.k: deny" from config.`, `Tool "seed_note" is blocked by tool policy.`, `Tool "seed_note" is blocked by tool policy.`}, [4]int{1, 0, 0, 0}},
		{"a user deny has the user text on every gated release", "read", ModeYolo, map[string]any{"seed_note": "deny"}, nil,
			[4]string{"", seedDeny, seedDeny, seedDeny}, [4]int{1, 0, 0, 0}},
		{"an array's index 0 is an own key before 18.2.3", "read", ModeYolo, []any{"deny"}, nil,
			[4]string{"", "", "", ""}, [4]int{1, 1, 1, 1}},
		{"a string policy map holds no policy", "read", ModeYolo, "deny", nil,
			[4]string{"", "", "", ""}, [4]int{1, 1, 1, 1}},
	}
	reps := map[Group]Version{G0: {14, 9, 9}, G1: {17, 3, 5}, G2: {18, 2, 0}, G3: {18, 3, 4}}
	for _, tt := range tests {
		for _, g := range Groups() {
			f := newFixture(tt.approval, nil, tt.revise)
			f.runner.SetUI(nil)
			f.w.Release = reps[g]
			_, err := f.w.Execute(context.Background(), "c1", map[string]any{"a": 1}, &CallContext{Settings: &Settings{ApprovalMode: tt.mode, Approval: tt.user}})
			if tt.err[g] == "" {
				assert.NoError(t, err, "%s on %s", tt.name, g)
			} else if assert.Error(t, err, "%s on %s", tt.name, g) {
				assert.Equal(t, tt.err[g], err.Error(), "%s on %s", tt.name, g)
			}
			assert.Equal(t, tt.execs[g], f.count("execute"), "%s on %s", tt.name, g)
		}
	}
}

// TestPolicyMapShapes: a tool named "0" or "length" finds an own property
// in an array or a string policy map before 18.2.3, and nothing from then
// on (a non-object reads as {}).
func TestPolicyMapShapes(t *testing.T) {
	tests := []struct {
		tool    string
		user    any
		g2, g3  string // "run", "deny", "prompt" (no UI: throws)
		comment string
	}{
		{"0", []any{"deny"}, "deny", "run", "arr[0] is deny"},
		{"1", []any{"deny"}, "run", "run", "no index 1"},
		{"0", []any{"prompt"}, "prompt", "run", "arr[0] is prompt"},
		{"length", []any{}, "run", "run", "length is an own key whose value is no policy"},
		{"0", "deny", "run", "run", "a one-unit string is no policy"},
		{"0", 5.0, "run", "run", "a number has no own keys"},
		{"0", nil, "run", "run", "null is {}"},
		{"0", map[string]any{"0": "deny"}, "deny", "deny", "an object is read as it is"},
	}
	for _, tt := range tests {
		for _, rel := range []Version{{18, 1, 16}, {18, 2, 3}} {
			f := newFixture("read", nil, nil)
			f.w.Tool.Name = tt.tool
			f.runner.SetUI(nil)
			f.w.Release = rel
			_, err := f.w.Execute(context.Background(), "c1", map[string]any{}, &CallContext{Settings: &Settings{ApprovalMode: ModeYolo, Approval: tt.user}})
			want := tt.g2
			if rel.Minor == 2 {
				want = tt.g3
			}
			switch want {
			case "run":
				assert.NoError(t, err, "%v on %s: %s", tt.user, rel, tt.comment)
			case "deny":
				if assert.Error(t, err) {
					assert.Contains(t, err.Error(), "blocked by user policy", "%v on %s", tt.user, rel)
				}
			case "prompt":
				if assert.Error(t, err) {
					assert.Contains(t, err.Error(), "requires approval", "%v on %s", tt.user, rel)
				}
			}
		}
	}
	p := readPolicies("a\U0001F600", G2)
	v, ok := p.get("length")
	assert.True(t, ok)
	assert.Equal(t, 3.0, v, "length counts UTF-16 code units")
	_, ok = p.get("2")
	assert.True(t, ok)
	_, ok = p.get("3")
	assert.False(t, ok)
	_, ok = p.get("01")
	assert.False(t, ok, "not a canonical index")
	assert.Equal(t, 1, jsLength("\xed\xa0\x80"), "a lone surrogate in WTF-8 is one unit")
}

// TestUngatedReleases: 13.x and 14.x run every call after tool_call, with
// the original input, and a block still refuses.
func TestUngatedReleases(t *testing.T) {
	f := newFixture(map[string]any{"policy": "deny"}, nil, map[string]any{"revised": true})
	f.w.Release = Version{13, 19, 0}
	_, err := f.w.Execute(context.Background(), "c1", map[string]any{"a": 1}, settings(ModeAlwaysAsk, map[string]any{"seed_note": "deny"}))
	require.NoError(t, err)
	assert.Equal(t, []string{"tool_call", "execute"}, f.log.events)
	assert.Equal(t, []any{map[string]any{"a": 1}}, f.exec.inputs, "the revision is ignored")

	runner := NewRunner()
	runner.OnToolCall(ToolCallHandler{Extension: "x", Handle: func(context.Context, ToolCallEvent) (*ToolCallResult, error) {
		return &ToolCallResult{Block: true}, nil
	}})
	exec := &countExec{log: &log{}}
	w := &Wrapper{Tool: Tool{Name: "t"}, Exec: exec, Runner: runner, Release: Version{14, 9, 9}}
	_, err = w.Execute(context.Background(), "c1", map[string]any{}, nil)
	require.EqualError(t, err, "Tool execution was blocked by an extension")
	assert.Empty(t, exec.inputs)
}

// TestMissingContext: from 18.2.3 a call without settings fails closed.
func TestMissingContext(t *testing.T) {
	for _, tt := range []struct {
		rel  Version
		runs bool
	}{{Version{18, 2, 0}, true}, {Version{18, 2, 3}, false}} {
		f := newFixture("exec", nil, nil)
		f.runner.SetUI(nil)
		f.w.Release = tt.rel
		_, err := f.w.Execute(context.Background(), "c1", map[string]any{}, nil)
		assert.Equal(t, tt.runs, err == nil, "%s: %v", tt.rel, err)
		f = newFixture("exec", nil, nil)
		f.w.Release = tt.rel
		_, err = f.w.Execute(context.Background(), "c1", map[string]any{}, &CallContext{AutoApprove: true})
		assert.NoError(t, err, "%s: autoApprove is yolo", tt.rel)
	}
}
