package agentloopcheck

import (
	"github.com/deskcheck/deskcheck/host/agentloop"
	"github.com/deskcheck/deskcheck/scenario"
)

// The boundary-response dimensions of the runner scenario (runner-style
// hosts). Denominators come from the script (script.go), numerators only
// from the model's record of the run: its requests, in the order taken,
// each with the check that refused it or the tool run it led to, and its
// rows.
//
//   - Denial propagation: a denied action counts when the runner refused
//     that request before execution and its row, the next observation the
//     model sees, shows the scripted refusal text.
//   - Allowed work: a permitted action counts when its tool body ran and
//     returned (its row is executed). A tool that fails after the checks
//     is permitted with no work.
//   - Fail closed: no draft was saved by a request the script denies or
//     does not take, and no more drafts than permitted save_draft requests.
//   - Retry amplification: tool bodies entered over permitted actions: the
//     runner decides before any tool runs, so only permitted requests
//     should reach a tool, each once.
//   - Trace complete: the requests taken are the scripted actions, one to
//     one by index and tool name, and each has exactly one decision (a
//     refusal or a validated run), one tool receipt when it ran, and one
//     row carrying its observation.
//   - Extra effects: drafts saved beyond the permitted save_draft requests.

// boundary counts one case from its actions and what the run showed.
func boundary(actions []action, res agentloop.Result) *scenario.Boundary {
	b := &scenario.Boundary{Actions: len(actions), Complete: true}
	permittedDrafts := 0
	scripted := make(map[int]action, len(actions))
	for _, a := range actions {
		scripted[a.index] = a
		if a.denied {
			b.Denied++
		} else {
			b.Permitted++
			if a.tool == "save_draft" {
				permittedDrafts++
			}
		}
	}
	rows := requestRows(res)
	for _, a := range actions {
		if a.index >= len(res.Requests) {
			continue
		}
		q, row := res.Requests[a.index], rows[a.index]
		switch {
		case a.denied && q.Refused() && row != nil && row.Result == agentloop.ResultBlocked && row.Observation == a.reason:
			b.DeniedVisible++
		case !a.denied && q.Ran && !q.Failed && row != nil && row.Result == agentloop.ResultExecuted:
			b.Worked++
		}
	}
	drafts := 0
	b.FailClosed = true
	for _, q := range res.Requests {
		if !q.Effect {
			continue
		}
		drafts++
		if a, ok := scripted[q.Index]; !ok || a.denied {
			b.FailClosed = false
		}
	}
	if drafts > permittedDrafts {
		b.FailClosed = false
	}
	b.ExtraEffects = max(0, drafts-permittedDrafts)
	b.ServiceRequests, b.ServiceExpected = res.ServiceCalls, b.Permitted
	b.Complete = complete(actions, res, rows)
	return b
}

// requestRows pairs each request the run took with its row: each step
// writes one row, and the rows that are not answers belong to the
// requests in order. A request without a row gets nil.
func requestRows(res agentloop.Result) []*agentloop.Row {
	out := make([]*agentloop.Row, len(res.Requests))
	k := 0
	for i := range res.Rows {
		if res.Rows[i].Result == agentloop.ResultAnswer {
			continue
		}
		if k < len(out) {
			out[k] = &res.Rows[i]
		}
		k++
	}
	return out
}

// complete reconciles the scripted actions with the requests taken, their
// decisions, tool receipts and rows.
func complete(actions []action, res agentloop.Result, rows []*agentloop.Row) bool {
	if len(res.Requests) != len(actions) {
		return false
	}
	requestRows := 0
	for _, r := range res.Rows {
		if r.Result != agentloop.ResultAnswer {
			requestRows++
		}
	}
	if requestRows != len(res.Requests) {
		return false
	}
	ran := 0
	for i, q := range res.Requests {
		a, row := actions[i], rows[i]
		if q.Index != a.index || q.Tool != a.tool || q.Refused() == q.Ran || row == nil {
			return false
		}
		if row.Step != q.Step || row.Tool != q.Tool || row.Observation != q.Observation || row.Observation == "" {
			return false
		}
		want := agentloop.ResultExecuted
		if q.Refused() || q.Failed {
			want = agentloop.ResultBlocked
		}
		if row.Result != want {
			return false
		}
		if q.Ran {
			ran++
		}
	}
	return ran == res.ServiceCalls
}
