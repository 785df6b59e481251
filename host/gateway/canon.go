package gateway

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/gowebpki/jcs"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// This file is the only place that knows which canonicalization library is
// in use: swap it here and nothing else changes.

// DigestPrefix starts every digest string.
const DigestPrefix = "sha256:"

// IsDigest reports whether s has the digest format "sha256:" followed by 64
// lowercase hexadecimal digits.
func IsDigest(s string) bool {
	if len(s) != len(DigestPrefix)+64 || s[:len(DigestPrefix)] != DigestPrefix {
		return false
	}
	for i := len(DigestPrefix); i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Canonical returns the RFC 8785 canonical form of one JSON value given as
// raw bytes: members sorted by UTF-16 code units, numbers in ECMAScript
// form, minimal string escapes, no insignificant whitespace.
func Canonical(raw []byte) ([]byte, error) {
	return appendCanonical(nil, raw)
}

// appendCanonical appends the canonical form of raw to dst.
func appendCanonical(dst, raw []byte) ([]byte, error) {
	if out, ok := appendCanonicalFast(dst, raw); ok {
		return out, nil
	}
	out, err := jcs.Transform(raw)
	if err != nil {
		return nil, fmt.Errorf("canonical JSON: %w", err)
	}
	return append(dst, out...), nil
}

// Digest returns "sha256:" plus the lowercase hex SHA-256 of the canonical
// JSON of raw.
func Digest(raw []byte) (string, error) {
	d, _, err := digestWith(nil, raw)
	return d, err
}

// digestWith is Digest with a scratch buffer for the canonical form, which
// it returns for the next digest of the same run.
func digestWith(scratch, raw []byte) (string, []byte, error) {
	c, err := appendCanonical(scratch[:0], raw)
	if err != nil {
		return "", scratch, err
	}
	return hashOf(c), c, nil
}

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	var out [len(DigestPrefix) + 2*sha256.Size]byte
	copy(out[:], DigestPrefix)
	hex.Encode(out[len(DigestPrefix):], sum[:])
	return string(out[:])
}

// The canonical form of the values cases hold (objects of strings, small
// integers, literals) is written here directly: jcs builds a tree of
// strings and sorts members through reflection, which made digesting the
// most expensive part of a step. appendCanonicalFast accepts only valid
// JSON and answers ok=false where jcs would fail or where it does not
// follow jcs exactly (a lone surrogate escape, invalid UTF-8, a duplicate
// key, a number it cannot read, nesting deeper than maxFastDepth); jcs
// then gives the reference result or error. A test holds the two to the
// same output.

func appendCanonicalFast(dst, raw []byte) ([]byte, bool) {
	dst, end, ok := canonValue(dst, raw, jsontext.SkipSpace(raw, 0), 0)
	return dst, ok && jsontext.SkipSpace(raw, end) == len(raw)
}

// canonMember is one member of an object being canonicalized: its decoded
// key and where its value is written.
type canonMember struct {
	key        []byte
	start, end int
}

