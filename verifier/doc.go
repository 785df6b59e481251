// Package verifier turns case files into verdicts: it loads desks (gjson,
// rejecting duplicate keys), validates them against the case schema, lints
// them, runs each case through its scenario against the host model with
// recorders wired in, and compares what the recorders observed with what
// the author expected.
//
// Data flows one way: bytes → Load (Diagnostics) → Lint → Run → Compare →
// Result. Lint problems are diagnostics, not case failures; a case that
// fails is not a crash; a case that cannot run is errored.
package verifier
