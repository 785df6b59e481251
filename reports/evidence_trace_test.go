package reports

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlainTrace: the trace check that spares the schema validator a long
// trace accepts only what the schema accepts, and says so for the plain
// traces deskcheck writes.
func TestPlainTrace(t *testing.T) {
	caseSchema := wholeCaseSchema(t)
	first := reportCase(t, "testdata/boundary.json", 0)
	ts, te, ok := memberSpan(first, "trace")
	require.True(t, ok)
	with := func(trace string) []byte {
		return []byte(string(first[:ts]) + trace + string(first[te:]))
	}
	for _, tc := range []struct {
		trace string
		plain bool
	}{
		{`[]`, true},
		{` [ ] `, true},
		{`[{"seq":1,"kind":"resolve","text":"allow"}]`, true},
		{`[{"text":"a \"quoted\" \u00e9 text","kind":"k","seq":0} , {"seq":12,"kind":"","text":""}]`, true},
		{`[{"seq":1,"kind":"k"}]`, false},
		{`[{"seq":1,"kind":"k","text":"t","more":1}]`, false},
		{`[{"seq":1,"kind":"k","text":"t","seq":2}]`, false},
		{`[{"s\u0065q":1,"kind":"k","text":"t"}]`, false},
		{`[{"seq":-1,"kind":"k","text":"t"}]`, false},
		{`[{"seq":1.0,"kind":"k","text":"t"}]`, false},
		{`[{"seq":1e2,"kind":"k","text":"t"}]`, false},
		{`[{"seq":01,"kind":"k","text":"t"}]`, false},
		{`[{"seq":"1","kind":"k","text":"t"}]`, false},
		{`[{"seq":1,"kind":null,"text":"t"}]`, false},
		{`[{"seq":1,"kind":"k","text":["t"]}]`, false},
		{`[[]]`, false},
		{`{}`, false},
		{`[{"seq":1,"kind":"k","text":"t"},]`, false},
	} {
		got := plainTrace([]byte(tc.trace))
		assert.Equal(t, tc.plain, got, tc.trace)
		if got {
			problems, err := caseSchema.Validate(with(tc.trace))
			require.NoError(t, err)
			assert.Empty(t, problems, "the schema accepts what plainTrace accepts: %s", tc.trace)
		}
	}
	long := "[" + strings.TrimSuffix(strings.Repeat(`{"seq":3,"kind":"resolve","text":"resolve: allow"},`, 5000), ",") + "]"
	require.Greater(t, len(long), traceSplit)
	lean := leanCase(with(long))
	assert.NotContains(t, string(lean), "resolve: allow", "a long plain trace is checked on its own")
	problems, err := caseSchema.Validate(lean)
	require.NoError(t, err)
	assert.Empty(t, problems)
	bad := strings.Replace(long, `"seq":3`, `"seq":-3`, 1)
	assert.Equal(t, string(with(bad)), string(leanCase(with(bad))), "one that is not plain goes to the schema whole")
}

// TestLeanCaseObjects: a large given, expected or observed object is
// left out of what the schema sees, as an empty object; anything else of
// those keys (an array, a string) is the schema's to refuse.
func TestLeanCaseObjects(t *testing.T) {
	caseSchema := wholeCaseSchema(t)
	c := reportCase(t, "testdata/boundary.json", 0)
	big := `{"records": [` + strings.TrimSuffix(strings.Repeat(`{},`, 40000), ",") + `]}`
	set := func(c []byte, key, v string) []byte {
		s, e, ok := memberSpan(c, key)
		require.True(t, ok, key)
		return []byte(string(c[:s]) + v + string(c[e:]))
	}
	whole := set(set(set(c, "observed", big), "given", big), "expected", big)
	lean := leanCase(whole)
	assert.Less(t, len(lean), len(c), "the three objects are left out")
	for _, key := range []string{"observed", "given", "expected"} {
		s, e, ok := memberSpan(lean, key)
		require.True(t, ok)
		assert.Equal(t, "{}", string(lean[s:e]), key)
	}
	problems, err := caseSchema.Validate(lean)
	require.NoError(t, err)
	assert.Empty(t, problems)
	notObject := set(c, "given", "["+strings.Repeat(`1,`, 40000)+"1]")
	assert.Equal(t, string(notObject), string(leanCase(notObject)), "an array where an object belongs goes to the schema")
	problems, err = caseSchema.Validate(leanCase(notObject))
	require.NoError(t, err)
	assert.NotEmpty(t, problems)
}
