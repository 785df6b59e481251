package ompcheck

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/scenario"
)

// rowText says what each decision row decides, for the point list.
var rowText = [omp.DecisionRows + 1]string{
	1: "a tool policy deny refuses the call",
	2: "a user policy deny refuses the call",
	3: "in yolo, the tool's own policy decides",
	4: "in yolo, a user policy decides, or yolo allows",
	5: "the tool demands a prompt (override)",
	6: "outside yolo, the tool's own policy decides",
	7: "outside yolo, a user policy decides",
	8: "the mode's tier cap auto-approves the tool's tier",
	9: "nothing decides: the call asks for approval",
}

// modeName is the point name of a mode: the host's modes by name, any
// other string as unknown.
func modeName(mode string) string {
	for _, m := range omp.Modes {
		if m == mode {
			return m
		}
	}
	return "unknown"
}

// Points are the OMP host's boundary points.
var Points = func() []scenario.Point {
	var out []scenario.Point
	w := func(name, text string) {
		out = append(out, scenario.Point{Name: "wrapper/" + name, Scenario: "wrapper", Text: text})
	}
	for r := 1; r <= omp.DecisionRows; r++ {
		w("row-"+strconv.Itoa(r), "decision row "+strconv.Itoa(r)+": "+rowText[r])
	}
	for _, m := range omp.Modes {
		w("mode-"+m, "a call resolves in mode "+m)
	}
	w("mode-unknown", "a call is configured with a mode the host does not know (before 18.2.3 it auto-approves no tier, from 18.2.3 every tier)")
	w("deny-tool", "a call is refused by a tool policy (the tool-policy text)")
	w("deny-user", "a call is refused by a user policy (the user-policy text)")
	w("tool-call-revised", "a tool_call handler revises the input the call runs with")
	w("dialog-approved", "an approval dialog is answered Approve and the call runs")
	w("dialog-denied", "an approval dialog is answered with something other than Approve")
	w("dialog-dismissed", "an approval dialog is dismissed with no answer")
	w("dialog-rpc-cancel", "an RPC client cancels the approval dialog")
	w("dialog-no-ui", "a required approval has no interactive UI to ask")
	w("safety-dialog", "the approval dialog lists pending provider safety checks")
	w("safety-no-ui", "pending provider safety checks with no UI refuse the call")
	w("safety-approved", "an approved call with safety checks sets providerSafetyApproved")
	f := func(name, text string) {
		out = append(out, scenario.Point{Name: "fallback/" + name, Scenario: "fallback", Text: text})
	}
	f("no-handler", "a failed write with no fallback handler returns its own error")
	f("permission-to-handlers", "a permission-denied write goes to the fallback handlers")
	f("enoent-mkdir-retry", "an ENOENT write creates the parent and is tried once more")
	f("mkdir-denied-to-handlers", "creating the parent is permission-denied and goes to the handlers")
	f("other-error", "a failure that is neither permission-denied nor ENOENT skips the handlers")
	f("handler-complete", "a fallback handler completes the write")
	f("handler-decline", "a fallback handler declines")
	f("handler-fail", "a fallback handler fails and the next is asked")
	c := func(name, text string) {
		out = append(out, scenario.Point{Name: "classify/" + name, Scenario: "classify-error", Text: text})
	}
	c("plain-value", "a value that is not an error object is never permission-denied")
	c("code-permission", "a structured code EPERM, EACCES or EROFS decides: permission-denied")
	c("code-other", "another structured code decides: not permission-denied, whatever the message")
	c("message-permission", "no code: a permission word in the message decides: permission-denied")
	c("message-other", "no code and no permission word: not permission-denied")
	return out
}()

