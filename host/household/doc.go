// Package household is an executable model of a bounded runtime for a
// financial agent, the host of the household scenario.
//
// A scripted candidate model answers one JSON decision at a time. The
// package models, rule for rule:
//
//   - the decision loop: a decision budget checked before the clock, a
//     total deadline checked before each model request and again after
//     each response (a late response is discarded unparsed), strict
//     parsing of raw responses with no repair, the decision shape and the
//     final-result check that keeps runtime outcomes out of the model's
//     reach (household.go);
//   - the tool boundary's admit: every attempt is recorded as a deep copy
//     before it is authorised, then the available-tool check, the
//     arguments-object check and the household allowlist on any tool's
//     arguments (household.go);
//   - the contracts of the three read-only tools: portfolio.read,
//     future_value (yearly compounding, Python rounding, the trimmed
//     scenario written back to the live arguments) and concentration
//     (inputs compared with the last authorised snapshot as Python str()
//     text, output computed from the snapshot's own figures) (tools.go);
//   - tool timeouts, evidence ids by position in the record, the six-key
//     user-facing result assembled from trusted records, the restricted
//     diagnostics and the typed-claims scorer (household.go, result.go);
//   - a strict JSON reader that keeps key order and number literals
//     (json.go);
//   - eleven boundary faults for fault-injection (faults.go).
//
// The fixtures are two fictional households, hh-anand and hh-bose, with a
// snapshot dated 2026-03-31; no real money, accounts or market data.
//
// Not modelled: the candidate model itself (its decisions are data), the
// text it reads, message history, tool workers (their outputs come from
// fixtures, a timeout is an input), retries and repair of bad responses,
// and real time: the clock is the latencies and tool seconds of the
// input, added in order as doubles. The package executes nothing, reads no
// file and opens no connection.
//
// There is no package-level mutable state; two runs share nothing.
package household
