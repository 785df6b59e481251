// Package jsontext holds the small strict JSON readers that the host
// families' fast paths share: scanners that find where a token or a value
// ends in a byte slice without decoding it, walkers over the members of an
// object and the elements of an array, and decoders of escapes, strings,
// integers and whole values, all without reflection. Each answers -1 (or
// false) for anything that is not well-formed JSON it fully understands.
// Nothing here recurses deeper than MaxDepth, but the host readers
// (ScanHostValue, ReadHostMembers, HostElements, WholeHostValue and the
// decoders of host.go), which follow HostDepth and are what a family's
// reference reader of a case is built on: a fast reader that answers
// false leaves the text to them, never to encoding/json, which reads a
// string's unpaired surrogate as U+FFFD.
//
// Strings are decoded as the hosts read them, not as encoding/json does:
// an unpaired surrogate escape is kept in WTF-8 form (see host.go), where
// the library writes U+FFFD. Everything else is the library's reading.
package jsontext

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting ScanValue follows; a deeper value is not
// understood (-1), and callers take encoding/json's path.
const MaxDepth = 100

// IsSpace reports whether c is JSON white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && IsSpace(b[i]) {
		i++
	}
	return i
}

// ScanString reads the string token at b[i] == '"' and returns the index
// after it, or -1 when it is not a valid token. plain reports that the
// token's bytes are its value: no escape, and valid UTF-8 (encoding/json
// replaces invalid bytes). It jumps from quote to quote with
// bytes.IndexByte, which scans long texts many bytes at a time.
func ScanString(b []byte, i int) (end int, plain bool) {
	start := i + 1
	j := start
	plain = true
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return -1, false
		}
		q += j
		esc := bytes.IndexByte(b[j:q], '\\')
		if esc < 0 {
			noControl, ascii := TextRun(b[j:q])
			if !noControl {
				return -1, false
			}
			// Without an escape, b[j:q] is the whole content.
			return q + 1, plain && (ascii || utf8.Valid(b[start:q]))
		}
		esc += j
		if !NoControl(b[j:esc]) {
			return -1, false
		}
		plain = false
		if esc+1 >= len(b) {
			return -1, false
		}
		switch b[esc+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			j = esc + 2
		case 'u':
			if esc+5 >= len(b) || !IsHex(b[esc+2]) || !IsHex(b[esc+3]) || !IsHex(b[esc+4]) || !IsHex(b[esc+5]) {
				return -1, false
			}
			j = esc + 6
		default:
			return -1, false
		}
	}
}

// SkipString is ScanString without the plain flag: it only checks the
// token, sparing the UTF-8 check of long texts that are only skipped.
func SkipString(b []byte, i int) int {
	j := i + 1
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return -1
		}
		q += j
		esc := bytes.IndexByte(b[j:q], '\\')
		if esc < 0 {
			if !NoControl(b[j:q]) {
				return -1
			}
			return q + 1
		}
		esc += j
		if !NoControl(b[j:esc]) || esc+1 >= len(b) {
			return -1
		}
		switch b[esc+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			j = esc + 2
		case 'u':
			if esc+5 >= len(b) || !IsHex(b[esc+2]) || !IsHex(b[esc+3]) || !IsHex(b[esc+4]) || !IsHex(b[esc+5]) {
				return -1
			}
			j = esc + 6
		default:
			return -1
		}
	}
}

// TextRun reports whether b holds no control byte, and whether it is all
// ASCII (which is then valid UTF-8, with no need to check). It reads eight
// bytes at a time: x-0x20…20 borrows into the high bit of a lane exactly
// when that byte is below 0x20 (the "has a byte less than n" test, n ≤
// 0x80), and a high bit set in any lane is a byte beyond ASCII.
func TextRun(b []byte) (noControl, ascii bool) {
	var high uint64
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		if (x-0x2020202020202020)&^x&0x8080808080808080 != 0 {
			return false, false
		}
		high |= x
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 {
			return false, false
		}
		high |= uint64(c)
	}
	return true, high&0x8080808080808080 == 0
}

