package omp

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// policies is the tools.approval setting as a release's approval code
// reads it: by own property, `Object.hasOwn(userConfig, key)` and then
// `userConfig[key]`.
//
// From 18.2.3 anything but a plain object is read as {}. Before, the raw
// value is used as it is (a null or absent one as {}): a string has its
// UTF-16 indexes and "length" as own properties, an array its indexes and
// "length", a number or a boolean none.
type policies struct {
	obj    map[string]any
	list   []any
	str    string
	strLen int
	kind   byte // 0: none, 'o': object, 'a': array, 's': string
}

// readPolicies reads a raw tools.approval value as group g does.
func readPolicies(raw any, g Group) policies {
	switch v := raw.(type) {
	case map[string]any:
		return policies{obj: v, kind: 'o'}
	case policies:
		return v
	}
	if g.PoliciesMustBeObject() {
		return policies{}
	}
	switch v := raw.(type) {
	case []any:
		return policies{list: v, kind: 'a'}
	case string:
		return policies{str: v, strLen: jsLength(v), kind: 's'}
	}
	return policies{}
}

// get returns the own property key, as the host reads it.
func (p policies) get(key string) (any, bool) {
	switch p.kind {
	case 'o':
		v, ok := p.obj[key]
		return v, ok
	case 'a':
		if key == "length" {
			return float64(len(p.list)), true
		}
		if i, ok := arrayIndex(key); ok && i < len(p.list) {
			return p.list[i], true
		}
	case 's':
		if key == "length" {
			return float64(p.strLen), true
		}
		if i, ok := arrayIndex(key); ok && i < p.strLen {
			// One UTF-16 code unit: never a policy. Its text is not
			// needed, only that it is there and is no policy.
			return "\ufffd", true
		}
	}
	return nil, false
}

// without returns p without the keys drop says to drop (object form only;
// other forms hold no policy a fault could drop).
func (p policies) without(drop func(v any) bool) policies {
	if p.kind != 'o' {
		return p
	}
	kept := make(map[string]any, len(p.obj))
	for k, v := range p.obj {
		if !drop(v) {
			kept[k] = v
		}
	}
	return policies{obj: kept, kind: 'o'}
}

// arrayIndex reads a canonical array index ("0", "17"; not "01" or "-1").
func arrayIndex(key string) (int, bool) {
	if key == "" || len(key) > 9 || (len(key) > 1 && key[0] == '0') {
		return 0, false
	}
	n, err := strconv.Atoi(key)
	if err != nil || n < 0 || strconv.Itoa(n) != key {
		return 0, false
	}
	return n, true
}

// jsLength is the length of s in UTF-16 code units; a lone surrogate in
// its three-byte (WTF-8) form counts as one.
func jsLength(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 && i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
			n++
			i += 3
			continue
		}
		n += utf16.RuneLen(r)
		i += w
	}
	return n
}
