package omp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The decision order written as a table of rows is the decision order:
// with no mutation it resolves every combination of declaration, mode and
// user policy as resolveApproval does.
func TestResolveMutatedWithoutMutationIsTheModel(t *testing.T) {
	approvals := []any{nil, "read", "write", "exec", "Exec", 7,
		map[string]any{"policy": "allow"}, map[string]any{"policy": "deny", "reason": "r"}, map[string]any{"policy": "prompt"},
		map[string]any{"tier": "read", "override": true}, map[string]any{"tier": "write", "policy": "allow", "override": true},
		map[string]any{"tier": "read", "policy": "deny", "override": true}, map[string]any{"tier": "read", "policy": "prompt", "policyKey": "k"}}
	users := []map[string]any{nil, {"t": "allow"}, {"t": "deny"}, {"t": "prompt"}, {"t": "bogus"}, {"k": "allow"}, {"k": "deny", "t": "allow"}, {"k": 3, "t": "prompt"}}
	n := 0
	for _, ap := range approvals {
		for _, mode := range []string{"", ModeAlwaysAsk, ModeWrite, ModeYolo, "paranoid"} {
			for _, u := range users {
				tool := Tool{Name: "t", Approval: ap}
				want, err := resolveApproval(tool, nil, mode, objectPolicies(u), Faults{})
				require.NoError(t, err)
				got, err := resolveMutated(tool, nil, mode, objectPolicies(u), Mutation{})
				require.NoError(t, err)
				require.Equal(t, want, got, "approval %v, mode %q, user %v", ap, mode, u)
				n++
			}
		}
	}
	require.Equal(t, 13*5*8, n)
}

// Each kind of mutation changes the resolution of at least one input, and
// a cap moved for one mode leaves the others alone.
func TestMutationsChangeTheDecision(t *testing.T) {
	resolve := func(m Mutation, ap any, mode string) Resolution {
		r, err := resolveMutated(Tool{Name: "t", Approval: ap}, nil, mode, objectPolicies(map[string]any{"u": "deny"}), m)
		require.NoError(t, err)
		return r
	}
	require.Equal(t, PolicyAllow, resolve(Mutation{Kind: MutCap, Mode: ModeWrite, Delta: 1}, "exec", ModeWrite).Policy)
	require.Equal(t, PolicyPrompt, resolve(Mutation{Kind: MutCap, Mode: ModeWrite, Delta: 1}, "exec", ModeAlwaysAsk).Policy)
	require.Equal(t, PolicyAllow, resolve(Mutation{Kind: MutCap, Mode: ModeAlwaysAsk, Delta: 1}, "write", ModeAlwaysAsk).Policy)
	require.Equal(t, PolicyPrompt, resolve(Mutation{Kind: MutCap, Mode: ModeAlwaysAsk, Delta: -1}, "read", ModeAlwaysAsk).Policy)
	require.Equal(t, PolicyPrompt, resolve(Mutation{Kind: MutCapStrict}, "write", ModeWrite).Policy)
	require.Equal(t, PolicyAllow, resolve(Mutation{Kind: MutCapInverted}, "exec", ModeWrite).Policy)
	// Without row 1 a tool deny is still denied, by row 3 or 6: only the
	// override flag tells, and whose text a call with a user deny too shows.
	require.Equal(t, 3, resolve(Mutation{Kind: MutDropRow, Row: 1}, map[string]any{"policy": "deny"}, ModeYolo).Row)
	r, err := resolveMutated(Tool{Name: "t", Approval: map[string]any{"policy": "deny"}}, nil, ModeYolo, objectPolicies(map[string]any{"t": "deny"}), Mutation{Kind: MutDropRow, Row: 1})
	require.NoError(t, err)
	require.Equal(t, SourceUser, r.Source)
	require.Equal(t, PolicyAllow, resolve(Mutation{Kind: MutDropRow, Row: 9}, "exec", ModeAlwaysAsk).Policy)
	require.Equal(t, PolicyAllow, resolve(Mutation{Kind: MutSwapRows, Row: 3}, map[string]any{"policy": "prompt"}, ModeYolo).Policy)
}

// objectPolicies is a tools.approval object as the host reads it.
func objectPolicies(m map[string]any) policies { return policies{obj: m, kind: 'o'} }