// NoControl reports whether b holds no control byte, which a JSON string
// may not hold unescaped. It tests eight bytes at a time: x-0x20…20 borrows
// into the high bit of a lane exactly when that byte is below 0x20 (the
// "has a byte less than n" test, n ≤ 0x80), which long texts make worth it.
func NoControl(b []byte) bool {
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		if (x-0x2020202020202020)&^x&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 {
			return false
		}
	}
	return true
}

// IsHex reports whether c is a hexadecimal digit.
func IsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// IsDigit reports whether c is a decimal digit.
func IsDigit(c byte) bool { return '0' <= c && c <= '9' }

// ScanNumber reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? from
// b[i] and returns the index after it, or -1.
func ScanNumber(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && IsDigit(b[i]) {
			i++
		}
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !IsDigit(b[i]) {
			return -1
		}
		for i < len(b) && IsDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !IsDigit(b[i]) {
			return -1
		}
		for i < len(b) && IsDigit(b[i]) {
			i++
		}
	}
	return i
}

// ScanLiteral reads word (true, false or null) at b[i].
func ScanLiteral(b []byte, i int, word string) int {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// ScanValue checks the value that starts at b[i] (no leading space) and
// returns the index after it, or -1 when it is not valid JSON or nests
// deeper than MaxDepth.
func ScanValue(b []byte, i, depth int) int { return scanValue(b, i, depth, MaxDepth) }

// ScanHostValue is ScanValue to HostDepth, as the host decoders read.
func ScanHostValue(b []byte, i, depth int) int { return scanValue(b, i, depth, HostDepth) }

func scanValue(b []byte, i, depth, maxDepth int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		return SkipString(b, i)
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return -1
		}
		closing := byte(']')
		if c == '{' {
			closing = '}'
		}
		i = SkipSpace(b, i+1)
		if i < len(b) && b[i] == closing {
			return i + 1
		}
		for {
			if c == '{' {
				if i >= len(b) || b[i] != '"' {
					return -1
				}
				if i = SkipString(b, i); i < 0 {
					return -1
				}
				i = SkipSpace(b, i)
				if i >= len(b) || b[i] != ':' {
					return -1
				}
				i = SkipSpace(b, i+1)
			}
			if i = scanValue(b, i, depth+1, maxDepth); i < 0 {
				return -1
			}
			i = SkipSpace(b, i)
			if i >= len(b) {
				return -1
			}
			if b[i] == closing {
				return i + 1
			}
			if b[i] != ',' {
				return -1
			}
			i = SkipSpace(b, i+1)
		}
	case c == '-' || IsDigit(c):
		return ScanNumber(b, i)
	case c == 't':
		return ScanLiteral(b, i, "true")
	case c == 'f':
		return ScanLiteral(b, i, "false")
	case c == 'n':
		return ScanLiteral(b, i, "null")
	}
	return -1
}

// StringValue returns the value of a valid string token: its bytes when
// plain, else its escapes decoded as the hosts read them (an unpaired
// surrogate escape kept in WTF-8 form, see HostString) and each byte that
// is not UTF-8 replaced by U+FFFD, as encoding/json replaces it.
func StringValue(tok []byte, plain bool) string {
	if plain {
		return string(tok[1 : len(tok)-1])
	}
	content := tok[1 : len(tok)-1]
	if !utf8.Valid(content) {
		content = validUTF8(content)
	}
	s, _ := unescapeHost(content) // a valid token's escapes are valid
	return s
}

// validUTF8 returns b with each byte that is not UTF-8 replaced by U+FFFD.
func validUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\ufffd"...)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// StringToken returns the value of tok, a JSON string token that may be
// followed by whitespace, as StringValue reads it; ok is false for
// anything else.
func StringToken(tok []byte) (string, bool) {
	if len(tok) == 0 || tok[0] != '"' {
		return "", false
	}
	if end, plain := ScanString(tok, 0); end > 0 && SkipSpace(tok, end) == len(tok) {
		return StringValue(tok[:end], plain), true
	}
	return "", false
}

