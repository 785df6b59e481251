package ompcheck

import (
	"context"
	_ "embed"
	"errors"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
)

// errorValue is a {code, message} pair from a case.
type errorValue struct {
	Code    *string
	Message string
}

// set reads key k of a schema-valid given block or error object into v,
// reporting whether k was one of its keys.
func (v *errorValue) set(k string, val gjson.Result) bool {
	switch k {
	case "code":
		code := jsString(val)
		v.Code = &code
	case "message":
		v.Message = jsString(val)
	default:
		return false
	}
	return true
}

// readErrorValue reads a schema-valid error object.
func readErrorValue(obj gjson.Result) *errorValue {
	v := &errorValue{}
	obj.ForEach(func(k, val gjson.Result) bool {
		v.set(k.Str, val)
		return true
	})
	return v
}

// hostError makes the host error object for v: without a code, it carries
// none.
func (v *errorValue) hostError() *omp.Error {
	if v == nil {
		return nil
	}
	e := &omp.Error{Message: v.Message}
	if v.Code != nil {
		e.Code = *v.Code
	}
	return e
}

//go:embed fallback.schema.json
var fallbackSchema []byte

// Fallback is the scenario of one write through the host's file-write
// fallback.
var Fallback = scenario.Declare(&scenario.Scenario{
	Name:        "fallback",
	Description: "one write through the host's file-write fallback over an inert writer",
	Unit:        "call",
	Schema:      fallbackSchema,
	Expected: scenario.Observables{
		{Key: "outcome", Comparer: scenario.Exact}, {Key: "effects", Comparer: scenario.Exact, Count: true},
		{Key: "primitiveAttempts", Comparer: scenario.Exact, Count: true}, {Key: "handlerCalls", Comparer: scenario.Exact, Count: true},
		{Key: "errorIncludes", Comparer: scenario.Substring}, {Key: "causeIncludes", Comparer: scenario.Substring},
	},
	Template: `{
        "code": "ENOENT",
        "message": "Placeholder: no such fictional folder",
        "retryError": { "code": "EACCES", "message": "Placeholder: retry denied" },
        "mkdirError": { "code": "EACCES", "message": "Placeholder: parent folder denied" },
        "handlers": ["decline", "fail"]
      }`,
	SourceKey: "fallback",
	Picture:   picture,
	Deciding:  []string{"fallback"},
}, scenario.Kind[*fallbackGiven, fallbackPlan, fallbackEvidence]{
	Decode:   decodeFallback,
	Plan:     planFallback,
	Run:      runFallback,
	Boundary: fallbackBoundary,
	Suggest: func(g *fallbackGiven, obs map[string]any) []string {
		keys := []string{"outcome", "effects", "primitiveAttempts"}
		if g.hasHandlers {
			keys = append(keys, "handlerCalls")
		}
		for _, k := range []string{"errorIncludes", "causeIncludes"} {
			if obs[k] != nil {
				keys = append(keys, k)
			}
		}
		return keys
	},
})

// FallbackTarget is the fictional path a fallback case writes to.
const FallbackTarget = "/fictional/seed-shelf/card.txt"

// fallbackGiven is the decoded given block of a fallback case.
type fallbackGiven struct {
	errorValue
	RetryError  *errorValue
	MkdirError  *errorValue
	Handlers    []string
	hasHandlers bool // given.handlers is present, perhaps empty
}

// decodeFallback reads a schema-valid given block in one pass.
func decodeFallback(givenJSON []byte) (*fallbackGiven, error) {
	g := &fallbackGiven{}
	gjson.ParseBytes(givenJSON).ForEach(func(k, v gjson.Result) bool {
		switch {
		case g.set(k.Str, v):
		case k.Str == "retryError":
			g.RetryError = readErrorValue(v)
		case k.Str == "mkdirError":
			g.MkdirError = readErrorValue(v)
		case k.Str == "handlers":
			g.Handlers = stringList(v)
			g.hasHandlers = true
		}
		return true
	})
	return g, nil
}

