package verifier

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// The engine's tests take a few scenarios of the registered families as
// examples. Each is found in the registry by what the tests need of it,
// so that no test names a family; the tests' text says {prompt} and the
// like, which named expands.
var (
	// exPrompt is the scenario that declares a repeat limit: one tool call
	// behind approval prompts (given approval, mode, ui, choices, repeat;
	// expected outcome, effects, prompts), on a host of numbered releases.
	exPrompt = exampleScenario("declares a repeat limit", func(sc *scenario.Scenario) bool {
		return slices.ContainsFunc(sc.Limits, func(l scenario.Limit) bool { return l.Name == "repeat" })
	})
	// exRetry is the scenario that observes handlerCalls: a failed write
	// and the handlers that may retry it (given code, message, handlers).
	exRetry = exampleScenario("observes handlerCalls", observes("handlerCalls"))
	// exClassify is the scenario that observes permissionDenied: an error
	// classified as a denial or not (given code, message).
	exClassify = exampleScenario("observes permissionDenied", observes("permissionDenied"))
	// exRequests is the scenario that declares a steps limit: requests through
	// a gateway that decides each (given principal, records, steps).
	exRequests = exampleScenario("declares a steps limit", func(sc *scenario.Scenario) bool {
		return slices.ContainsFunc(sc.Limits, func(l scenario.Limit) bool { return l.Name == "steps" })
	})
	// exPolicy is the scenario that observes heuristics: a policy engine's
	// decision on one tool call (given tool; expected decision, outcome).
	exPolicy = exampleScenario("observes heuristics", observes("heuristics"))
)

// exampleScenario is the one registered scenario that has, as what says,
// the property is; the tests cannot run without it.
func exampleScenario(what string, is func(*scenario.Scenario) bool) *scenario.Scenario {
	var found []*scenario.Scenario
	for _, name := range testReg.Names() {
		if sc, _, _ := testReg.Lookup(name); is(sc) {
			found = append(found, sc)
		}
	}
	if len(found) != 1 {
		panic(fmt.Sprintf("the engine's tests need one registered scenario that %s, and %d do", what, len(found)))
	}
	return found[0]
}

// observes says whether a scenario observes key.
func observes(key string) func(*scenario.Scenario) bool {
	return func(sc *scenario.Scenario) bool { _, ok := sc.Expected.Comparer(key); return ok }
}

// hostOf is the name of the host of the scenario sc.
func hostOf(sc *scenario.Scenario) string {
	_, fam, _ := testReg.Lookup(sc.Name)
	return fam.Host.Name
}

// named expands the examples' placeholders in text: {prompt}, {retry},
// {classify}, {requests} and {policy} are those scenarios' names, {host} the
// host of {prompt}, {requestsHost} that of {requests} and {policyHost} that of
// {policy}.
func named(text string) string {
	return strings.NewReplacer(
		"{prompt}", exPrompt.Name, "{retry}", exRetry.Name, "{classify}", exClassify.Name,
		"{requests}", exRequests.Name, "{policy}", exPolicy.Name,
		"{host}", hostOf(exPrompt), "{requestsHost}", hostOf(exRequests), "{policyHost}", hostOf(exPolicy),
	).Replace(text)
}
