// Package load turns case files into desks: its one job is reading. It
// reads files and folders (skipping a report folder), reads a file's bytes
// first with one reader that does not recurse (check, in scan.go: JSON
// syntax, nesting, duplicate keys, numbers and string lengths, with
// diagnostics linear in the file and capped), validates what that reader
// passes against the case schema, rewords schema problems in the
// scenario's own terms, and builds the desk: its cases compiled once by
// their scenarios, their hosts keys checked and their releases resolved,
// their acknowledgements as written. It locates diagnostics by JSON
// pointer (file:line:col) and holds the limits a file is read within.
//
// It judges nothing: lint, runs and comparisons are package verifier's.
package load