func canonValue(dst, b []byte, i, depth int) ([]byte, int, bool) {
	if i >= len(b) {
		return dst, -1, false
	}
	switch c := b[i]; {
	case c == '"':
		if end, plain := jsontext.ScanString(b, i); plain {
			// A plain token has no quote, backslash or control byte
			// inside: RFC 8785 writes it as it is.
			return append(dst, b[i:end]...), end, true
		}
		// Decode after dst, write the canonical form after the decoded
		// bytes, then move it down over them.
		n := len(dst)
		withDecoded, end, ok := decodeString(dst, b, i)
		if !ok {
			return dst, -1, false
		}
		decoded := len(withDecoded) - n
		out := appendCanonicalString(withDecoded, withDecoded[n:])
		copy(out[n:], out[n+decoded:])
		return out[:len(out)-decoded], end, true
	case c == '{':
		if depth >= maxFastDepth {
			return dst, -1, false
		}
		var buf [8]canonMember
		ms := buf[:0]
		i = jsontext.SkipSpace(b, i+1)
		if i < len(b) && b[i] == '}' {
			return append(dst, '{', '}'), i + 1, true
		}
		for {
			if i >= len(b) || b[i] != '"' {
				return dst, -1, false
			}
			kEnd, plain := jsontext.ScanString(b, i)
			if kEnd < 0 {
				return dst, -1, false
			}
			key := b[i+1 : kEnd-1]
			if !plain {
				var ok bool
				if key, kEnd, ok = decodeString(nil, b, i); !ok {
					return dst, -1, false
				}
			}
			i = jsontext.SkipSpace(b, kEnd)
			if i >= len(b) || b[i] != ':' {
				return dst, -1, false
			}
			i = jsontext.SkipSpace(b, i+1)
			vEnd := jsontext.ScanValue(b, i, depth+1)
			if vEnd < 0 {
				return dst, -1, false
			}
			ms = append(ms, canonMember{key, i, vEnd})
			if i = jsontext.SkipSpace(b, vEnd); i >= len(b) {
				return dst, -1, false
			}
			if b[i] == '}' {
				i++
				break
			}
			if b[i] != ',' {
				return dst, -1, false
			}
			i = jsontext.SkipSpace(b, i+1)
		}
		slices.SortFunc(ms, func(x, y canonMember) int { return compareUTF16(x.key, y.key) })
		dst = append(dst, '{')
		for k, m := range ms {
			if k > 0 {
				if compareUTF16(ms[k-1].key, m.key) == 0 {
					return dst, -1, false // jcs refuses a duplicate key
				}
				dst = append(dst, ',')
			}
			dst = appendCanonicalString(dst, m.key)
			dst = append(dst, ':')
			var ok bool
			if dst, _, ok = canonValue(dst, b, m.start, depth+1); !ok {
				return dst, -1, false
			}
		}
		return append(dst, '}'), i, true
	case c == '[':
		if depth >= maxFastDepth {
			return dst, -1, false
		}
		dst = append(dst, '[')
		i = jsontext.SkipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			return append(dst, ']'), i + 1, true
		}
		for first := true; ; first = false {
			if !first {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, i, ok = canonValue(dst, b, i, depth+1); !ok {
				return dst, -1, false
			}
			if i = jsontext.SkipSpace(b, i); i >= len(b) {
				return dst, -1, false
			}
			if b[i] == ']' {
				return append(dst, ']'), i + 1, true
			}
			if b[i] != ',' {
				return dst, -1, false
			}
			i = jsontext.SkipSpace(b, i+1)
		}
	case c == '-' || jsontext.IsDigit(c):
		end := jsontext.ScanNumber(b, i)
		if end < 0 {
			return dst, -1, false
		}
		lit := b[i:end]
		if isShortInteger(lit) {
			// An integer of at most 15 digits is exact as a double and
			// ECMAScript writes it digit for digit; -0 is written 0.
			if string(lit) == "-0" {
				return append(dst, '0'), end, true
			}
			return append(dst, lit...), end, true
		}
		f, err := strconv.ParseFloat(string(lit), 64)
		if err != nil {
			return dst, -1, false
		}
		text, err := jcs.NumberToJSON(f)
		if err != nil {
			return dst, -1, false
		}
		return append(dst, text...), end, true
	case c == 't':
		end := jsontext.ScanLiteral(b, i, "true")
		return append(dst, "true"...), end, end >= 0
	case c == 'f':
		end := jsontext.ScanLiteral(b, i, "false")
		return append(dst, "false"...), end, end >= 0
	case c == 'n':
		end := jsontext.ScanLiteral(b, i, "null")
		return append(dst, "null"...), end, end >= 0
	}
	return dst, -1, false
}

// isShortInteger reports whether a number literal is -?[0-9]{1,15} (no
// fraction, no exponent).
func isShortInteger(lit []byte) bool {
	digits := lit
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 15 {
		return false
	}
	for _, c := range digits {
		if !jsontext.IsDigit(c) {
			return false
		}
	}
	return true
}

// decodeString decodes the string token at b[i] as jcs does and appends
// the value to dst. It answers ok=false where jcs fails (invalid UTF-8, an
// unpaired surrogate escape) or the token is not valid.
func decodeString(dst, b []byte, i int) (out []byte, end int, ok bool) {
	out = dst
	for i++; i < len(b); {
		c := b[i]
		switch {
		case c == '"':
			return out, i + 1, true
		case c < 0x20:
			return dst, -1, false
		case c == '\\':
			// Only a high surrogate followed by a low one is a pair; jcs
			// refuses any other surrogate escape.
			r, next := jsontext.ReadEscape(b, i)
			if next < 0 || jsontext.IsSurrogate(r) {
				return dst, -1, false
			}
			out = utf8.AppendRune(out, r)
			i = next
		case c < utf8.RuneSelf:
			// A run of plain ASCII is copied at once.
			j := i + 1
			for j < len(b) && b[j] >= 0x20 && b[j] < utf8.RuneSelf && b[j] != '"' && b[j] != '\\' {
				j++
			}
			out = append(out, b[i:j]...)
			i = j
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size <= 1 {
				return dst, -1, false
			}
			out = append(out, b[i:i+size]...)
			i += size
		}
	}
	return dst, -1, false
}

