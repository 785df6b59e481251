package verifier

import (
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
)

// readHosts reads a schema-valid hosts object: family name → range.
func readHosts(v gjson.Result) map[string]string {
	if !v.IsObject() {
		return nil
	}
	out := map[string]string{}
	v.ForEach(func(k, r gjson.Result) bool {
		out[k.Str] = r.Str
		return true
	})
	return out
}

// checkHosts checks the desk's hosts and every case's, and resolves the
// releases each case is judged on: those its range selects (the case's
// own range, else the desk's), or the host's default when neither names
// its host (the newest version; every program of a host of named releases).
// The desk's own hosts are not checked when deskBroken: the schema errors
// outside the cases may lie there.
func (d *Desk) checkHosts(deskBroken bool) Diagnostics {
	var ds Diagnostics
	var names []string
	byName := map[string]*scenario.Family{}
	fams := d.reg.Families()
	for i := range fams {
		names = append(names, fams[i].Host.Name)
		byName[fams[i].Host.Name] = &fams[i]
	}
	check := func(base string, hosts map[string]string, own string) {
		keys := make([]string, 0, len(hosts))
		for k := range hosts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ptr := base + "/hosts/" + jsontext.PointerToken(k)
			f := byName[k]
			switch {
			case f == nil:
				ds = append(ds, d.diag(Error, ptr, true, "unknown host %q (known: %s)%s", k, strings.Join(names, ", "), suggest(k, names)))
			case own != "" && k != own:
				ds = append(ds, d.diag(Error, ptr, true, "this case runs on host %s, not %s: name its releases under %q", own, k, own))
			case len(f.Host.Releases) == 0:
				ds = append(ds, d.diag(Error, ptr, true, "host %s models no releases, so a release range cannot be named for it", k))
			default:
				if _, err := f.Host.SelectReleases(hosts[k]); err != nil {
					ds = append(ds, d.diag(Error, ptr, false, "%v", err))
				}
			}
		}
	}
	if !deskBroken {
		check("", d.Hosts, "")
	}
	for _, c := range d.Cases {
		if c.fam == nil {
			continue
		}
		check(c.Pointer, c.Hosts, c.fam.Host.Name)
		if len(c.fam.Host.Releases) == 0 {
			continue
		}
		name := c.fam.Host.Name
		expr, ok := c.Hosts[name]
		if !ok {
			expr, ok = d.Hosts[name]
		}
		if !ok {
			c.releases = c.fam.Host.Default()
			continue
		}
		c.Range = expr
		c.releases, _ = c.fam.Host.SelectReleases(expr)
	}
	return ds
}

// Releases returns the releases the case is judged on when no -host pins
// its host: those its range selects, or the newest. Nil when its host has
// no releases.
func (c *Case) Releases() []scenario.Release { return c.releases }
