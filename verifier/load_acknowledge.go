package verifier

import (
	"github.com/tidwall/gjson"
)

// warn makes a named warning at ptr.
func (d *Desk) warn(name, ptr string, key bool, format string, args ...any) Diagnostic {
	w := d.diag(Warning, ptr, key, format, args...)
	w.Name = name
	return w
}

// acknowledgements reads an acknowledge object: warning name → reason.
func acknowledgements(v gjson.Result) map[string]string {
	m := map[string]string{}
	v.ForEach(func(k, v gjson.Result) bool {
		m[k.Str] = v.Str
		return true
	})
	return m
}
