package gateway

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestActionRowsFollowTheTable: the decision table reads the action and
// principal tables through constant-based helpers; they must say what
// Actions and Principals say.
func TestActionRowsFollowTheTable(t *testing.T) {
	for _, a := range Actions() {
		row, ok := actionSpec(a.Name)
		assert.True(t, ok, a.Name)
		assert.Equal(t, a.Resources, row.resources(), a.Name)
		assert.Equal(t, quoteList(a.Resources), row.resourcesText(), a.Name)
		assert.Equal(t, strings.Join(a.Roles, " or "), row.rolesText(), a.Name)
		for _, p := range Principals() {
			want := false
			for _, r := range a.Roles {
				want = want || r == p.Role
			}
			assert.Equal(t, want, row.permits(p.Role), "%s may %s", p.Role, a.Name)
		}
	}
	for _, name := range []string{"", "Read", "read ", "fetch_url"} {
		_, ok := actionSpec(name)
		assert.False(t, ok, name)
	}
	for _, p := range Principals() {
		role, ok := RoleOf(p.Principal)
		assert.True(t, ok)
		assert.Equal(t, p.Role, role)
	}
	for res, raw := range DefaultRecords() {
		assert.Equal(t, defaultRecordsText(res), string(raw))
		_, ok := recordIndex(res)
		assert.True(t, ok, res)
	}
	for i, res := range RecordResources() {
		j, ok := recordIndex(res)
		assert.True(t, ok && i == j, res)
	}
}
