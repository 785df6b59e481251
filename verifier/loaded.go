package verifier

import (
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/schema"
	"github.com/deskcheck/deskcheck/verifier/load"
)

// What package load reads, under the names judging and its callers use.
type (
	Desk        = load.Desk
	Case        = load.Case
	Claim       = load.Claim
	Field       = load.Field
	Input       = load.Input
	Limits      = load.Limits
	Severity    = load.Severity
	Diagnostic  = load.Diagnostic
	Diagnostics = load.Diagnostics
)

// Severities.
const (
	Error   = load.Error
	Warning = load.Warning
)

// MaxDepth is load.MaxDepth.
const MaxDepth = load.MaxDepth

// SchemaVersion is load.SchemaVersion.
const SchemaVersion = load.SchemaVersion

// DefaultLimits are the limits unless the caller sets others.
var DefaultLimits = load.DefaultLimits

// Load is load.Load.
func Load(reg *scenario.Registry, path string, data []byte, limits Limits) (*Desk, Diagnostics) {
	return load.Load(reg, path, data, limits)
}

// Scan is load.Scan.
func Scan(path string, data []byte, limits Limits) Diagnostics {
	return load.Scan(path, data, limits)
}

// ReadPaths is load.ReadPaths.
func ReadPaths(paths []string, limits Limits) ([]Input, Diagnostics, error) {
	return load.ReadPaths(paths, limits)
}

// ListPaths is load.ListPaths: the inputs under paths, not yet read.
func ListPaths(paths []string, limits Limits) ([]Input, Diagnostics, error) {
	return load.ListPaths(paths, limits)
}

// LimitNames is load.LimitNames.
func LimitNames(reg *scenario.Registry) []string { return load.LimitNames(reg) }

// CompiledCaseSchema is load.CompiledCaseSchema.
func CompiledCaseSchema(reg *scenario.Registry) (*schema.Schema, error) {
	return load.CompiledCaseSchema(reg)
}

var suggest = load.Suggest

// Thousands writes n with a comma between groups of three digits, as
// every message and page of deskcheck writes a count.
func Thousands(n int) string { return load.Thousands(n) }

var (
	thousands    = load.Thousands
	overLimit    = load.OverLimit
	pointerToken = load.PointerToken
	gjsonPath    = load.GJSONPath
)