func runFallback(ctx context.Context, g *fallbackGiven, env scenario.Env) (scenario.Observation, fallbackEvidence, error) {
	if _, _, err := release(env, "fallback"); err != nil {
		return scenario.Observation{}, fallbackEvidence{}, err
	}
	faults := adapter.FaultSet[omp.Fault](env)
	trace := env.Trace
	errs := []error{g.errorValue.hostError()}
	if g.RetryError != nil {
		errs = append(errs, g.RetryError.hostError())
	}
	writer := &Writer{Errors: errs, Trace: trace}
	ops := PathOps{Trace: trace}
	if g.MkdirError != nil {
		ops.MkdirErr = g.MkdirError.hostError()
	}
	fb := &omp.Fallbacks{Faults: faults, Mutation: mutationOf(env), OnHandlerError: func(err error) { trace.Add("handler", "the handler failed: %v; the next one is asked", err) }}
	handlers := &Handlers{Trace: trace}
	handlers.Register(fb, g.Handlers)
	if len(g.Handlers) == 0 {
		trace.Add("fallback", "no fallback handler is registered")
	} else {
		trace.Add("fallback", "fallback handlers registered, in order: %s", strings.Join(g.Handlers, ", "))
	}

	err := fb.WriteFile(ctx, FallbackTarget, []byte("fictional seed note"), writer, ops, "")
	obs := scenario.Observation{Values: map[string]any{
		"outcome":           "return",
		"effects":           writer.Successes(),
		"primitiveAttempts": writer.Attempts(),
		"handlerCalls":      handlers.Calls(),
		"errorIncludes":     nil,
		"causeIncludes":     nil,
	}}
	switch {
	case err == nil:
		trace.Add("outcome", "return")
	case writer.Produced(err):
		obs.Values["outcome"] = "throw-same-error"
		trace.Add("outcome", "throw the writer's own error: %s", ErrorText(err))
	default:
		obs.Values["outcome"] = "throw"
		trace.Add("outcome", "throw an error the writer did not produce: %s", ErrorText(err))
	}
	if err != nil {
		obs.Values["errorIncludes"] = err.Error()
		if cause := errors.Unwrap(err); cause != nil {
			obs.Values["causeIncludes"] = cause.Error()
		}
	}
	message := ""
	if err != nil {
		message = err.Error()
	}
	obs.Points = fallbackPoints(trace.Events(), len(g.Handlers) > 0, err)
	return obs, fallbackEvidence{threw: err != nil, message: message, successes: writer.Successes(), attempts: writer.Attempts(), handlerCalls: handlers.Calls(), events: trace.Events()}, nil
}

//go:embed classify.schema.json
var classifySchema []byte

// Classify is the scenario of the host's permission-denied classifier.
var Classify = scenario.Declare(&scenario.Scenario{
	Name:        "classify-error",
	Description: "the host's permission-denied classifier on one thrown value",
	Unit:        "call",
	Schema:      classifySchema,
	Expected:    scenario.Observables{{Key: "permissionDenied", Comparer: scenario.Exact}, {Key: "effects", Comparer: scenario.Exact, Count: true}},
	Template: `{
        "code": "EACCES",
        "message": "EACCES: placeholder refusal",
        "kind": "error"
      }`,
	SourceKey: "fallback",
	Picture:   picture,
	Deciding:  []string{"classify"},
}, scenario.Kind[*classifyGiven, struct{}, struct{}]{
	Decode: decodeClassify,
	Run:    runClassify,
	Suggest: func(*classifyGiven, map[string]any) []string {
		return []string{"permissionDenied", "effects"}
	},
})

// classifyGiven is the decoded given block of a classify-error case.
type classifyGiven struct {
	errorValue
	Kind string
}

// decodeClassify reads a schema-valid given block in one pass.
func decodeClassify(givenJSON []byte) (*classifyGiven, error) {
	g := &classifyGiven{}
	gjson.ParseBytes(givenJSON).ForEach(func(k, v gjson.Result) bool {
		if !g.set(k.Str, v) && k.Str == "kind" {
			g.Kind = jsString(v)
		}
		return true
	})
	return g, nil
}

func runClassify(_ context.Context, g *classifyGiven, env scenario.Env) (scenario.Observation, struct{}, error) {
	if _, _, err := release(env, "classify-error"); err != nil {
		return scenario.Observation{}, struct{}{}, err
	}
	faults := adapter.FaultSet[omp.Fault](env)
	trace := env.Trace
	exec := &Executor{Trace: trace}
	var value any
	switch g.Kind {
	case "object":
		obj := map[string]any{"message": g.Message}
		if g.Code != nil {
			obj["code"] = *g.Code
		}
		value = obj
		trace.Add("classify", "classify a plain object (not an error): %s", jsonText(obj))
	case "string":
		value = g.Message
		trace.Add("classify", "classify a bare string: %s", jsontext.Quote(g.Message))
	default:
		e := g.errorValue.hostError()
		value = e
		if g.Code != nil {
			trace.Add("classify", "classify an error object with code %s and message %s", jsontext.Quote(*g.Code), jsontext.Quote(g.Message))
		} else {
			trace.Add("classify", "classify an error object without a code, message %s", jsontext.Quote(g.Message))
		}
	}
	denied, rule, why := omp.ClassifyRule(faults, value)
	if rule > 0 {
		trace.Add("classify", "decided by rule %d: %s", rule, why)
	} else {
		trace.Add("classify", "decided by %s", why)
	}
	if m := mutationOf(env); m.Active() {
		denied = omp.IsPermissionDeniedMutated(m, value)
	}
	trace.Add("outcome", "permission denied: %v", denied)
	return scenario.Observation{Values: map[string]any{"permissionDenied": denied, "effects": exec.Effects()},
		Points: []string{classifyPoint(g.Kind, g.Code != nil, denied)}}, struct{}{}, nil
}

func stringList(v gjson.Result) []string {
	var out []string
	v.ForEach(func(_, s gjson.Result) bool {
		out = append(out, jsString(s))
		return true
	})
	return out
}
