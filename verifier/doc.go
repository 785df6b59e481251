// Package verifier reads desks and judges them: it turns case files into
// verdicts.
//
// Reading: it reads files and folders (skipping a report folder), reads a
// file's bytes first with one reader that does not recurse (scan.go: JSON
// syntax, nesting, duplicate keys, numbers and string lengths, with
// diagnostics linear in the file and capped), validates what that reader
// passes against the case schema, rewords schema problems in the
// scenario's own terms, and builds the desk: its cases compiled once by
// their scenarios, their hosts keys checked and their releases resolved,
// their acknowledgements as written. It locates diagnostics by JSON
// pointer (file:line:col) and holds the limits a file is read within.
//
// Judging: it lints desks, runs each case through its scenario against
// the host model with recorders wired in, on each behaviour group of its
// releases, and compares what the recorders observed with what the author
// expected; it measures strength, dimensions, coverage and drift on top of
// those runs.
//
// What a file and a run may ask the host models to do is bounded before
// anything runs (Limits, Case.Work), and a run's trace while it runs.
//
// Data flows one way: bytes → Load (Diagnostics) → Lint → Run →
// Compare → Result. Lint problems are diagnostics, not case failures; a
// case that fails is not a crash; a case that cannot run is errored.
package verifier