// mutants are the OMP host's generated mutants, in a fixed order (their
// IDs are their positions).
var mutants = func() []adapter.Mutant[omp.Mutation] {
	var out []adapter.Mutant[omp.Mutation]
	add := func(name, text, equivalent string, m omp.Mutation) {
		out = append(out, adapter.Mutant[omp.Mutation]{Name: name, Text: text, Equivalent: equivalent, Mutation: m})
	}
	tiers := []string{"no tier", "read", "write", "exec"}
	for _, mode := range omp.Modes {
		rank, _ := omp.Cap(mode)
		if rank+1 < len(tiers)-1 {
			add("cap/"+mode+"/raise", "mode "+mode+" auto-approves tiers up to "+tiers[rank+2]+", one above its cap "+tiers[rank+1], "",
				omp.Mutation{Kind: omp.MutCap, Mode: mode, Delta: 1})
		}
		eq := ""
		if mode == omp.ModeYolo {
			eq = "yolo is decided at row 4, before row 8 reads a tier cap, so its cap is never read"
		}
		lower := "auto-approves tiers up to " + tiers[rank]
		if rank == 0 {
			lower = "auto-approves no tier"
		}
		add("cap/"+mode+"/lower", "mode "+mode+" "+lower+", one below its cap "+tiers[rank+1], eq,
			omp.Mutation{Kind: omp.MutCap, Mode: mode, Delta: -1})
	}
	for r := 1; r <= omp.DecisionRows; r++ {
		add("row/"+strconv.Itoa(r)+"/drop", "decision row "+strconv.Itoa(r)+" ("+rowText[r]+") is skipped", "",
			omp.Mutation{Kind: omp.MutDropRow, Row: r})
	}
	for r := 1; r < omp.DecisionRows; r++ {
		eq := ""
		if r == 5 {
			eq = "rows 5 and 6 both resolve from the tool's own declaration and agree on the policy whenever both match; they differ only in the override flag, which only an xd:// device dispatch reads"
		}
		add("row/"+strconv.Itoa(r)+"/swap", "decision row "+strconv.Itoa(r+1)+" is tried before row "+strconv.Itoa(r), eq,
			omp.Mutation{Kind: omp.MutSwapRows, Row: r})
	}
	add("row-8/strict", "row 8 compares strictly: a tier at the mode's cap is not auto-approved", "", omp.Mutation{Kind: omp.MutCapStrict})
	add("row-8/inverted", "row 8's comparison is inverted: tiers above the cap are auto-approved, those at or below it are not", "", omp.Mutation{Kind: omp.MutCapInverted})
	add("dialog/approve-inverted", "the dialog's check is inverted: every answer but Approve approves", "", omp.Mutation{Kind: omp.MutApproveInverted})
	add("event/tool-call/drop", "the tool_call event is dropped: no handler sees, blocks or revises the call", "", omp.Mutation{Kind: omp.MutDropToolCall})
	add("event/safety-approved/drop", "the record of an approved safety check is dropped: providerSafetyApproved is never set", "", omp.Mutation{Kind: omp.MutDropSafetyRecord})
	add("check/original-deny/drop", "the deny check on the original input is dropped", "", omp.Mutation{Kind: omp.MutDropOriginalDeny})
	add("check/no-ui/drop", "the no-UI refusal is dropped: a required approval without a UI runs", "", omp.Mutation{Kind: omp.MutDropNoUIRefusal})
	add("check/safety-checks/drop", "pending provider safety checks are ignored", "", omp.Mutation{Kind: omp.MutDropSafetyChecks})
	for _, code := range []string{"EPERM", "EACCES", "EROFS"} {
		add("classify/code-"+code+"/drop", "the classifier no longer knows "+code+" (as a code or a word)", "", omp.Mutation{Kind: omp.MutClassifyDropCode, Code: code})
	}
	add("classify/message/drop", "the classifier's message rule is dropped: only a structured code decides", "", omp.Mutation{Kind: omp.MutClassifyDropMessage})
	add("classify/code/inverted", "the classifier's code rule is inverted", "", omp.Mutation{Kind: omp.MutClassifyCodeInverted})
	add("fallback/mkdir/drop", "an ENOENT write no longer creates the parent and retries", "", omp.Mutation{Kind: omp.MutFallbackDropMkdir})
	add("fallback/retries/raise", "the ENOENT retry bound is one higher: a second ENOENT retries again", "", omp.Mutation{Kind: omp.MutFallbackExtraAttempt})
	add("fallback/cause-check/drop", "every failed write with handlers goes to them, permission-denied or not", "", omp.Mutation{Kind: omp.MutFallbackDropCauseCheck})
	add("fallback/handler-complete/drop", "a handler that completes is not believed: the next is asked, and the write fails", "", omp.Mutation{Kind: omp.MutFallbackIgnoreComplete})
	return out
}()

