package reports

import (
	"regexp"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

// lintCheck is a check of the loader or of lint, told by the summary it
// writes: SARIF names one rule per check.
type lintCheck struct {
	name, description string
	match             *regexp.Regexp
}

// lintChecks are the checks whose problems deskcheck reports, in the order
// they are tried.
var lintChecks = []lintCheck{
	{"malformed-json", "The file is not well-formed JSON.", regexp.MustCompile(`^malformed JSON`)},
	{"unreadable", "A path named on the command line cannot be read.", regexp.MustCompile(`^cannot be read`)},
	{"skipped", "A file found in a folder was skipped.", regexp.MustCompile(`^skipped`)},
	{"schema-version", "The desk's schemaVersion is not one this deskcheck reads.", regexp.MustCompile(`^unsupported schemaVersion`)},
	{"whole-number", "A value that must be a whole number is not one.", regexp.MustCompile(`^a whole number is expected`)},
	{"duplicate-desk-id", "Two desks share an id.", regexp.MustCompile(`^duplicate desk id`)},
	{"duplicate-id", "Two cases or claims of one desk share an id.", regexp.MustCompile(`^duplicate id`)},
	{"label", "The desk's label does not warn readers: DO NOT EXECUTE.", regexp.MustCompile(`^the label should warn`)},
	{"empty-desk", "The desk holds no case.", regexp.MustCompile(`^the desk holds no case`)},
	{"source-ref", "A sourceRef names no key of the desk's sources.", regexp.MustCompile(`^sourceRef .* names no key of sources`)},
	{"unknown-scenario", "A case names a scenario no host has.", regexp.MustCompile(`^unknown scenario`)},
	{"expected-key", "An expected key is not observed by the case's scenario.", regexp.MustCompile(`^expected key .* is not observed by scenario`)},
	{"limit", "A value or the scripted work is over a limit.", regexp.MustCompile(`over the limit of [0-9]+`)},
	{"pairing", "Denied controls without an allowed one, or the reverse.", regexp.MustCompile(`^(no allowed control|family .* has no (allowed|denied) control)`)},
	{"placeholder", "Text or an id left from deskcheck new.", regexp.MustCompile(`^placeholder `)},
	{"more", "Problems left out of a file's list, counted.", regexp.MustCompile(`^… and [0-9,]+ more$`)},
}

// Fallback checks: an error the rules above do not name is the case
// schema's (or a scenario's own check of its given block); a warning is a
// scenario's own check.
var (
	schemaCheck   = lintCheck{name: "case-schema", description: "The file does not match the case schema, or a scenario refuses its given block."}
	scenarioCheck = lintCheck{name: "scenario", description: "A scenario's own check of a case's given block."}
)

// checkOf names the check that made d.
func checkOf(d verifier.Diagnostic) lintCheck {
	if d.Name != "" {
		// A named warning is its own rule, under the name a desk
		// acknowledges it by.
		for _, c := range lintChecks {
			if c.name == d.Name {
				return c
			}
		}
		return lintCheck{name: d.Name, description: "The lint warning " + d.Name + " (deskcheck help validate lists every warning name)."}
	}
	for _, c := range lintChecks {
		if c.match.MatchString(d.Summary) {
			return c
		}
	}
	if d.Severity == verifier.Warning {
		return scenarioCheck
	}
	return schemaCheck
}

// ruleToken makes a name fit a rule id: lower case letters, digits and
// single dashes.
func ruleToken(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "unnamed"
	}
	return b.String()
}

// mismatchKind is the comparer a mismatch names, as a rule token: a key
// the scenario does not observe is its own kind.
func mismatchKind(m verifier.Mismatch) string {
	if strings.HasPrefix(m.Comparison, "not observed by scenario") {
		return "not-observed"
	}
	return ruleToken(m.Comparison)
}
