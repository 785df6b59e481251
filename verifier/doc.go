// Package verifier turns case files into verdicts: it loads desks,
// validates them against the case schema, lints them, runs each case
// through its scenario against the host model with recorders wired in, and
// compares what the recorders observed with what the author expected.
//
// A file's bytes are read first by one reader that does not recurse
// (check, in scan.go): JSON syntax, nesting, duplicate keys, numbers and
// string lengths, with diagnostics linear in the file and capped. Only a
// file it passes reaches gjson and the schema validator, whose recursion
// the depth limit then bounds. What a file and a run may ask the host
// models to do is bounded before anything runs (Limits, Case.Work), and a
// run's trace while it runs.
//
// Data flows one way: bytes → Load (Diagnostics) → Lint → Run → Compare →
// Result. Lint problems are diagnostics, not case failures; a case that
// fails is not a crash; a case that cannot run is errored.
package verifier