// ReadEscape reads the escape sequence at s[i] == '\\' of a JSON string
// and returns the code point it stands for and the index after it, or end
// -1 when it is not a valid escape. A \u escape of a high surrogate
// followed by a \u escape of a low one reads as the pair's code point; any
// other surrogate escape reads as the surrogate alone (0xD800 to 0xDFFF),
// for the caller to refuse or replace as its reference does.
func ReadEscape[S ~string | ~[]byte](s S, i int) (r rune, end int) {
	if i+1 >= len(s) {
		return 0, -1
	}
	switch e := s[i+1]; e {
	case '"', '\\', '/':
		return rune(e), i + 2
	case 'b':
		return '\b', i + 2
	case 'f':
		return '\f', i + 2
	case 'n':
		return '\n', i + 2
	case 'r':
		return '\r', i + 2
	case 't':
		return '\t', i + 2
	case 'u':
		r, ok := hex4(s, i+2)
		if !ok {
			return 0, -1
		}
		if 0xD800 <= r && r < 0xDC00 && i+7 < len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
			if lo, ok := hex4(s, i+8); ok && 0xDC00 <= lo && lo < 0xE000 {
				return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), i + 12
			}
		}
		return r, i + 6
	}
	return 0, -1
}

// hex4 reads four hexadecimal digits at s[i].
func hex4[S ~string | ~[]byte](s S, i int) (rune, bool) {
	if i < 0 || i+4 > len(s) {
		return 0, false
	}
	var r rune
	for k := i; k < i+4; k++ {
		switch c := s[k]; {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// IsSurrogate reports whether r is a UTF-16 surrogate, which ReadEscape
// returns for an escape that is not half of a pair.
func IsSurrogate(r rune) bool { return 0xD800 <= r && r < 0xE000 }

// Unescape decodes content, the text between the quotes of a JSON string
// token that has escapes, as the hosts read it (see HostString): an
// unpaired surrogate escape is kept in WTF-8 form, never replaced, and the
// escape after it is never lost. With utf8Checked the content must be
// valid UTF-8; without, bytes that are not are kept as they are. ok is
// false otherwise, and for an escape that is not valid.
func Unescape[S ~string | ~[]byte](content S, utf8Checked bool) (string, bool) {
	if utf8Checked && !utf8.ValidString(string(content)) {
		return "", false
	}
	return unescapeHost(content)
}

// Member is one member of a JSON object: its key (decoded) and its value
// as written, without surrounding whitespace. The key stays bytes:
// comparing string(Key) with a string allocates nothing.
type Member struct {
	Key []byte
	Raw []byte
}

// Members is an object's members in first-seen order. A repeated key keeps
// its first position and its last value, as decoding into a map does.
type Members []Member

// Get returns the value of the member called key.
func (m Members) Get(key string) ([]byte, bool) {
	for _, x := range m {
		if string(x.Key) == key {
			return x.Raw, true
		}
	}
	return nil, false
}

// Has reports whether the object has a member called key.
func (m Members) Has(key string) bool {
	_, ok := m.Get(key)
	return ok
}

// Without returns the members with key removed (in place).
func (m Members) Without(key string) Members {
	return slices.DeleteFunc(m, func(x Member) bool { return string(x.Key) == key })
}

// SortedKeys returns the keys in sorted order.
func (m Members) SortedKeys() []string {
	keys := make([]string, len(m))
	for i, x := range m {
		keys[i] = string(x.Key)
	}
	slices.Sort(keys)
	return keys
}

// ReadMembers reads a JSON object (surrounding whitespace allowed) into its
// members, as json.Unmarshal into a map[string]json.RawMessage reads it
// (keys decoded as the package doc says), appending them to buf[:0]. ok is false when raw is not one valid object
// within MaxDepth.
func ReadMembers(raw []byte, buf Members) (m Members, ok bool) {
	return readMembers(raw, buf, MaxDepth)
}

// ReadHostMembers is ReadMembers to HostDepth: an object's members as
// json.loads and JSON.parse read them (keys compared exactly, a repeated
// key keeping its first place and its last value), for any object the
// host decoders read. ok is false only when raw is not one valid object
// within HostDepth.
func ReadHostMembers(raw []byte, buf Members) (m Members, ok bool) {
	return readMembers(raw, buf, HostDepth)
}

func readMembers(raw []byte, buf Members, maxDepth int) (m Members, ok bool) {
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	m = buf[:0]
	if m == nil {
		m = make(Members, 0, 4)
	}
	i = SkipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return m, SkipSpace(raw, i+1) == len(raw)
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return nil, false
		}
		kEnd, plain := ScanString(raw, i)
		if kEnd < 0 {
			return nil, false
		}
		key := raw[i+1 : kEnd-1]
		if !plain {
			key = []byte(StringValue(raw[i:kEnd], false))
		}
		i = SkipSpace(raw, kEnd)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = SkipSpace(raw, i+1)
		vEnd := scanValue(raw, i, 1, maxDepth)
		if vEnd < 0 {
			return nil, false
		}
		value := raw[i:vEnd:vEnd]
		if at := slices.IndexFunc(m, func(x Member) bool { return bytes.Equal(x.Key, key) }); at >= 0 {
			m[at].Raw = value
		} else {
			m = append(m, Member{key, value})
		}
		i = SkipSpace(raw, vEnd)
		if i >= len(raw) {
			return nil, false
		}
		if raw[i] == '}' {
			return m, SkipSpace(raw, i+1) == len(raw)
		}
		if raw[i] != ',' {
			return nil, false
		}
		i = SkipSpace(raw, i+1)
	}
}

// WholeValue reports whether raw is exactly one valid JSON value within
// MaxDepth, with optional surrounding whitespace.
func WholeValue(raw []byte) bool {
	end := ScanValue(raw, SkipSpace(raw, 0), 0)
	return end >= 0 && SkipSpace(raw, end) == len(raw)
}

// WholeHostValue is WholeValue within HostDepth.
func WholeHostValue(raw []byte) bool {
	end := ScanHostValue(raw, SkipSpace(raw, 0), 0)
	return end >= 0 && SkipSpace(raw, end) == len(raw)
}

// HostElements reads a JSON array (surrounding whitespace allowed) into
// its elements as written, within HostDepth; ok is false when raw is not
// one valid array.
func HostElements(raw []byte) (list [][]byte, ok bool) {
	list = [][]byte{}
	ok = WholeArray(raw, func(start int) int {
		end := ScanHostValue(raw, start, 1)
		if end >= 0 {
			list = append(list, raw[start:end:end])
		}
		return end
	})
	return list, ok
}

// WholeObject walks raw as one object with optional surrounding whitespace,
// calling f as EachMember does. It reports whether raw is such an object
// and f read every member.
func WholeObject(raw []byte, f func(keyTok []byte, plain bool, start int) int) bool {
	end := EachMember(raw, SkipSpace(raw, 0), f)
	return end >= 0 && SkipSpace(raw, end) == len(raw)
}

// WholeArray walks raw as one array with optional surrounding whitespace,
// calling f as EachElement does. It reports whether raw is such an array
// and f read every element.
func WholeArray(raw []byte, f func(start int) int) bool {
	end := EachElement(raw, SkipSpace(raw, 0), f)
	return end >= 0 && SkipSpace(raw, end) == len(raw)
}

// Int reads raw as one JSON integer literal (no fraction, no exponent) with
// optional surrounding whitespace that fits an int; ok is false for
// anything else.
func Int(raw []byte) (int, bool) {
	i := SkipSpace(raw, 0)
	end := ScanNumber(raw, i)
	if end < 0 || SkipSpace(raw, end) != len(raw) {
		return 0, false
	}
	for _, c := range raw[i:end] {
		if c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(string(raw[i:end]))
	if err != nil {
		return 0, false
	}
	return n, true
}

// EachMember walks the object at b[i] == '{'. For each member it calls f
// with the key's token (the slice of b from its opening quote to its
// closing one, and whether its bytes between the quotes are its value) and
// where the value starts; f reads the value and returns where it ends, or
// -1 to stop. EachMember returns the index after the object, or -1 when
// the object is not valid or f stopped.
func EachMember(b []byte, i int, f func(keyTok []byte, plain bool, start int) int) int {
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		kEnd, plain := ScanString(b, i)
		if kEnd < 0 {
			return -1
		}
		key := b[i:kEnd]
		i = SkipSpace(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return -1
		}
		if i = f(key, plain, SkipSpace(b, i+1)); i < 0 {
			return -1
		}
		if i = SkipSpace(b, i); i >= len(b) {
			return -1
		}
		if b[i] == '}' {
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = SkipSpace(b, i+1)
	}
}

// EachElement walks the array at b[i] == '[' as EachMember walks an object.
func EachElement(b []byte, i int, f func(start int) int) int {
	if i >= len(b) || b[i] != '[' {
		return -1
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		if i = f(i); i < 0 {
			return -1
		}
		if i = SkipSpace(b, i); i >= len(b) {
			return -1
		}
		if b[i] == ']' {
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = SkipSpace(b, i+1)
	}
}

// Decode decodes raw, one JSON value with optional surrounding whitespace,
// as json.Unmarshal into an any does (but for strings, see the package
// doc): objects as map[string]any, arrays as []any (never nil), numbers as
// float64. ok is false where it cannot: raw
// is not one valid value, nests deeper than MaxDepth, or holds a number
// beyond a float64 (where Unmarshal fails). Callers then decode with
// encoding/json, so a value or an error is always the one it gives.
func Decode(raw []byte) (any, bool) {
	d := decoder{b: raw}
	return d.whole()
}

// DecodeUseNumber decodes raw, one JSON value with optional surrounding
// whitespace, as a json.Decoder with UseNumber does (numbers as
// json.Number literals; strings as the package doc says), and refuses
// anything after the value. Text the
// fast reader takes is decoded without reflection; any other goes to the
// json.Decoder, whose value or error it is.
func DecodeUseNumber(raw []byte) (any, error) {
	d := decoder{b: raw, literals: true}
	if v, ok := d.whole(); ok {
		return v, nil
	}
	return decodeUseNumberJSON(raw)
}

// DecodeUseNumberLibrary decodes raw, one JSON value with optional
// surrounding whitespace, to exactly the value a json.Decoder with
// UseNumber gives, strings included: it refuses (false) any text with a
// \ud or \uD escape, where the hosts' reading of an unpaired surrogate
// and the library's part, and anything the fast reader refuses. Callers
// then decode with encoding/json.
func DecodeUseNumberLibrary(raw []byte) (any, bool) {
	if HasSurrogateEscape(raw) {
		return nil, false
	}
	d := decoder{b: raw, literals: true}
	return d.whole()
}

// HasSurrogateEscape reports whether raw holds a \ud or \uD escape (a
// surrogate's), where the hosts' reading of an unpaired one and the
// library's part.
func HasSurrogateEscape(raw []byte) bool {
	for i := 0; ; {
		j := bytes.Index(raw[i:], []byte(`\u`))
		if j < 0 {
			return false
		}
		i += j + 2
		if i < len(raw) && (raw[i] == 'd' || raw[i] == 'D') {
			return true
		}
	}
}

// decodeUseNumberJSON is DecodeUseNumber through encoding/json alone.
func decodeUseNumberJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// decoder reads one text for Decode or DecodeUseNumber. The strings it
// returns are substrings of one copy of the text, made when the first
// string or literal needs it: one allocation per text instead of one per
// string.
type decoder struct {
	b        []byte
	s        string
	literals bool
	// python reads numbers as json.loads does (see DecodePy).
	python bool
	// maxDepth bounds the nesting; 0 is MaxDepth.
	maxDepth int
	// stack holds the elements of the arrays being read, innermost last:
	// each array is made once, at its length, instead of grown.
	stack []any
}

// smallInts are the numbers 0 to 255 as each reading gives them, made
// once: a count or a step in an expected block or an observation is one
// of them, and each would otherwise be a value of its own (Go keeps no
// boxed float64 but zero).
var smallInts = func() (t struct{ number, float [256]any }) {
	for n := range t.float {
		t.number[n] = json.Number(strconv.Itoa(n))
		t.float[n] = float64(n)
	}
	return t
}()

// Float returns float64(n) as an any: for 0 to 255 the one value made
// for each.
func Float(n int) any {
	if n >= 0 && n < len(smallInts.float) {
		return smallInts.float[n]
	}
	return float64(n)
}

// smallInt returns the number lit writes when it is 0 to 255 in digits
// alone ("07" is not valid JSON and is never passed).
func smallInt(lit []byte) (int, bool) {
	if len(lit) == 0 || len(lit) > 3 {
		return 0, false
	}
	n := 0
	for _, c := range lit {
		if !IsDigit(c) {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n < len(smallInts.float)
}

func (d *decoder) whole() (any, bool) {
	p, _ := stacks.Get().(*[]any)
	if p == nil {
		p = new([]any)
	}
	d.stack = *p
	v, end := d.value(SkipSpace(d.b, 0), 0)
	if cap(d.stack) <= mostStacked {
		*p = d.stack[:0]
		stacks.Put(p)
	}
	d.stack = nil
	return v, end >= 0 && SkipSpace(d.b, end) == len(d.b)
}

// stacks keeps decoders' element stacks (empty, their values cleared)
// for the next text; one longer than mostStacked is let go.
var stacks sync.Pool

const mostStacked = 4096

func (d *decoder) depthLimit() int {
	if d.maxDepth > 0 {
		return d.maxDepth
	}
	return MaxDepth
}

// text returns d.b[i:j] as a string.
func (d *decoder) text(i, j int) string {
	if d.s == "" {
		d.s = string(d.b)
	}
	return d.s[i:j]
}

// str reads the string token at b[i] and returns its value and the index
// after it, or -1.
func (d *decoder) str(i int) (string, int) {
	end, plain := ScanString(d.b, i)
	if end < 0 {
		return "", -1
	}
	if plain {
		return d.text(i+1, end-1), end
	}
	return StringValue(d.b[i:end], false), end
}

// value decodes the value at b[i] and returns it and the index after it,
// or -1.
func (d *decoder) value(i, depth int) (any, int) {
	b := d.b
	if i >= len(b) {
		return nil, -1
	}
	switch c := b[i]; {
	case c == '"':
		return d.str(i)
	case c == '{':
		if depth >= d.depthLimit() {
			return nil, -1
		}
		obj := map[string]any{}
		end := EachMember(b, i, func(keyTok []byte, plain bool, start int) int {
			var key string
			if plain {
				// keyTok is b from the key's opening quote on, cut after
				// its closing one: its capacity tells where it starts.
				at := cap(b) - cap(keyTok)
				key = d.text(at+1, at+len(keyTok)-1)
			} else {
				key = StringValue(keyTok, false)
			}
			v, end := d.value(start, depth+1)
			obj[key] = v
			return end
		})
		if end < 0 {
			return nil, -1
		}
		return obj, end
	case c == '[':
		if depth >= d.depthLimit() {
			return nil, -1
		}
		base := len(d.stack)
		end := EachElement(b, i, func(start int) int {
			v, end := d.value(start, depth+1)
			d.stack = append(d.stack, v)
			return end
		})
		if end < 0 {
			d.stack = d.stack[:base]
			return nil, -1
		}
		list := make([]any, len(d.stack)-base)
		copy(list, d.stack[base:])
		clear(d.stack[base:])
		d.stack = d.stack[:base]
		return list, end
	case c == '-' || IsDigit(c):
		end := ScanNumber(b, i)
		if end < 0 {
			return nil, -1
		}
		if n, ok := smallInt(b[i:end]); ok {
			if d.literals || d.python {
				return smallInts.number[n], end
			}
			return smallInts.float[n], end
		}
		if d.literals {
			return json.Number(d.text(i, end)), end
		}
		if d.python {
			v, ok := pyNumber(d.text(i, end))
			if !ok {
				return nil, -1
			}
			return v, end
		}
		f, err := strconv.ParseFloat(string(b[i:end]), 64)
		if err != nil {
			return nil, -1
		}
		return f, end
	case c == 't':
		return true, ScanLiteral(b, i, "true")
	case c == 'f':
		return false, ScanLiteral(b, i, "false")
	case c == 'n':
		return nil, ScanLiteral(b, i, "null")
	}
	return nil, -1
}
