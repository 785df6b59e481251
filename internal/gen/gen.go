// Package gen generates large, valid and varied desks for benchmarks and
// scale tests. Output is deterministic: the same arguments give the same
// bytes. Every generated case passes on the correct host model; the
// variations (tool names, arguments, messages) never change an outcome.
//
// Besides its own OMP case shapes, it takes every case of the bundled desks
// of the other host families as a shape, so a generated suite exercises
// every family in proportion to its bundled cases.
package gen

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/cases"
)

// template is one case shape with a known outcome. In given and expected,
// %TOOL%, %WORD% and %N% are replaced per case.
type template struct {
	scenario, given, expected string
}

var templates = []template{
	{"wrapper", `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%","n":%N%},"mode":"always-ask","choices":["Approve","Deny"],"repeat":2}`,
		`{"outcome":"throw","effects":1,"prompts":2,"toolCalls":2,"input":{"action":"%WORD%","n":%N%},"errorIncludes":"Tool call denied by user","successfulCalls":1}`},
	{"wrapper", `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%"},"mode":"always-ask","autoApprove":true,"ui":false}`,
		`{"outcome":"return","effects":1,"prompts":0,"toolCalls":1,"input":{"action":"%WORD%"}}`},
	{"wrapper", `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%"},"mode":"always-ask","autoApprove":true,"ui":false,"userPolicies":{"%TOOL%":"deny"}}`,
		`{"outcome":"throw","effects":0,"prompts":0,"toolCalls":0,"errorIncludes":"blocked by user policy"}`},
	{"wrapper", `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%"},"mode":"always-ask","choices":["Approve"]}`,
		`{"outcome":"return","effects":1,"prompts":1,"toolCalls":1,"input":{"action":"%WORD%"}}`},
	{"wrapper", `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%"},"mode":"always-ask","choices":[null]}`,
		`{"outcome":"throw","effects":0,"prompts":1,"toolCalls":1,"errorIncludes":"Tool call denied by user"}`},
	{"wrapper", `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%"},"mode":"always-ask","ui":false}`,
		`{"outcome":"throw","effects":0,"prompts":0,"toolCalls":1,"errorIncludes":"requires approval but no interactive UI available"}`},
	{"wrapper", `{"tool":"%TOOL%","approval":{"tier":"exec","policy":"deny"},"args":{"action":"%WORD%"},"revise":{"action":"inspect"},"mode":"yolo"}`,
		`{"outcome":"throw","effects":0,"prompts":0,"toolCalls":0,"errorIncludes":"blocked by tool policy"}`},
	{"wrapper", `{"tool":"%TOOL%","approval":"exec","args":{"action":"%WORD%"},"mode":"always-ask","ui":"rpc","choices":["Approve"]}`,
		`{"outcome":"return","effects":1,"prompts":1,"toolCalls":1,"input":{"action":"%WORD%"},"rpcRequests":1}`},
	{"wrapper", `{"tool":"%TOOL%","approval":"read","args":{"action":"%WORD%"},"mode":"yolo","choices":["Approve"],"safetyCheck":"Shelf check %WORD%"}`,
		`{"outcome":"return","effects":1,"prompts":1,"toolCalls":1,"providerSafetyApproved":true,"promptIncludes":"Shelf check %WORD%"}`},
	{"wrapper", `{"tool":"%TOOL%","approval":"read","args":{"action":"%WORD%"},"revise":{"action":"%WORD%-revised"},"mode":"write"}`,
		`{"outcome":"return","effects":1,"prompts":0,"toolCalls":1,"input":{"action":"%WORD%-revised"}}`},
	{"wrapper", `{"tool":"%TOOL%","approval":{"tier":"exec","policy":"prompt","reason":"%WORD% audit"},"mode":"yolo","userPolicies":{"%TOOL%":"allow"},"choices":["approve"]}`,
		`{"outcome":"throw","effects":0,"prompts":1,"promptIncludes":"Reason: %WORD% audit","errorIncludes":"denied by user"}`},
	{"fallback", `{"code":"EACCES","message":"Denied %WORD% note"}`,
		`{"outcome":"throw-same-error","effects":0,"primitiveAttempts":1}`},
	{"fallback", `{"code":"ENOENT","message":"No %WORD% folder","handlers":["complete"]}`,
		`{"outcome":"return","effects":1,"primitiveAttempts":2,"handlerCalls":0}`},
	{"fallback", `{"code":"EPERM","message":"%WORD% refused","handlers":["decline","fail","complete"]}`,
		`{"outcome":"return","effects":0,"primitiveAttempts":1,"handlerCalls":3}`},
	{"fallback", `{"code":"ENOENT","message":"missing %WORD%","mkdirError":{"code":"EACCES","message":"mkdir %WORD% denied"},"handlers":["decline"]}`,
		`{"outcome":"throw-same-error","effects":0,"handlerCalls":1,"causeIncludes":"mkdir %WORD% denied"}`},
	{"classify-error", `{"code":"ENOENT","message":"ENOENT opening %WORD%/EACCES/card"}`,
		`{"permissionDenied":false,"effects":0}`},
	{"classify-error", `{"message":"EACCES: %WORD% refusal"}`,
		`{"permissionDenied":true,"effects":0}`},
	{"classify-error", `{"kind":"object","code":"EACCES","message":"EACCES %WORD%"}`,
		`{"permissionDenied":false,"effects":0}`},
}