// Mutants are the OMP host's generated mutants as the engine registers
// them.
var Mutants = adapter.Mutants(mutants)

func mutationOf(env scenario.Env) omp.Mutation { return adapter.Mutation(mutants, env.Mutant) }

// wrapperPoints records the points of one wrapper run's notes.
func wrapperPoint(r *adapter.Reached, n omp.Note) {
	if n.Resolution == nil {
		if n.Step == "no-ui" {
			r.Add("wrapper/dialog-no-ui")
		}
		return
	}
	res := n.Resolution
	if res.Row > 0 {
		r.Add("wrapper/row-" + strconv.Itoa(res.Row))
	}
	r.Add("wrapper/mode-" + modeName(n.Mode))
	if res.Policy == omp.PolicyDeny {
		if res.Source == omp.SourceTool {
			r.Add("wrapper/deny-tool")
		} else {
			r.Add("wrapper/deny-user")
		}
	}
}

// approvalPoint records a dialog's outcome from the host's own approval
// event and the answer the dialog recorder saw.
func approvalPoint(r *adapter.Reached, ev omp.ApprovalEvent, d *Dialogs, rpc bool) {
	if ev.Type != "tool_approval_resolved" {
		return
	}
	switch {
	case ev.Approved:
		r.Add("wrapper/dialog-approved")
	case ev.Reason == "denied by user" && d != nil:
		switch answered, v := d.Last(); {
		case answered && v == nil && rpc:
			r.Add("wrapper/dialog-rpc-cancel")
		case answered && v == nil:
			r.Add("wrapper/dialog-dismissed")
		default:
			r.Add("wrapper/dialog-denied")
		}
	}
}

// Generate is generate, made once: the inputs are a fixed table, which
// every search only reads.
var Generate = sync.OnceValue(generate)

