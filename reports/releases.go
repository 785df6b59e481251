package reports

import (
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

// releaseList writes releases as "18.1.16, 18.1.17" or, past three,
// "17.2.15 … 18.3.4 (10 releases)": the releases of a case are a run of
// consecutive modelled releases.
func releaseList(rs []string) string {
	if len(rs) <= 3 {
		return strings.Join(rs, ", ")
	}
	return fmt.Sprintf("%s … %s (%d releases)", rs[0], rs[len(rs)-1], len(rs))
}

// releasesWith lists the releases of c whose verdict keep accepts.
func releasesWith(c *Case, keep func(verifier.ReleaseVerdict) bool) (host string, rs []string) {
	for _, v := range c.Releases {
		if keep(v) {
			host = v.Host
			rs = append(rs, v.Release)
		}
	}
	return host, rs
}

// JudgedOn says which host releases the case was judged on ("omp 18.3.4"),
// "" for a host without releases or a case judged on none.
func JudgedOn(c *Case) string {
	host, rs := releasesWith(c, func(v verifier.ReleaseVerdict) bool { return v.Status != verifier.NotApplicable })
	if len(rs) == 0 {
		return ""
	}
	return host + " " + releaseList(rs)
}

// FailedOn names the releases a failed or errored case did not hold on,
// and those it held on: "fails on omp 17.2.15, 17.3.5; holds on 18.1.16 …
// 18.3.4 (8 releases)". "" when the case has no releases.
func FailedOn(c *Case) string {
	host, bad := releasesWith(c, func(v verifier.ReleaseVerdict) bool {
		return v.Status == verifier.Fail || v.Status == verifier.Errored
	})
	if len(bad) == 0 {
		return ""
	}
	s := "fails on " + host + " " + releaseList(bad)
	if _, good := releasesWith(c, func(v verifier.ReleaseVerdict) bool { return v.Status == verifier.Pass }); len(good) > 0 {
		s += "; holds on " + releaseList(good)
	}
	if c.Release != "" && len(c.Releases) > 1 {
		s += "; shown: the run on " + c.Release
	}
	return s
}

// NotApplicableOn lists the releases the case is not applicable to, with
// the reasons: "not applicable: omp 17.3.5 has no file-write fallback".
func NotApplicableOn(c *Case) string {
	var reasons []string
	for _, v := range c.Releases {
		if v.Status == verifier.NotApplicable {
			reasons = appendOnce(reasons, v.Reason)
		}
	}
	if len(reasons) == 0 && c.Reason != "" {
		reasons = []string{c.Reason}
	}
	if len(reasons) == 0 {
		return ""
	}
	return "not applicable: " + strings.Join(reasons, "; ")
}

// releaseHost is the host family of the case's releases.
func releaseHost(c *Case) string {
	for _, v := range c.Releases {
		return v.Host
	}
	return ""
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
