package household

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"

	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/internal/pyrepr"
)

// The catalogue: three read-only tools.
const (
	ToolPortfolioRead = "portfolio.read"
	ToolFutureValue   = "future_value"
	ToolConcentration = "concentration"
)

// Catalogue returns the names of the three tools, in catalogue order.
func Catalogue() []string {
	return []string{ToolPortfolioRead, ToolFutureValue, ToolConcentration}
}

// InCatalogue reports whether name is one of the three tools.
func InCatalogue(name string) bool {
	return name == ToolPortfolioRead || name == ToolFutureValue || name == ToolConcentration
}

// FixtureDate is the date of every snapshot and every tool output.
const FixtureDate = "2026-03-31"

// DefaultHousehold is the only household authorised when the caller names
// none.
const DefaultHousehold = "hh-anand"

// Messages of refusals and invalid inputs. They are returned to the model
// as observations {"error": message}.
const (
	msgToolNotAvailable    = "tool is not available"
	msgArgumentsNotObject  = "arguments must be an object"
	msgHouseholdNotAllowed = "household is not authorised"
	msgPortfolioFields     = "unexpected portfolio fields"
	msgNoSnapshot          = "no snapshot for household"
	msgCalculatorFields    = "unexpected calculator fields"
	msgCalculatorInput     = "invalid calculator input"
	msgNoSnapshotRead      = "no authorised snapshot read"
	msgEvidenceDiffers     = "argument differs from authorised evidence"
)

// Method ids of the two calculators.
const (
	methodFutureValue   = "calc-fv-v1"
	methodConcentration = "calc-conc-v1"
)

// snapshotFigures are the fixed portfolio figures of a household.
type snapshotFigures struct {
	equity, eligible int64
}

// figures returns the fixture figures of a household with a snapshot.
func figures(household string) (snapshotFigures, bool) {
	switch household {
	case "hh-anand":
		return snapshotFigures{48000000, 120000000}, true
	case "hh-bose":
		return snapshotFigures{9100000, 13000000}, true
	}
	return snapshotFigures{}, false
}

// snapshot builds a fresh copy of a household's portfolio snapshot.
func snapshot(household string) (*object, bool) {
	f, ok := figures(household)
	if !ok {
		return nil, false
	}
	return newObject(
		"household", household,
		"as_of", FixtureDate,
		"currency", "INR",
		"equity_inr", json.Number(strconv.FormatInt(f.equity, 10)),
		"eligible_inr", json.Number(strconv.FormatInt(f.eligible, 10)),
	), true
}

// Snapshot returns the JSON text of a household's fixture snapshot.
func Snapshot(household string) (json.RawMessage, bool) {
	s, ok := snapshot(household)
	if !ok {
		return nil, false
	}
	return encodeJSON(s), true
}

// round is Python's round(x, places) for a double.
func round(x float64, places int) float64 { return pyrepr.Round(x, places) }

// number reads a JSON number that is not a boolean.
func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// scenarioSpace is what the scenario name is trimmed of.
const scenarioSpace = " \t\r\n"

// futureValueInputs validates the calculator's inputs; bad says which one
// fails, empty when all pass.
func futureValueInputs(args *object) (principal, rate float64, years int, scenario, bad string) {
	p, _ := args.get("principal_inr")
	r, _ := args.get("annual_rate")
	y, _ := args.get("years")
	s, _ := args.get("scenario")
	principal, ok := number(p)
	if !ok || !(principal > 0 && principal <= 1e12) {
		return 0, 0, 0, "", "principal_inr must be a number with 0 < p ≤ 10^12"
	}
	rate, ok = number(r)
	if !ok || !(rate >= 0 && rate <= 1) {
		return 0, 0, 0, "", "annual_rate must be a fraction with 0 ≤ r ≤ 1"
	}
	yn, ok := y.(json.Number)
	var err error
	if ok && isIntLiteral(yn) {
		years, err = strconv.Atoi(string(yn))
	}
	if !ok || !isIntLiteral(yn) || err != nil || years < 1 || years > 50 {
		return 0, 0, 0, "", "years must be a whole-number literal from 1 to 50"
	}
	text, ok := s.(string)
	if ok {
		scenario = strings.Trim(text, scenarioSpace)
	}
	if n := jsontext.CodePoints(scenario); !ok || n < 1 || n > 32 {
		return 0, 0, 0, "", "scenario must be a string of 1 to 32 characters once trimmed"
	}
	return principal, rate, years, scenario, ""
}

// futureValue compounds yearly by repeated multiplication and rounds to
// two decimals.
func futureValue(principal, rate float64, years int) float64 {
	f := 1.0
	for i := 0; i < years; i++ {
		f = f * (1 + rate)
	}
	return round(principal*f, 2)
}

// pyStr is Python's str() of a JSON value as far as the snapshot
// comparison needs it: the text of an int literal (its digits, "-0" as
// "0") or of a string; ok is false for every other value, whose str() can
// never be the digits of a snapshot figure (a float prints with ".0" or an
// exponent, a boolean as True/False, null as None, an array with "[", an
// object with "{").
func pyStr(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case json.Number:
		if !isIntLiteral(t) {
			return "", false
		}
		if t == "-0" {
			return "0", true
		}
		return string(t), true
	}
	return "", false
}

// sameAsSnapshot reports whether an argument matches a snapshot figure.
func sameAsSnapshot(arg any, figure int64, numeric bool) bool {
	if numeric {
		f, ok := number(arg)
		return ok && f == float64(figure)
	}
	s, ok := pyStr(arg)
	return ok && s == strconv.FormatInt(figure, 10)
}