// generate returns the OMP host's generated inputs: every combination of
// a tool declaration, a mode, a user policy and a way of answering, then
// provider safety checks, revisions, fallbacks and classifications. Each
// candidate aims at the points the host's own decision order says it
// reaches; running it shows whether it does.
func generate() []scenario.Candidate {
	var out []scenario.Candidate
	approvals := []any{"read", "write", "exec",
		map[string]any{"policy": "allow"}, map[string]any{"policy": "deny", "reason": "fictional shelf lock"}, map[string]any{"policy": "prompt"},
		map[string]any{"tier": "read", "override": true}, map[string]any{"tier": "read", "policy": "allow", "override": true}}
	users := []string{"", "allow", "deny", "prompt"}
	type answer struct {
		ui      any
		choices []any
		point   string
	}
	answers := []answer{{nil, []any{"Approve"}, "dialog-approved"}, {nil, []any{"Deny"}, "dialog-denied"}, {nil, []any{nil}, "dialog-dismissed"},
		{false, nil, "dialog-no-ui"}, {"rpc", []any{nil}, "dialog-rpc-cancel"}}
	modes := append(append([]string{}, omp.Modes...), "paranoid")
	for _, mode := range modes {
		for _, ap := range approvals {
			for _, u := range users {
				var policies map[string]any
				if u != "" {
					policies = map[string]any{DefaultToolName: u}
				}
				res, _ := omp.ResolveApproval(omp.Tool{Name: DefaultToolName, Approval: ap}, map[string]any{"action": "publish"}, mode, policies)
				aims := []string{"wrapper/row-" + strconv.Itoa(res.Row), "wrapper/mode-" + modeName(mode)}
				if res.Policy == omp.PolicyDeny {
					aims = append(aims, "wrapper/deny-"+string(res.Source))
				}
				for i, a := range answers {
					if res.Policy != omp.PolicyPrompt && i > 0 {
						break
					}
					given := map[string]any{"approval": ap, "args": map[string]any{"action": "publish"}, "mode": mode}
					if policies != nil {
						given["userPolicies"] = policies
					}
					aims := aims
					if res.Policy == omp.PolicyPrompt {
						if a.ui != nil {
							given["ui"] = a.ui
						}
						if a.choices != nil {
							given["choices"] = a.choices
						}
						aims = append(aims[:len(aims):len(aims)], "wrapper/"+a.point)
					}
					out = append(out, candidate("wrapper", given, aims, "mode "+mode+", approval "+compact(ap)+userText(u)))
				}
			}
		}
	}
	for _, ui := range []any{nil, false} {
		for _, choice := range []any{"Approve", "Deny"} {
			given := map[string]any{"approval": "read", "args": map[string]any{"action": "inspect"}, "mode": "yolo", "safetyCheck": true}
			aims := []string{"wrapper/safety-dialog"}
			if ui == false {
				given["ui"] = false
				aims = []string{"wrapper/safety-no-ui"}
			} else {
				given["choices"] = []any{choice}
				if choice == "Approve" {
					aims = append(aims, "wrapper/safety-approved")
				}
			}
			out = append(out, candidate("wrapper", given, aims, "a computer call with a pending safety check"))
		}
	}
	out = append(out,
		candidate("wrapper", map[string]any{"approval": "read", "args": map[string]any{"action": "publish"}, "mode": "yolo", "revise": map[string]any{"action": "inspect"}},
			[]string{"wrapper/tool-call-revised"}, "a tool_call handler revises the input"),
		candidate("wrapper", map[string]any{"approval": map[string]any{"policy": "deny"}, "args": map[string]any{"action": "publish"}, "mode": "yolo", "revise": map[string]any{"action": "inspect"}},
			[]string{"wrapper/row-1", "wrapper/deny-tool"}, "a tool deny with a revising handler"),
		candidate("wrapper", map[string]any{"approval": "exec", "args": map[string]any{"action": "publish"}, "mode": "always-ask", "choices": []any{"Approve", "Approve"}, "repeat": 2},
			[]string{"wrapper/dialog-approved"}, "two approved calls"),
	)
	type fb struct {
		given map[string]any
		aims  []string
		title string
	}
	for _, f := range []fb{
		{map[string]any{"code": "EACCES", "message": "EACCES: permission denied", "handlers": []any{"complete"}}, []string{"fallback/permission-to-handlers", "fallback/handler-complete"}, "a denied write with a completing handler"},
		{map[string]any{"code": "EACCES", "message": "EACCES: permission denied"}, []string{"fallback/no-handler"}, "a denied write with no handler"},
		{map[string]any{"code": "EACCES", "message": "EACCES: permission denied", "handlers": []any{"decline"}}, []string{"fallback/handler-decline"}, "a denied write with a declining handler"},
		{map[string]any{"code": "EACCES", "message": "EACCES: permission denied", "handlers": []any{"fail", "complete"}}, []string{"fallback/handler-fail"}, "a failing handler, then a completing one"},
		{map[string]any{"code": "ENOENT", "message": "ENOENT: no such file", "handlers": []any{"complete"}}, []string{"fallback/enoent-mkdir-retry"}, "an ENOENT write whose parent is created"},
		{map[string]any{"code": "ENOENT", "message": "ENOENT: no such file", "retryError": map[string]any{"code": "ENOENT", "message": "ENOENT: still missing"}, "handlers": []any{"complete"}}, []string{"fallback/enoent-mkdir-retry"}, "an ENOENT write that fails twice"},
		{map[string]any{"code": "ENOENT", "message": "ENOENT: no such file", "mkdirError": map[string]any{"code": "EACCES", "message": "EACCES: parent"}, "handlers": []any{"complete"}}, []string{"fallback/mkdir-denied-to-handlers"}, "an ENOENT write whose parent is permission-denied"},
		{map[string]any{"code": "EIO", "message": "EIO: i/o error", "handlers": []any{"complete"}}, []string{"fallback/other-error"}, "an EIO write with a handler"},
		{map[string]any{"code": "ENOENT", "message": "EACCES in the message", "handlers": []any{"complete"}}, []string{"fallback/enoent-mkdir-retry"}, "an ENOENT code with EACCES in the message"},
		{map[string]any{"message": "EPERM: operation not permitted", "handlers": []any{"complete"}}, []string{"fallback/permission-to-handlers"}, "a denied write with no code"},
		{map[string]any{"code": "EROFS", "message": "read-only", "handlers": []any{"decline"}}, []string{"fallback/permission-to-handlers"}, "a read-only write"},
	} {
		out = append(out, candidate("fallback", f.given, f.aims, f.title))
	}
	type cl struct {
		given map[string]any
		aim   string
	}
	for _, c := range []cl{
		{map[string]any{"code": "EACCES", "message": "denied", "kind": "error"}, "code-permission"},
		{map[string]any{"code": "EPERM", "message": "denied", "kind": "error"}, "code-permission"},
		{map[string]any{"code": "EROFS", "message": "denied", "kind": "error"}, "code-permission"},
		{map[string]any{"code": "ENOENT", "message": "EACCES in the message", "kind": "error"}, "code-other"},
		{map[string]any{"message": "EACCES: denied", "kind": "error"}, "message-permission"},
		{map[string]any{"message": "EPERM: denied", "kind": "error"}, "message-permission"},
		{map[string]any{"message": "EROFS: read-only", "kind": "error"}, "message-permission"},
		{map[string]any{"message": "no such file", "kind": "error"}, "message-other"},
		{map[string]any{"code": "EACCES", "message": "EACCES", "kind": "object"}, "plain-value"},
		{map[string]any{"message": "EACCES", "kind": "string"}, "plain-value"},
	} {
		out = append(out, candidate("classify-error", c.given, []string{"classify/" + c.aim}, "classify "+compact(c.given)))
	}
	return out
}

