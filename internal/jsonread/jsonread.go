// Package jsonread decodes JSON by hand-written walks instead of
// reflection. encoding/json's first Unmarshal of a type builds its field
// cache by reflection, which on a cold process costs more page faults and
// two stack growths than the whole rest of a prompt render; the render path
// decodes a few small state records, so it walks them with a Reader.
//
// A Reader accepts exactly what encoding/json accepts for the same Go
// values and stores the same results (differential tests and a fuzz target
// hold it to that): unknown keys are skipped, keys match exactly or else
// ASCII case-insensitively, null leaves scalars unchanged and clears
// pointers, maps and slices, invalid UTF-8 and lone surrogates become
// U+FFFD, the whole input must be one valid JSON value, and a value of the
// wrong type fails the decode. One difference, on input prchip never
// writes: for a key given twice, the last value wins whole, where
// encoding/json merges a second object into the first.
package jsonread

import (
	"errors"
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// ErrSyntax is returned for input that is not JSON.
var ErrSyntax = errors.New("invalid JSON")

// ErrType is returned for a value of the wrong type for its field.
var ErrType = errors.New("JSON value of the wrong type")

// Reader walks one JSON text. The first error sticks: later calls do
// nothing, and Finish reports it.
type Reader struct {
	data []byte
	pos  int
	err  error
	// buf holds unescaped strings; reused, so a key is valid only until
	// the next read.
	buf []byte
}

// New starts reading data, which must not change afterwards: strings read
// from it may share its memory. Small enough to be inlined, so a caller's
// Reader can live on its stack.
func New(data []byte) *Reader {
	r := &Reader{data: data}
	r.check()
	return r
}

// check validates the whole text first, as encoding/json does before it
// stores anything; the walkers below may then assume well-formed input.
func (r *Reader) check() {
	if end, ok := validValue(r.data, skipSpace(r.data, 0)); !ok || skipSpace(r.data, end) != len(r.data) {
		r.err = ErrSyntax
	}
}

// Finish reports the first error, or that something other than white
// space follows the value.
func (r *Reader) Finish() error {
	if r.err == nil && skipSpace(r.data, r.pos) != len(r.data) {
		r.err = ErrSyntax
	}
	return r.err
}

func (r *Reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *Reader) peek() byte {
	r.pos = skipSpace(r.data, r.pos)
	if r.pos >= len(r.data) {
		return 0
	}
	return r.data[r.pos]
}

// null consumes a null if one is next.
func (r *Reader) null() bool {
	if r.err == nil && r.peek() == 'n' {
		r.pos += 4
		return true
	}
	return false
}

// wrongType records a type error and skips the value, as encoding/json
// goes on after one (the decode still fails).
func (r *Reader) wrongType() {
	r.fail(ErrType)
	r.Skip()
}

// Object calls each for every member of an object, in order; each must
// read the member's value with exactly one call. It returns false, calling
// nothing, for null. The key is only valid during the call.
func (r *Reader) Object(each func(key []byte)) bool {
	return r.walk('{', '}', func() {
		r.peek()
		key := r.rawString()
		r.peek() // ':'
		r.pos++
		r.peek()
		start := r.pos
		each(key)
		if r.err == nil && r.pos == start {
			r.Skip()
		}
	})
}

// Array calls each for every element; each reads it with one call. It
// returns false, calling nothing, for null.
func (r *Reader) Array(each func()) bool {
	return r.walk('[', ']', func() {
		r.peek()
		start := r.pos
		each()
		if r.err == nil && r.pos == start {
			r.Skip()
		}
	})
}

// walk reads a container whose items item reads one at a time.
func (r *Reader) walk(open, close byte, item func()) bool {
	if r.err != nil || r.null() {
		return false
	}
	if r.peek() != open {
		r.wrongType()
		return false
	}
	r.pos++
	if r.peek() == close {
		r.pos++
		return true
	}
	for r.err == nil {
		item()
		if r.err != nil {
			break
		}
		if r.peek() == ',' {
			r.pos++
			continue
		}
		r.pos++ // close
		break
	}
	return true
}

// Skip reads past one value of any type.
func (r *Reader) Skip() {
	if r.err != nil {
		return
	}
	end, ok := validValue(r.data, skipSpace(r.data, r.pos))
	if !ok {
		r.fail(ErrSyntax)
		return
	}
	r.pos = end
}

// String stores a string value in *dst; null leaves it unchanged.
func (r *Reader) String(dst *string) {
	if r.err != nil || r.null() {
		return
	}
	if r.peek() != '"' {
		r.wrongType()
		return
	}
	*dst = r.keep(r.rawString())
}

// keep returns a string value. One without escapes or non-ASCII bytes is
// the text's own bytes, not a copy (see New): every allocation a cold
// render makes may cost it fresh memory.
func (r *Reader) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(r.buf) > 0 && &b[0] == &r.buf[0] {
		return string(b) // unescaped into the reused buffer: copy it out
	}
	return unsafe.String(&b[0], len(b))
}

