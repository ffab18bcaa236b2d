// Package jsonwrite writes JSON by hand-written walks instead of
// encoding/json's reflection, byte for byte as encoding/json writes the same
// values (Marshal, or an Encoder with SetIndent("", indent)).
//
// Why: encoding/json linked into prchip made every process start, and so
// every prompt, about 0.3 ms slower (its package initialisation, and a
// binary 460 KB larger whose start touches more pages), measured with
// interleaved runs of otherwise identical binaries. Its readers are in
// package jsonread. The tests hold each writer to encoding/json's output.
package jsonwrite

import (
	"slices"
	"time"
	"unicode/utf8"
)

// Writer appends one JSON value to a buffer. Values are written in order:
// Begin/End bracket objects and arrays, Key names the next member. The
// first error (a time out of JSON's range) sticks and Bytes reports it.
type Writer struct {
	b      []byte
	indent string
	// levels holds, per open object or array, whether a member was
	// written; afterKey is set between a Key and its value.
	levels   []bool
	afterKey bool
	err      error
}

// New starts a compact writer, as json.Marshal writes.
func New() *Writer { return &Writer{} }

// NewIndented starts a writer that indents as an Encoder with
// SetIndent("", indent) does, including the Encoder's final newline.
func NewIndented(indent string) *Writer { return &Writer{indent: indent} }

// Bytes returns the JSON text, or the first error.
func (w *Writer) Bytes() ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	if w.indent != "" {
		return append(w.b, '\n'), nil
	}
	return w.b, nil
}

// value places the separator and indentation a new value needs.
func (w *Writer) value() {
	if w.afterKey {
		w.afterKey = false
		return
	}
	w.member()
}

func (w *Writer) member() {
	n := len(w.levels)
	if n == 0 {
		return
	}
	if w.levels[n-1] {
		w.b = append(w.b, ',')
	}
	w.levels[n-1] = true
	w.newline(n)
}

func (w *Writer) newline(depth int) {
	if w.indent == "" {
		return
	}
	w.b = append(w.b, '\n')
	for range depth {
		w.b = append(w.b, w.indent...)
	}
}

// BeginObject opens an object.
func (w *Writer) BeginObject() { w.begin('{') }

// BeginArray opens an array.
func (w *Writer) BeginArray() { w.begin('[') }

func (w *Writer) begin(c byte) {
	w.value()
	w.b = append(w.b, c)
	w.levels = append(w.levels, false)
}

// EndObject closes the innermost object.
func (w *Writer) EndObject() { w.end('}') }

// EndArray closes the innermost array.
func (w *Writer) EndArray() { w.end(']') }

func (w *Writer) end(c byte) {
	n := len(w.levels)
	if w.levels[n-1] {
		w.newline(n - 1)
	}
	w.levels = w.levels[:n-1]
	w.b = append(w.b, c)
}

// Key names the next member of the innermost object.
func (w *Writer) Key(k string) {
	w.member()
	w.b = appendString(w.b, k)
	w.b = append(w.b, ':')
	if w.indent != "" {
		w.b = append(w.b, ' ')
	}
	w.afterKey = true
}

// String writes a string as encoding/json does: HTML-safe, invalid UTF-8
// as U+FFFD, U+2028 and U+2029 escaped.
func (w *Writer) String(s string) {
	w.value()
	w.b = appendString(w.b, s)
}

// Int writes an integer.
func (w *Writer) Int(i int64) {
	w.value()
	w.b = appendInt(w.b, i)
}

// Bool writes true or false.
func (w *Writer) Bool(v bool) {
	w.value()
	if v {
		w.b = append(w.b, "true"...)
	} else {
		w.b = append(w.b, "false"...)
	}
}

// Null writes null.
func (w *Writer) Null() {
	w.value()
	w.b = append(w.b, "null"...)
}

// Time writes a time as time.Time's MarshalJSON does (RFC 3339 with
// nanoseconds); a year outside 0..9999 is an error, as there.
func (w *Writer) Time(t time.Time) {
	w.value()
	w.b = append(w.b, '"')
	var err error
	if w.b, err = t.AppendText(w.b); err != nil && w.err == nil {
		w.err = err
	}
	w.b = append(w.b, '"')
}

// Strings writes a []string: null when nil, as encoding/json does.
func (w *Writer) Strings(ss []string) {
	if ss == nil {
		w.Null()
		return
	}
	w.BeginArray()
	for _, s := range ss {
		w.String(s)
	}
	w.EndArray()
}

// SortedKeys returns a map's keys in the order encoding/json writes them.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func appendInt(b []byte, i int64) []byte {
	if i < 0 {
		b = append(b, '-')
		if i == -1<<63 {
			return append(b, "9223372036854775808"...)
		}
		i = -i
	}
	var d [20]byte
	n := len(d)
	for {
		n--
		d[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return append(b, d[n:]...)
}

const hex = "0123456789abcdef"

// appendString is encoding/json's appendString with escapeHTML set.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
