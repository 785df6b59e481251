package verifier

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ackDesk is a desk whose one case scripts one choice for three prompts
// (a choices-vs-prompts warning) and whose label does not warn (a label
// warning), with the desk's and the case's acknowledge keys as given.
func ackDesk(deskAck, caseAck string) string {
	d := `{"schemaVersion": 1, "id": "ack", "title": "t", "label": "teaching data",`
	if deskAck != "" {
		d += `"acknowledge": ` + deskAck + `,`
	}
	d += named(`"cases": [{"id": "c", "title": "t", "scenario": "{prompt}",`)
	if caseAck != "" {
		d += `"acknowledge": ` + caseAck + `,`
	}
	return d + `"given": {"mode": "always-ask", "repeat": 3, "choices": ["Approve"]}, "expected": {"outcome": "throw", "effects": 1, "prompts": 3}}]}`
}

func TestAcknowledge(t *testing.T) {
	tests := []struct {
		reason           string
		deskAck, caseAck string
		errors           []string // parts of the error lines, in order
		lines            []string // parts of the other lines, in order
		unacknowledged   int
	}{
		{"without acknowledgements both warnings stand, each with its name", "", "", nil,
			[]string{"warning: the label should warn readers: DO NOT EXECUTE (/label) [label]", "warning: 1 scripted choices but 3 prompts expected (/cases/0/given/choices) [choices-vs-prompts]"}, 2},
		{"a case acknowledges its own warning, shown with the reason instead of the message", "", `{"choices-vs-prompts": "running out of answers fails closed"}`, nil,
			[]string{"[label]", "acknowledged choices-vs-prompts: running out of answers fails closed (/cases/0/given/choices)"}, 1},
		{"the desk acknowledges for every case", `{"label": "a test desk", "choices-vs-prompts": "on purpose"}`, "", nil,
			[]string{"acknowledged label: a test desk (/label)", "acknowledged choices-vs-prompts: on purpose"}, 0},
		{"a case cannot acknowledge the desk's label", "", `{"label": "no"}`, nil,
			[]string{"warning: the label should warn readers", "warning: acknowledges label, but no such warning is raised here (/cases/0/acknowledge/label) [unused-acknowledgement]", "warning: 1 scripted choices"}, 3},
		{"an unknown name is an error with a suggestion", "", `{"choices-vs-prompt": "x"}`,
			[]string{`error: acknowledge: "choices-vs-prompt" is not the name of a warning; did you mean "choices-vs-prompts"? (/cases/0/acknowledge/choices-vs-prompt)`}, nil, 0},
		{"an empty reason is an error", `{"label": "  "}`, "",
			[]string{"error: acknowledge: say why label is acknowledged; the reason is empty (/acknowledge/label)"}, nil, 0},
		{"a placeholder is never acknowledged", `{"placeholder": "later"}`, "",
			[]string{"error: acknowledge: a placeholder cannot be acknowledged"}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			_, ds := LoadAll(testReg, []Input{{Path: "ack.json", Data: []byte(ackDesk(tt.deskAck, tt.caseAck))}}, Limits{})
			var errs, others []string
			for _, d := range ds {
				if d.Severity == Error {
					errs = append(errs, d.String())
				} else {
					others = append(others, d.String())
				}
			}
			require.Len(t, errs, len(tt.errors), "%v", diagStrings(ds))
			for i, e := range tt.errors {
				assert.Contains(t, errs[i], e)
			}
			if tt.errors != nil {
				return
			}
			require.Len(t, others, len(tt.lines), "%v", diagStrings(ds))
			for i, l := range tt.lines {
				assert.Contains(t, others[i], l)
			}
			assert.Equal(t, tt.unacknowledged, ds.Unacknowledged())
			for _, d := range ds {
				if d.Acknowledged != "" {
					assert.NotContains(t, d.String(), "warning:", "an acknowledged warning is not repeated")
				}
			}
		})
	}
}

// TestEveryWarningIsNamed: each warning lint raises on the test desks has
// a name an acknowledge key accepts.
func TestEveryWarningIsNamed(t *testing.T) {
	known := WarningNames(testReg)
	inputs, _, err := ReadPaths([]string{"testdata"}, Limits{})
	require.NoError(t, err)
	warned := 0
	for _, in := range inputs {
		_, ds := LoadAll(testReg, []Input{in}, Limits{})
		for _, d := range ds {
			if d.Severity != Warning || strings.HasPrefix(d.Summary, "… and") {
				continue
			}
			warned++
			assert.Contains(t, known, d.Name, "%s", d)
		}
	}
	assert.Positive(t, warned, "the test desks raise warnings")
}