func userText(u string) string {
	if u == "" {
		return ""
	}
	return ", user policy " + u
}

func candidate(sc string, given map[string]any, aims []string, title string) scenario.Candidate {
	b, _ := json.Marshal(given)
	return scenario.Candidate{Scenario: sc, Given: string(b), Aims: aims, Title: title}
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return strings.ReplaceAll(string(b), `"`, "")
}

// fallbackPoints reads the points of one fallback run from what its
// recorders traced: the writer's attempts, the parent creation and the
// handlers' answers.
func fallbackPoints(events []scenario.Event, handlers bool, err error) []string {
	var out []string
	writes, failed, mkdir, mkdirFailed, asked := 0, 0, false, false, false
	for _, e := range events {
		switch e.Kind {
		case "write":
			writes++
			if strings.Contains(e.Text, " fails: ") {
				failed++
			}
		case "mkdir":
			mkdir = true
			mkdirFailed = strings.Contains(e.Text, " fails: ")
		case "handler":
			asked = true
			switch {
			case strings.HasSuffix(e.Text, "→ fails with an error"):
				out = append(out, "fallback/handler-fail")
			case strings.Contains(e.Text, "→ completes"):
				out = append(out, "fallback/handler-complete")
			case strings.Contains(e.Text, "→ declines"):
				out = append(out, "fallback/handler-decline")
			}
		}
	}
	switch {
	case failed > 0 && !handlers:
		out = append(out, "fallback/no-handler")
	case mkdir && !mkdirFailed:
		out = append(out, "fallback/enoent-mkdir-retry")
	case mkdirFailed && asked:
		out = append(out, "fallback/mkdir-denied-to-handlers")
	case asked:
		out = append(out, "fallback/permission-to-handlers")
	case failed > 0 && err != nil:
		out = append(out, "fallback/other-error")
	}
	return out
}

// classifyPoint names the classifier rule that decided, from the form of
// the value the recorder built and the host's answer.
func classifyPoint(kind string, coded, denied bool) string {
	switch {
	case kind == "object" || kind == "string":
		return "classify/plain-value"
	case coded && denied:
		return "classify/code-permission"
	case coded:
		return "classify/code-other"
	case denied:
		return "classify/message-permission"
	}
	return "classify/message-other"
}
