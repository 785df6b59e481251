// Package ompcheck runs deskcheck's OMP scenarios (wrapper, fallback,
// classify-error) against the host model in host/omp, with recorders it
// owns: a scripted and recording select UI, a synthetic RPC client that
// speaks the host's frames over a byte stream, an inert executor, an inert
// writer with its path steps and fallback handlers, and a recording
// tool_call handler.
//
// Every count a verdict rests on comes from these recorders, never from the
// case. Nothing here executes anything or touches a file: the executor and
// the writer only record what they were asked to do.
package ompcheck

import (
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/scenario"
)

// Family is the OMP host with its three scenarios and its faults.
var Family = scenario.Family{
	Host: scenario.Host{
		Name:      "omp",
		Model:     "host/omp",
		Reference: omp.Package + " " + omp.ReleaseNames() + " in four behaviour groups (approval, wrapper, RPC select, file-write fallback, classifier), on " + omp.ReleaseRuntime + "; " + omp.Release + " checked by host/omp/conformance",
		Releases:  Releases,
		Changes:   Changes,
		// A JavaScript program: JSON.parse reads its case.
		Values: scenario.JavaScript,
	},
	Scenarios: []*scenario.Scenario{Wrapper, Fallback, Classify},
	Faults:    adapter.Faults(omp.FaultList),
	Points:    Points,
	Mutants:   Mutants,
	Generate:  Generate,
	Shapes:    shapes,
	Worst:     worst,
}