// appendCanonicalString quotes a decoded string as RFC 8785 does: \\ and
// \" escaped, \b \f \n \r \t, other control characters as \u00xx, every
// other byte as it is.
func appendCanonicalString(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i, c := range s {
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		start = i + 1
		dst = jsonx.AppendEscape(dst, c)
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// compareUTF16 orders two UTF-8 strings by their UTF-16 code units, the
// member order of RFC 8785.
func compareUTF16(a, b []byte) int {
	for len(a) > 0 && len(b) > 0 {
		if a[0] < utf8.RuneSelf && b[0] < utf8.RuneSelf {
			if a[0] != b[0] {
				return int(a[0]) - int(b[0])
			}
			a, b = a[1:], b[1:]
			continue
		}
		ra, na := utf8.DecodeRune(a)
		rb, nb := utf8.DecodeRune(b)
		if ra != rb {
			ua, ub := utf16Units(ra), utf16Units(rb)
			if ua[0] != ub[0] {
				return int(ua[0]) - int(ub[0])
			}
			return int(ua[1]) - int(ub[1])
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

// utf16Units returns the UTF-16 code units of r, the second 0 for a code
// point below U+10000.
func utf16Units(r rune) [2]rune {
	if r < 0x10000 {
		return [2]rune{r, 0}
	}
	r -= 0x10000
	return [2]rune{0xD800 + r>>10, 0xDC00 + r&0x3FF}
}

// writtenOrderDigest is the digest of the digest-not-canonical fault: the
// hash of compact JSON that keeps members in written order, keeps number
// literals as written and escapes every non-ASCII code point as \uXXXX
// (a surrogate pair above U+FFFF).
func writtenOrderDigest(raw []byte) (string, error) {
	c, err := writtenOrderJSON(raw)
	if err != nil {
		return "", err
	}
	return hashOf(c), nil
}

// writtenOrderJSON re-serializes one JSON value as written: members in
// written order (a repeated key written again), numbers as written,
// strings as json.loads reads them and written in ASCII (a lone surrogate
// as its own escape).
func writtenOrderJSON(raw []byte) ([]byte, error) {
	var out bytes.Buffer
	var value func(i, depth int) int
	value = func(i, depth int) int {
		if i >= len(raw) || depth > jsontext.HostDepth {
			return -1
		}
		switch c := raw[i]; {
		case c == '{':
			n := 0
			out.WriteByte('{')
			end := jsontext.EachMember(raw, i, func(keyTok []byte, plain bool, start int) int {
				if n > 0 {
					out.WriteByte(',')
				}
				n++
				writeASCIIString(&out, jsontext.StringValue(keyTok, plain))
				out.WriteByte(':')
				return value(start, depth+1)
			})
			out.WriteByte('}')
			return end
		case c == '[':
			n := 0
			out.WriteByte('[')
			end := jsontext.EachElement(raw, i, func(start int) int {
				if n > 0 {
					out.WriteByte(',')
				}
				n++
				return value(start, depth+1)
			})
			out.WriteByte(']')
			return end
		case c == '"':
			end, plain := jsontext.ScanString(raw, i)
			if end > 0 {
				writeASCIIString(&out, jsontext.StringValue(raw[i:end], plain))
			}
			return end
		}
		end := jsontext.ScanValue(raw, i, depth)
		if end > 0 {
			out.Write(raw[i:end])
		}
		return end
	}
	end := value(jsontext.SkipSpace(raw, 0), 0)
	if end < 0 || jsontext.SkipSpace(raw, end) != len(raw) {
		return nil, errors.New("written-order JSON: not one valid JSON value")
	}
	return out.Bytes(), nil
}

// writeASCIIString writes s as a JSON string that is pure ASCII.
func writeASCIIString(out *bytes.Buffer, s string) {
	const hexDigits = "0123456789abcdef"
	u4 := func(r rune) {
		out.WriteString(`\u`)
		for shift := 12; shift >= 0; shift -= 4 {
			out.WriteByte(hexDigits[(r>>shift)&0xf])
		}
	}
	out.WriteByte('"')
	for i := 0; i < len(s); {
		if u, ok := jsontext.SurrogateAt(s, i); ok {
			u4(u)
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r < 0x20 || r == '"' || r == '\\':
			out.Write(jsonx.AppendEscape(out.AvailableBuffer(), byte(r)))
		case r < utf8.RuneSelf:
			out.WriteByte(byte(r))
		case r > 0xffff:
			r -= 0x10000
			u4(0xd800 + (r >> 10))
			u4(0xdc00 + (r & 0x3ff))
		default:
			u4(r)
		}
	}
	out.WriteByte('"')
}
