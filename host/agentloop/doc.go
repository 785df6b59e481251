// Package agentloop is an executable model of a bounded agent runner, the
// host of the runner scenario (the package is not called runner, so that it
// does not read as the omp package's Runner).
//
// A scripted mock model makes one decision per step: a tool request or a
// final answer. The runner checks every request before anything runs —
// known tool, write grant, exact argument names, short string arguments,
// then the tool budget — counts each validated attempt before its tool
// runs (failures included), stops at the step limit, when the script runs
// out, or on the final answer, and writes one trace row per step with the
// observation a Python runner would print.
//
// Tools are fixtures: calc is the bounded calculator of package calc;
// lookup_user reads a fixed two-entry fictional directory; save_draft
// appends to an in-memory draft list that lives for one Run. Nothing is
// executed, read or written outside the model: tool names, arguments and
// expressions are data.
//
// Faults switch the model into one boundary bug each (faults.go), for
// measuring which rules a suite of cases pins.
//
// Limits: script entries arrive already validated (an entry is a tool
// request or a final answer); argument values are raw JSON, decoded as the
// runner's json.loads decodes them: a lone surrogate escape is kept and
// counts as one code point, and invalid UTF-8 counts as one replacement
// character a byte.
// There is no package-level mutable state; a Run shares nothing with
// another.
package agentloop
