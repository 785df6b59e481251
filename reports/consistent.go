package reports

import (
	"fmt"

	"github.com/deskcheck/deskcheck/verifier"
)

// checkConsistent refuses a report that contradicts itself where the
// schema cannot see it: a case listed twice, a status its mismatches or
// its releases' verdicts contradict. (The summary and the verdict are
// held to the cases by checkVerdicts.) Each problem names where it is.
func checkConsistent(r *Report) error {
	k := consistency{first: make(map[string]int, len(r.Cases))}
	for i := range r.Cases {
		if err := k.check(i, &r.Cases[i]); err != nil {
			return err
		}
	}
	return checkRealCode(r.RealCode)
}

// caseConsistent holds one case, id at where, to its mismatches and its
// releases' verdicts.
func caseConsistent(where, id string, c *Case) error {
	switch n := len(c.Mismatches); {
	case c.Status == verifier.Pass && n > 0:
		return contradiction(where, "case %s passed, yet lists %s", id, plural(n, "mismatch", "mismatches"))
	case c.Status == verifier.Fail && n == 0:
		return contradiction(where, "case %s failed, yet lists no mismatch", id)
	case c.Status == verifier.NotApplicable && n > 0:
		return contradiction(where, "case %s was not applicable, yet lists %s", id, plural(n, "mismatch", "mismatches"))
	}
	if len(c.Releases) == 0 {
		return nil
	}
	if want := foldReleases(c.Releases); want != c.Status {
		return contradiction(where, "case %s is %s, but its releases' verdicts make it %s", id, c.Status, want)
	}
	return nil
}

// foldReleases is a case's status from its releases' verdicts, as verify
// folds them: errored if any errored, else failed if any failed, else
// passed if any passed, else not applicable.
func foldReleases(vs []verifier.ReleaseVerdict) verifier.Status {
	status := verifier.NotApplicable
	for _, v := range vs {
		switch {
		case v.Status == verifier.Errored:
			return verifier.Errored
		case v.Status == verifier.Fail:
			status = verifier.Fail
		case v.Status == verifier.Pass && status == verifier.NotApplicable:
			status = verifier.Pass
		}
	}
	return status
}

func contradiction(where, format string, args ...any) error {
	return fmt.Errorf("not deskcheck evidence: %s: %s", where, OneLine(fmt.Sprintf(format, args...)))
}
