package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// span is a run of consecutive releases of a case's range on which the
// case behaves alike, with the block observed on them.
type span struct {
	host     string
	releases []string // oldest first
	keys     []string
	values   []json.RawMessage
	diff     []string
}

// name is how a line names the span's releases.
func (s span) name() string {
	return s.host + " " + releaseRun(s.releases)
}

// rangeExpr is a release range that selects the span's releases of its
// host, and no other of the case's.
func (s span) rangeExpr() string {
	if len(s.releases) == 1 {
		return "=" + s.releases[0]
	}
	return ">=" + s.releases[0] + " <=" + s.releases[len(s.releases)-1]
}

func releaseRun(rs []string) string {
	switch len(rs) {
	case 1:
		return rs[0]
	case 2:
		return rs[0] + ", " + rs[1]
	}
	return rs[0] + " … " + rs[len(rs)-1]
}

// settled is the expected block observe -w writes for a case judged on
// more than one behaviour group of its releases: the one block that holds
// on every release it is judged on, or, when there is none, why.
type settled struct {
	keys     []string
	values   []json.RawMessage
	diff     []string
	on       string // the releases observed, for the line that names them
	conflict []string
}

// spansOf runs the case on every behaviour group of the releases its
// result was judged on and returns the spans of consecutive releases
// that behave alike; nil when it was judged on one group or none.
func spansOf(ctx context.Context, res *verifier.Result) []span {
	c := res.Case
	judged := map[string]bool{}
	host := ""
	for _, v := range res.Releases {
		if v.Status != verifier.NotApplicable {
			judged[v.Release] = true
			host = v.Host
		}
	}
	var releases []scenario.Release
	groups := map[string]bool{}
	for _, r := range c.Releases() {
		if judged[r.Version] {
			releases = append(releases, r)
			groups[c.Group(r)] = true
		}
	}
	if len(groups) < 2 {
		return nil
	}
	// One run per group, on its newest release, as verify judges it.
	newest := map[string]string{}
	for _, r := range releases {
		newest[c.Group(r)] = r.Version
	}
	runs := map[string]observed{}
	for g, v := range newest {
		rs, err := verifier.Run(ctx, []*verifier.Case{c}, verifier.RunOptions{Once: true, Release: v})
		if err != nil {
			runs[g] = observed{err: firstLineOf(err.Error())}
			continue
		}
		r := rs[0]
		r.Release = v
		if r.Status == verifier.Errored {
			runs[g] = observed{err: firstLineOf(r.Err)}
			continue
		}
		k, vs, d := reports.ExpectedBlockOf(&r)
		runs[g] = observed{keys: k, values: vs, diff: d}
	}
	var spans []span
	last := ""
	for _, r := range releases {
		g := c.Group(r)
		o := runs[g]
		if o.err != "" {
			o.diff = []string{"  could not run: " + o.err}
		}
		if len(spans) > 0 && sameBlock(runs[last], o.keys, o.values) && runs[last].err == o.err {
			spans[len(spans)-1].releases = append(spans[len(spans)-1].releases, r.Version)
			continue
		}
		spans = append(spans, span{host: host, releases: []string{r.Version}, keys: o.keys, values: o.values, diff: o.diff})
		last = g
	}
	return spans
}

// observed is the block one run observes, or why it could not run.
type observed struct {
	keys   []string
	values []json.RawMessage
	diff   []string
	err    string
}

func sameBlock(o observed, keys []string, values []json.RawMessage) bool {
	if len(o.keys) != len(keys) {
		return false
	}
	for i := range keys {
		if o.keys[i] != keys[i] || !bytes.Equal(o.values[i], values[i]) {
			return false
		}
	}
	return true
}

// settle finds the one block that holds on every span: each key observed
// alike on all of them. An authored key observed differently (or left out
// on some) leaves no such block; a key only suggested is left out of it.
func settle(c *verifier.Case, spans []span) settled {
	var st settled
	newest := spans[len(spans)-1]
	authored := map[string]bool{}
	gjson.Parse(c.ExpectedRaw).ForEach(func(k, _ gjson.Result) bool {
		authored[k.String()] = true
		return true
	})
	for _, s := range spans {
		for _, d := range s.diff {
			if strings.HasPrefix(d, "  could not run: ") {
				st.conflict = append(st.conflict, fmt.Sprintf("could not run on %s: %s", s.name(), strings.TrimPrefix(d, "  could not run: ")))
			}
		}
	}
	if len(st.conflict) > 0 {
		return st
	}
	var order []string
	seen := map[string]bool{}
	for i := len(spans) - 1; i >= 0; i-- {
		for _, k := range spans[i].keys {
			if !seen[k] {
				seen[k] = true
				order = append(order, k)
			}
		}
	}
	kept := map[string]bool{}
	for _, k := range order {
		var vals []json.RawMessage
		alike := true
		for _, s := range spans {
			v := valueOf(s, k)
			vals = append(vals, v)
			alike = alike && v != nil && bytes.Equal(v, vals[0])
		}
		if alike {
			kept[k] = true
			st.keys, st.values = append(st.keys, k), append(st.values, vals[0])
			continue
		}
		if !authored[k] {
			st.diff = append(st.diff, fmt.Sprintf("  (%s is observed differently across the releases: not added)", reports.OneLine(k)))
			continue
		}
		var parts []string
		for i, s := range spans {
			v := "left out"
			if vals[i] != nil {
				v = shortValue(vals[i])
			}
			parts = append(parts, v+" on "+s.name())
		}
		st.conflict = append(st.conflict, reports.OneLine(k)+": "+strings.Join(parts, "; "))
	}
	var lines []string
	for _, d := range newest.diff {
		k := diffKey(d)
		if kept[k] || (authored[k] && !seen[k]) {
			lines = append(lines, d)
		}
	}
	st.diff = append(lines, st.diff...)
	var all []string
	for _, s := range spans {
		all = append(all, s.releases...)
	}
	st.on = fmt.Sprintf("observed on %s %s: this block holds on each", newest.host, releaseRun(all))
	return st
}

// valueOf is the value of key k in the span's block, nil when it has none.
func valueOf(s span, k string) json.RawMessage {
	for i, x := range s.keys {
		if x == k {
			return s.values[i]
		}
	}
	return nil
}

// diffKey is the key a ~ + - line of observe is about.
func diffKey(line string) string {
	rest := strings.TrimLeft(line, " ")
	if len(rest) < 2 {
		return ""
	}
	rest = rest[2:]
	if i := strings.IndexAny(rest, ":[."); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// shortValue is a value for a line: compact JSON, shortened.
func shortValue(v json.RawMessage) string {
	s := reports.OneLine(string(v))
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}

// unsettled is what observe -w says of a case no single block holds on:
// what differs, and the ranges that would each hold one.
func unsettled(c *verifier.Case, spans []span, conflict []string) string {
	var b strings.Builder
	where := "its hosts range"
	if c.Range != "" {
		where = fmt.Sprintf("its hosts range %q", c.Range)
	}
	fmt.Fprintf(&b, "  no one expected block holds on every release of %s, so it is left as it is:\n", reports.OneLine(where))
	for _, line := range conflict {
		fmt.Fprintf(&b, "    %s\n", line)
	}
	newest := spans[len(spans)-1]
	fmt.Fprintf(&b, "  narrow the case's range to the releases that behave as the newest, \"hosts\": {%q: %q}, or split it into a case for each range:", newest.host, newest.rangeExpr())
	for i, s := range spans {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s %q (%s)", sep, s.rangeExpr(), releaseRun(s.releases))
	}
	b.WriteString("\n")
	return b.String()
}
