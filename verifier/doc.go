// Package verifier judges desks: its one job is turning loaded cases into
// verdicts. It lints desks (package load reads and builds them), runs each
// case through its scenario against the host model with recorders wired
// in, on each behaviour group of its releases, and compares what the
// recorders observed with what the author expected; it measures strength,
// dimensions, coverage and drift on top of those runs.
//
// What a file and a run may ask the host models to do is bounded before
// anything runs (Limits, Case.Work), and a run's trace while it runs.
//
// Data flows one way: bytes → load.Load (Diagnostics) → Lint → Run →
// Compare → Result. Lint problems are diagnostics, not case failures; a
// case that fails is not a crash; a case that cannot run is errored.
package verifier
