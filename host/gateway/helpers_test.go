package gateway

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const q2Text = "Q2 summary: 41 orders shipped, 3 tickets open."

func ptr(s string) *string { return &s }

// request builds an envelope; args is raw JSON.
func request(action, resource, args string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"action":%q,"resource":%q,"arguments":%s}`, action, resource, args))
}

func textArgs(text string) string {
	b, _ := json.Marshal(map[string]string{"text": text})
	return string(b)
}

func readStep(resource string) Step {
	return Step{Request: request(ActionRead, resource, `{}`)}
}

func draftStep(text string) Step {
	return Step{Request: request(ActionCreateDraft, ResourceWeeklyReport, textArgs(text))}
}

func publishStep(text string, approvalID *string) Step {
	return Step{Request: request(ActionPublishSummary, ResourceReviewBoard, textArgs(text)), ApprovalID: approvalID}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := ParseTime(s)
	require.NoError(t, err)
	return v
}

// q2 is a valid approval for the operator's Q2 publication.
func q2(t *testing.T) Approval {
	return Approval{
		ID:        "ap-q2",
		Principal: PrincipalOperator,
		Action:    ActionPublishSummary,
		Resource:  ResourceReviewBoard,
		Arguments: json.RawMessage(textArgs(q2Text)),
		State:     StateApproved,
		ExpiresAt: mustTime(t, "2026-06-01T13:00:00Z"),
	}
}

func operator(approvals ...Approval) Config {
	return Config{Principal: PrincipalOperator, Approvals: approvals}
}

func run(t *testing.T, cfg Config, steps ...Step) *Result {
	t.Helper()
	r, err := Run(cfg, steps)
	require.NoError(t, err)
	require.Len(t, r.Responses, len(steps))
	require.Len(t, r.Audit, len(steps))
	return r
}

// checkLine returns the narration line of the check of step n.
func checkLine(r *Result, n int) string {
	for _, e := range r.Events {
		if e.Step == n && e.Kind == EventCheck {
			return e.Text
		}
	}
	return ""
}

// observe summarizes everything observable, for comparing two runs.
func observe(t *testing.T, r *Result) string {
	t.Helper()
	b, err := json.Marshal(struct {
		Decisions, Reasons []string
		Results            []json.RawMessage
		Audit              []AuditEvent
		Drafts             []Draft
		Publications       []Publication
		Effects            []Effect
		ServiceRequests    int
		Approvals          map[string]string
	}{r.Decisions(), r.Reasons(), r.Results(), r.Audit, r.Drafts, r.Publications, r.Effects, r.ServiceRequests, r.Approvals})
	require.NoError(t, err)
	return string(b)
}

func repeat(s string, n int) string { return strings.Repeat(s, n) }
