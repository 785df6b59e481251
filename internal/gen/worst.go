package gen

import (
	"fmt"
	"strings"
)

// WorstCases are the shapes of the most expensive desk of each family at
// the default limits, each just under the 16 MiB file size limit: what the
// README's memory envelope is measured on.
var WorstCases = []string{"wrapper-copies", "wrapper-echo", "wrapper-rpc", "gateway", "household", "runner"}

// fileBudget is how much of the 16 MiB a worst-case desk fills.
const fileBudget = 16<<20 - 8192

// Worst returns the worst-case desk called name (one of WorstCases):
//
//   - wrapper-copies: cases of 16,000-byte args called twice, the copy
//     limit of a run (twice the file's size);
//   - wrapper-echo: eight cases of 1,000 always-ask RPC calls whose tool
//     name and approval reason (4,000 bytes) every call echoes several
//     times, the copy limit of a run;
//   - wrapper-rpc: 299 cases of 1,000 always-ask calls through the RPC
//     select transport (299,000 units of work, under the 300,000 of a file;
//     each call writes and reads frames), padded with long why texts;
//   - gateway: eight cases of 270 reads of 5,000 empty objects (4 MiB of
//     copies each, the 32 MiB of a run together), the rest of the file in
//     long why texts;
//   - household: cases of 16 tool decisions of 60,000-byte arguments,
//     with a decision budget of 16;
//   - runner: scripts of 16 lookups of 60,000-byte arguments.
func Worst(name string) ([]byte, error) {
	x := func(n int) string { return strings.Repeat("x", n) }
	var cases []string
	size := 100
	add := func(c string) bool {
		if size+len(c)+1 > fileBudget {
			return false
		}
		cases, size = append(cases, c), size+len(c)+1
		return true
	}
	switch name {
	case "wrapper-copies":
		for i := 0; add(fmt.Sprintf(`{"id":"w%d","title":"t","scenario":"wrapper","given":{"approval":"exec","mode":"yolo","args":{"a":"%s"},"repeat":2},"expected":{"outcome":"return","effects":2}}`, i, x(16000))); i++ {
		}
	case "wrapper-echo":
		for i := 0; i < 8; i++ {
			add(fmt.Sprintf(`{"id":"w%d","title":"t","scenario":"wrapper","given":{"approval":{"tier":"exec","reason":"%s"},"tool":"%s","mode":"always-ask","ui":"rpc","safetyCheck":"%s","repeat":1000},"expected":{"outcome":"throw","effects":0}}`, i, x(1000), x(3000), x(40)))
		}
	case "wrapper-rpc":
		for i := 0; i < 299; i++ {
			add(fmt.Sprintf(`{"id":"w%d","title":"t","scenario":"wrapper","why":"%s","given":{"approval":"exec","mode":"always-ask","ui":"rpc","repeat":1000},"expected":{"outcome":"throw","effects":0}}`, i, x(55000)))
		}
	case "gateway":
		read := `{"request":{"action":"read","resource":"ops/orders","arguments":{}}}`
		list := func(s string, n int) string { return strings.TrimSuffix(strings.Repeat(s+",", n), ",") }
		for i := 0; i < 8; i++ {
			add(fmt.Sprintf(`{"id":"g%d","title":"t","scenario":"gateway","given":{"principal":"synthetic-analyst","records":{"ops/orders":[%s]},"steps":[%s]},"expected":{"decisions":[%s],"reasons":[%s],"draftEffects":0,"publicationEffects":0}}`,
				i, list("{}", 5000), list(read, 270), list(`"allow"`, 270), list(`"allowed"`, 270)))
		}
		for i := 8; add(fmt.Sprintf(`{"id":"g%d","title":"t","scenario":"gateway","why":"%s","given":{"principal":"synthetic-analyst","steps":[%s]},"expected":{"decisions":["allow"],"reasons":["allowed"],"draftEffects":0,"publicationEffects":0}}`, i, x(60000), read)); i++ {
		}
	case "household":
		d := fmt.Sprintf(`{"tool":"portfolio.read","arguments":{"household":"%s"}}`, x(60000))
		for i := 0; add(fmt.Sprintf(`{"id":"h%d","title":"t","scenario":"household","given":{"maxDecisions":16,"decisions":[%s]},"expected":{"outcome":"parser_failure","effects":0}}`, i, strings.TrimSuffix(strings.Repeat(d+",", 16), ","))); i++ {
		}
	case "runner":
		e := fmt.Sprintf(`{"tool":"lookup_user","args":{"user_id":"%s"}}`, x(60000))
		for i := 0; add(fmt.Sprintf(`{"id":"r%d","title":"t","scenario":"runner","given":{"script":[%s]},"expected":{"outcome":"answered","effects":0}}`, i, strings.TrimSuffix(strings.Repeat(e+",", 16), ","))); i++ {
		}
	default:
		return nil, fmt.Errorf("no worst case %q (known: %s)", name, strings.Join(WorstCases, ", "))
	}
	return []byte(`{"schemaVersion":1,"id":"worst-` + name + `","title":"t","label":"DO NOT EXECUTE","cases":[` + strings.Join(cases, ",") + `]}`), nil
}