// shapes are the generated OMP shapes followed by the cases of every other
// bundled desk (as written: they pass on the correct models).
var shapes = func() []template {
	out := append([]template{}, templates...)
	own := map[string]bool{}
	for _, t := range templates {
		own[t.scenario] = true
	}
	for _, f := range cases.Files() {
		gjson.GetBytes(f.Data, "cases").ForEach(func(_, c gjson.Result) bool {
			// A case whose lesson is an acknowledged lint warning would
			// bring its note along: generated desks stay free of notes.
			if sc := c.Get("scenario").String(); !own[sc] && !c.Get("acknowledge").Exists() {
				out = append(out, template{sc, c.Get("given").Raw, c.Get("expected").Raw})
			}
			return true
		})
	}
	return out
}()

var words = []string{"publish", "inspect", "shelve", "catalogue", "lend", "return", "archive", "label", "sort", "mend", "weigh", "sow"}

// Desk returns desk number d holding cases first to first+n-1; ids are
// unique across all desks of a suite.
func Desk(d, first, n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{
  "schemaVersion": 1,
  "id": "generated-%04d",
  "title": "Generated desk %d",
  "label": "GENERATED TEACHING DATA — DO NOT EXECUTE COMMAND STRINGS",
  "sources": {"wrapper": "wrapper.ts", "fallback": "file-write-fallback.ts"},
  "cases": [`, d, d)
	for i := 0; i < n; i++ {
		k := first + i
		t := shapes[k%len(shapes)]
		word := words[(k/len(shapes))%len(words)]
		r := strings.NewReplacer("%TOOL%", fmt.Sprintf("tool_%d", k%7), "%WORD%", word, "%N%", fmt.Sprint(k%1000))
		ref := "fallback"
		if t.scenario == "wrapper" {
			ref = "wrapper"
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n    {\"id\": \"case-%07d\", \"title\": \"Generated %s case %d\", \"scenario\": %q,\n     \"given\": %s,\n     \"expected\": %s,\n     \"why\": \"Generated.\", \"sourceRefs\": [%q]}",
			k, t.scenario, k, t.scenario, r.Replace(t.given), r.Replace(t.expected), ref)
	}
	b.WriteString("\n  ]\n}\n")
	return []byte(b.String())
}

// File is one generated desk file.
type File struct {
	Name string
	Data []byte
}

// Suite returns total cases spread over files of perFile cases.
func Suite(total, perFile int) []File {
	var out []File
	for d := 0; d*perFile < total; d++ {
		n := min(perFile, total-d*perFile)
		out = append(out, File{Name: fmt.Sprintf("generated-%04d.json", d), Data: Desk(d, d*perFile, n)})
	}
	return out
}