// Int stores an integer value in *dst; null leaves it unchanged. A
// fraction, an exponent or a value out of int64's range fails, as
// encoding/json fails them for integer fields.
func (r *Reader) Int(dst *int64) {
	if r.err != nil || r.null() {
		return
	}
	c := r.peek()
	if c != '-' && (c < '0' || c > '9') {
		r.wrongType()
		return
	}
	start := r.pos
	end, _ := validValue(r.data, start)
	r.pos = end
	n, err := strconv.ParseInt(string(r.data[start:end]), 10, 64)
	if err != nil {
		r.fail(ErrType)
		return
	}
	*dst = n
}

// IntOf is Int for an int field (64-bit platforms: the same range).
func (r *Reader) IntOf(dst *int) {
	v := int64(*dst)
	r.Int(&v)
	if r.err == nil {
		if int64(int(v)) != v {
			r.fail(ErrType)
			return
		}
		*dst = int(v)
	}
}

// Bool stores a boolean; null leaves it unchanged.
func (r *Reader) Bool(dst *bool) {
	if r.err != nil || r.null() {
		return
	}
	switch r.peek() {
	case 't':
		*dst = true
		r.pos += 4
	case 'f':
		*dst = false
		r.pos += 5
	default:
		r.wrongType()
	}
}

// Time stores an RFC 3339 time the way time.Time's UnmarshalJSON does:
// from the raw text between the quotes (escapes are not decoded there
// either, so they fail), null leaving it unchanged.
func (r *Reader) Time(dst *time.Time) {
	if r.err != nil || r.null() {
		return
	}
	if r.peek() != '"' {
		r.wrongType()
		return
	}
	start := r.pos
	end, _ := validValue(r.data, start)
	r.pos = end
	var t time.Time
	if err := t.UnmarshalText(r.data[start+1 : end-1]); err != nil {
		r.fail(ErrType)
		return
	}
	*dst = t
}

// rawString reads a string (the caller checked the quote) and returns its
// decoded bytes: a slice of the input when it has no escapes and is valid
// UTF-8, else the reused buffer.
func (r *Reader) rawString() []byte {
	start := r.pos + 1
	i := start
	for i < len(r.data) {
		c := r.data[i]
		if c == '"' {
			r.pos = i + 1
			return r.data[start:i]
		}
		if c == '\\' || c >= utf8.RuneSelf {
			break
		}
		i++
	}
	// Slow path: escapes or non-ASCII.
	b := append(r.buf[:0], r.data[start:i]...)
	for i < len(r.data) {
		c := r.data[i]
		switch {
		case c == '"':
			r.pos = i + 1
			r.buf = b
			return b
		case c == '\\':
			i++
			switch e := r.data[i]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				rr := hex4(r.data[i+1:])
				i += 4
				if utf16.IsSurrogate(rr) {
					var r2 rune = -1
					if i+6 < len(r.data) && r.data[i+1] == '\\' && r.data[i+2] == 'u' {
						r2 = hex4(r.data[i+3:])
					}
					if dec := utf16.DecodeRune(rr, r2); dec != utf8.RuneError {
						i += 6
						rr = dec
					} else {
						rr = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, rr)
			}
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			rr, size := utf8.DecodeRune(r.data[i:])
			if rr == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, r.data[i:i+size]...)
			}
			i += size
		}
	}
	r.fail(ErrSyntax)
	return nil
}

func hex4(b []byte) rune {
	var v rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		v = v<<4 | rune(c)
	}
	return v
}

// KeyIs reports whether a member's key names a field: exactly, or else
// ASCII case-insensitively (encoding/json's fallback; its Unicode folds
// of 'K' and 'S' are not needed for our ASCII field names, and a key that
// needs them is one prchip never writes).
func KeyIs(key []byte, name string) bool {
	if len(key) != len(name) {
		return false
	}
	if string(key) == name {
		return true
	}
	for i := 0; i < len(key); i++ {
		a, b := key[i], name[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

// validValue checks the JSON value starting at b[i] (no leading space)
// and returns the offset after it.
func validValue(b []byte, i int) (int, bool) {
	return valid(b, i, 0)
}

func valid(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch c := b[i]; {
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return i, false
		}
		closer := byte(']')
		if c == '{' {
			closer = '}'
		}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == closer {
			return i + 1, true
		}
		for {
			var ok bool
			if c == '{' { // a member's key and colon
				if i >= len(b) || b[i] != '"' {
					return i, false
				}
				if i, ok = validString(b, i); !ok {
					return i, false
				}
				i = skipSpace(b, i)
				if i >= len(b) || b[i] != ':' {
					return i, false
				}
				i = skipSpace(b, i+1)
			}
			if i, ok = valid(b, i, depth+1); !ok {
				return i, false
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return i, false
			}
			if b[i] == closer {
				return i + 1, true
			}
			if b[i] != ',' {
				return i, false
			}
			i = skipSpace(b, i+1)
		}
	case c == '"':
		return validString(b, i)
	case c == '-' || (c >= '0' && c <= '9'):
		return validNumber(b, i)
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	}
	return i, false
}

func literal(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

func validString(b []byte, i int) (int, bool) {
	i++
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			i++
			if i >= len(b) {
				return i, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if len(b)-i < 5 || hex4(b[i+1:]) < 0 {
					return i, false
				}
				i += 5
			default:
				return i, false
			}
		default:
			i++
		}
	}
	return i, false
}

func validNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	return i, true
}
