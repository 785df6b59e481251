package gateway

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// This file is the only place that knows which canonicalization library is
// in use: swap it here and nothing else changes.

// DigestPrefix starts every digest string.
const DigestPrefix = "sha256:"

var digestPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// IsDigest reports whether s has the digest format "sha256:" followed by 64
// lowercase hexadecimal digits.
func IsDigest(s string) bool { return digestPattern.MatchString(s) }

// Canonical returns the RFC 8785 canonical form of one JSON value given as
// raw bytes: members sorted by UTF-16 code units, numbers in ECMAScript
// form, minimal string escapes, no insignificant whitespace.
func Canonical(raw []byte) ([]byte, error) {
	out, err := jcs.Transform(raw)
	if err != nil {
		return nil, fmt.Errorf("canonical JSON: %w", err)
	}
	return out, nil
}

// Digest returns "sha256:" plus the lowercase hex SHA-256 of the canonical
// JSON of raw.
func Digest(raw []byte) (string, error) {
	c, err := Canonical(raw)
	if err != nil {
		return "", err
	}
	return hashOf(c), nil
}

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return DigestPrefix + hex.EncodeToString(sum[:])
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

// writtenOrderJSON re-serializes one JSON value token by token. It keeps an
// explicit stack instead of recursing, so its depth costs one small frame
// per level.
func writtenOrderJSON(raw []byte) ([]byte, error) {
	type frame struct {
		object    bool
		count     int
		expectKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out bytes.Buffer
	var stack []frame
	values := 0
	beforeValue := func() {
		if len(stack) == 0 {
			values++
			return
		}
		top := &stack[len(stack)-1]
		if !top.object {
			if top.count > 0 {
				out.WriteByte(',')
			}
			top.count++
		}
	}
	afterValue := func() {
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].expectKey = true
		}
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("written-order JSON: %w", err)
		}
		if len(stack) == 0 && values == 1 {
			return nil, errors.New("written-order JSON: more than one value")
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				beforeValue()
				out.WriteByte(byte(v))
				stack = append(stack, frame{object: v == '{', expectKey: v == '{'})
			default:
				out.WriteByte(byte(v))
				stack = stack[:len(stack)-1]
				afterValue()
			}
		case string:
			if len(stack) > 0 && stack[len(stack)-1].object && stack[len(stack)-1].expectKey {
				top := &stack[len(stack)-1]
				if top.count > 0 {
					out.WriteByte(',')
				}
				top.count++
				top.expectKey = false
				writeASCIIString(&out, v)
				out.WriteByte(':')
				continue
			}
			beforeValue()
			writeASCIIString(&out, v)
			afterValue()
		case json.Number:
			beforeValue()
			out.WriteString(v.String())
			afterValue()
		case bool:
			beforeValue()
			out.WriteString(strconv.FormatBool(v))
			afterValue()
		case nil:
			beforeValue()
			out.WriteString("null")
			afterValue()
		}
	}
	if values != 1 || len(stack) != 0 {
		return nil, errors.New("written-order JSON: incomplete value")
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
	for _, r := range s {
		switch {
		case r == '"':
			out.WriteString(`\"`)
		case r == '\\':
			out.WriteString(`\\`)
		case r == '\b':
			out.WriteString(`\b`)
		case r == '\t':
			out.WriteString(`\t`)
		case r == '\n':
			out.WriteString(`\n`)
		case r == '\f':
			out.WriteString(`\f`)
		case r == '\r':
			out.WriteString(`\r`)
		case r < 0x20:
			u4(r)
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
