package ompcheck

import (
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// The sources the generated cases cite.
var (
	wrapperSource  = [2]string{"wrapper", "wrapper.ts"}
	fallbackSource = [2]string{"fallback", "file-write-fallback.ts"}
)

// shapes are the OMP cases of generated benchmark desks, each with a known
// outcome whatever tool name, word and number fill it.
var shapes = []scenario.Shape{
	{Scenario: "wrapper", Source: wrapperSource,
		Given:    `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%","n":%N%},"mode":"always-ask","choices":["Approve","Deny"],"repeat":2}`,
		Expected: `{"outcome":"throw","effects":1,"prompts":2,"toolCalls":2,"input":{"action":"%WORD%","n":%N%},"errorIncludes":"Tool call denied by user","successfulCalls":1}`},
	{Scenario: "wrapper", Source: wrapperSource,
		Given:    `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%"},"mode":"always-ask","autoApprove":true,"ui":false}`,
		Expected: `{"outcome":"return","effects":1,"prompts":0,"toolCalls":1,"input":{"action":"%WORD%"}}`},
	{Scenario: "wrapper", Source: wrapperSource,
		Given:    `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%"},"mode":"always-ask","autoApprove":true,"ui":false,"userPolicies":{"%TOOL%":"deny"}}`,
		Expected: `{"outcome":"throw","effects":0,"prompts":0,"toolCalls":0,"errorIncludes":"blocked by user policy"}`},
	{Scenario: "wrapper", Source: wrapperSource,
		Given:    `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%"},"mode":"always-ask","choices":["Approve"]}`,
		Expected: `{"outcome":"return","effects":1,"prompts":1,"toolCalls":1,"input":{"action":"%WORD%"}}`},
	{Scenario: "wrapper", Source: wrapperSource,
		Given:    `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%"},"mode":"always-ask","choices":[null]}`,
		Expected: `{"outcome":"throw","effects":0,"prompts":1,"toolCalls":1,"errorIncludes":"Tool call denied by user"}`},
	{Scenario: "wrapper", Source: wrapperSource,
		Given:    `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%"},"mode":"always-ask","ui":false}`,
		Expected: `{"outcome":"throw","effects":0,"prompts":0,"toolCalls":1,"errorIncludes":"requires approval but no interactive UI available"}`},
	{Scenario: "wrapper", Source: wrapperSource,
		Given:    `{"tool":"%TOOL%","approval":{"tier":"exec","policy":"deny"},"args":{"action":"%WORD%"},"revise":{"action":"inspect"},"mode":"yolo"}`,
		Expected: `{"outcome":"throw","effects":0,"prompts":0,"toolCalls":0,"errorIncludes":"blocked by tool policy"}`},
	{Scenario: "wrapper", Source: wrapperSource,
		Given:    `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%"},"mode":"always-ask","ui":"rpc","choices":["Approve"]}`,
		Expected: `{"outcome":"return","effects":1,"prompts":1,"toolCalls":1,"input":{"action":"%WORD%"},"rpcRequests":1}`},
	{Scenario: "wrapper", Source: wrapperSource,
		Given:    `{"tool":"%TOOL%","approval":"read","args":{"action":"%WORD%"},"mode":"yolo","choices":["Approve"],"safetyCheck":"Shelf check %WORD%"}`,
		Expected: `{"outcome":"return","effects":1,"prompts":1,"toolCalls":1,"providerSafetyApproved":true,"promptIncludes":"Shelf check %WORD%"}`},
	{Scenario: "wrapper", Source: wrapperSource,
		Given:    `{"tool":"%TOOL%","approval":"read","args":{"action":"%WORD%"},"revise":{"action":"%WORD%-revised"},"mode":"write"}`,
		Expected: `{"outcome":"return","effects":1,"prompts":0,"toolCalls":1,"input":{"action":"%WORD%-revised"}}`},
	{Scenario: "wrapper", Source: wrapperSource,
		Given:    `{"tool":"%TOOL%","approval":{"tier":"exec","policy":"prompt","reason":"%WORD% audit"},"mode":"yolo","userPolicies":{"%TOOL%":"allow"},"choices":["approve"]}`,
		Expected: `{"outcome":"throw","effects":0,"prompts":1,"promptIncludes":"Reason: %WORD% audit","errorIncludes":"denied by user"}`},
	{Scenario: "fallback", Source: fallbackSource,
		Given:    `{"code":"EACCES","message":"Denied %WORD% note"}`,
		Expected: `{"outcome":"throw-same-error","effects":0,"primitiveAttempts":1}`},
	{Scenario: "fallback", Source: fallbackSource,
		Given:    `{"code":"ENOENT","message":"No %WORD% folder","handlers":["complete"]}`,
		Expected: `{"outcome":"return","effects":1,"primitiveAttempts":2,"handlerCalls":0}`},
	{Scenario: "fallback", Source: fallbackSource,
		Given:    `{"code":"EPERM","message":"%WORD% refused","handlers":["decline","fail","complete"]}`,
		Expected: `{"outcome":"return","effects":0,"primitiveAttempts":1,"handlerCalls":3}`},
	{Scenario: "fallback", Source: fallbackSource,
		Given:    `{"code":"ENOENT","message":"missing %WORD%","mkdirError":{"code":"EACCES","message":"mkdir %WORD% denied"},"handlers":["decline"]}`,
		Expected: `{"outcome":"throw-same-error","effects":0,"handlerCalls":1,"causeIncludes":"mkdir %WORD% denied"}`},
	{Scenario: "classify-error", Source: fallbackSource,
		Given:    `{"code":"ENOENT","message":"ENOENT opening %WORD%/EACCES/card"}`,
		Expected: `{"permissionDenied":false,"effects":0}`},
	{Scenario: "classify-error", Source: fallbackSource,
		Given:    `{"message":"EACCES: %WORD% refusal"}`,
		Expected: `{"permissionDenied":true,"effects":0}`},
	{Scenario: "classify-error", Source: fallbackSource,
		Given:    `{"kind":"object","code":"EACCES","message":"EACCES %WORD%"}`,
		Expected: `{"permissionDenied":false,"effects":0}`},
}

// worst are the family's most expensive desks at the default limits:
//
//   - wrapper-copies: cases of 16,000-byte args called twice, the copy
//     limit of a run (twice the file's size);
//   - wrapper-echo: eight cases of 1,000 always-ask RPC calls whose tool
//     name and approval reason (4,000 bytes) every call echoes several
//     times, the copy limit of a run;
//   - wrapper-rpc: 299 cases of 1,000 always-ask calls through the RPC
//     select transport (299,000 units of work, under the 300,000 of a file;
//     each call writes and reads frames), padded with long why texts.
var worst = []scenario.Worst{
	{Name: "wrapper-copies", Reaches: scenario.ReachesFileSize | scenario.ReachesCopies, Case: func(i int) string {
		return fmt.Sprintf(`{"id":"w%d","title":"t","scenario":"wrapper","given":{"approval":"exec","mode":"yolo","args":{"a":"%s"},"repeat":2},"expected":{"outcome":"return","effects":2}}`, i, strings.Repeat("x", 16000))
	}},
	{Name: "wrapper-echo", Reaches: scenario.ReachesCopies, Case: func(i int) string {
		if i == 8 {
			return ""
		}
		return fmt.Sprintf(`{"id":"w%d","title":"t","scenario":"wrapper","given":{"approval":{"tier":"exec","reason":"%s"},"tool":"%s","mode":"always-ask","ui":"rpc","safetyCheck":"%s","repeat":1000},"expected":{"outcome":"throw","effects":0}}`, i, strings.Repeat("x", 1000), strings.Repeat("x", 3000), strings.Repeat("x", 40))
	}},
	{Name: "wrapper-rpc", Reaches: scenario.ReachesFileSize | scenario.ReachesWork, Case: func(i int) string {
		if i == 299 {
			return ""
		}
		return fmt.Sprintf(`{"id":"w%d","title":"t","scenario":"wrapper","why":"%s","given":{"approval":"exec","mode":"always-ask","ui":"rpc","repeat":1000},"expected":{"outcome":"throw","effects":0}}`, i, strings.Repeat("x", 55000))
	}},
}
