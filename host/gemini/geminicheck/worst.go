package geminicheck

import (
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// worstFiles and worstFileBytes shape the family's worst desk: three
// cases fill the file, each of worstFiles policy files just under the
// string limit.
const (
	worstFiles     = 88
	worstFileBytes = 60_000
)

// worst is the family's most expensive desk at the default limits: cases
// of 88 policy files of about 600 rules each, every rule with an
// argsPattern of its own, alternately in the user and admin tiers, and a
// shell command no rule matches, so that the engine tries every rule.
// What a case holds (its rules and their compiled patterns) grows with
// its rules, and all the cases of the file hold as many rules as its
// bytes allow, however they are split: the peak is that of the desk's
// rules, whatever the number of processors running its cases.
var worst = []scenario.Worst{{Name: "gemini", Reaches: scenario.ReachesFileSize, Case: func(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"id":"g%d","title":"t","scenario":"policy-check","given":{"tool":"run_shell_command","args":{"command":"ls"},"policies":[`, i)
	for f := range worstFiles {
		if f > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"tier":%q,"toml":"`, [2]string{"user", "admin"}[f%2])
		var file strings.Builder
		for r := 0; ; r++ {
			rule := fmt.Sprintf(`[[rule]]\ntoolName = \"run_shell_command\"\nargsPattern = \"a%d_%d_%d[a-z]+x\"\ndecision = \"deny\"\npriority = %d\n\n`, i, f, r, r%999+1)
			if file.Len()+len(rule) > worstFileBytes {
				break
			}
			file.WriteString(rule)
		}
		b.WriteString(file.String())
		b.WriteString(`"}`)
	}
	b.WriteString(`]},"expected":{"decision":"allow","outcome":"allowed"}}`)
	return b.String()
}}}
