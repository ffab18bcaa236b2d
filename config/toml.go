package config

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file parses the part of TOML that a configuration file needs:
// comments, tables ([a.b]), bare, quoted and dotted keys, basic and literal
// strings (also multi-line), integers, booleans, arrays and inline tables.
// Floats, dates and arrays of tables are refused with a clear message.
//
// Why not BurntSushi/toml, which the tests use as the oracle: linked into
// the binary it adds about 0.4 ms to every process start (its init loads
// the local time zone), and `prchip prompt` starts on every prompt. It also
// does not say on which line a key stands; this parser records that for
// every key, so problems name file, line and key exactly.

// tomlError is a syntax error at a line.
type tomlError struct {
	Line int
	Key  string
	Msg  string
}

func (e *tomlError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// document is a parsed file: values, and the line of every key path
// ("chips.x.command") and table header.
type document struct {
	root  map[string]any
	lines map[string]int
}

type parser struct {
	src     string
	pos     int
	line    int
	doc     *document
	headers map[string]bool // tables defined by a [header]
	inline  map[string]bool // inline tables and arrays: closed to additions
}

func parseTOML(src string) (*document, error) {
	if !utf8.ValidString(src) {
		return nil, &tomlError{Line: firstInvalidLine(src), Msg: "the file is not valid UTF-8"}
	}
	p := &parser{src: src, line: 1, doc: &document{root: map[string]any{}, lines: map[string]int{}},
		headers: map[string]bool{}, inline: map[string]bool{}}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.doc, nil
}

func firstInvalidLine(s string) int {
	line := 1
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return line
		}
		if r == '\n' {
			line++
		}
		i += n
	}
	return line
}

func (p *parser) errf(format string, a ...any) error {
	return &tomlError{Line: p.line, Msg: fmt.Sprintf(format, a...)}
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) skipSpace() {
	for !p.eof() && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// skipComment consumes a comment up to (not including) the newline.
func (p *parser) skipComment() error {
	if p.peek() != '#' {
		return nil
	}
	for !p.eof() && p.src[p.pos] != '\n' {
		c := p.src[p.pos]
		if c == '\r' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n' {
			break
		}
		if (c < 0x20 && c != '\t') || c == 0x7f {
			return p.errf("control character in a comment")
		}
		p.pos++
	}
	return nil
}

// endLine expects only space and a comment before the line ends.
func (p *parser) endLine() error {
	p.skipSpace()
	if err := p.skipComment(); err != nil {
		return err
	}
	if p.eof() {
		return nil
	}
	if p.peek() == '\r' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n' {
		p.pos++
	}
	if p.peek() != '\n' {
		return p.errf("unexpected %q after the value; one key = value per line", p.rest())
	}
	p.pos++
	p.line++
	return nil
}

func (p *parser) rest() string {
	end := strings.IndexByte(p.src[p.pos:], '\n')
	if end < 0 {
		end = len(p.src) - p.pos
	}
	s := p.src[p.pos : p.pos+end]
	if len(s) > 20 {
		s = s[:20] + "…"
	}
	return s
}

func (p *parser) parse() error {
	var table []string
	for !p.eof() {
		p.skipSpace()
		switch c := p.peek(); {
		case c == '\n' || c == '\r' || c == '#' || c == 0:
			if err := p.endLine(); err != nil {
				return err
			}
		case c == '[':
			t, err := p.header()
			if err != nil {
				return err
			}
			table = t
		default:
			if err := p.keyValue(table); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *parser) header() ([]string, error) {
	p.pos++
	if p.peek() == '[' {
		return nil, p.errf("arrays of tables ([[...]]) are not used by prchip's configuration")
	}
	p.skipSpace()
	key, err := p.key()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.peek() != ']' {
		return nil, p.errf("a table header must end with ]")
	}
	p.pos++
	path := strings.Join(key, ".")
	if p.headers[path] {
		return nil, &tomlError{Line: p.line, Key: path, Msg: fmt.Sprintf("table [%s] is defined twice", path)}
	}
	if _, err := p.table(key, true); err != nil {
		return nil, err
	}
	p.headers[path] = true
	if _, ok := p.doc.lines[path]; !ok {
		p.doc.lines[path] = p.line
	}
	return key, p.endLine()
}

// table returns the table at path, creating tables on the way.
func (p *parser) table(path []string, header bool) (map[string]any, error) {
	t := p.doc.root
	for i, k := range path {
		sub := strings.Join(path[:i+1], ".")
		v, ok := t[k]
		if !ok {
			n := map[string]any{}
			t[k] = n
			if _, seen := p.doc.lines[sub]; !seen {
				p.doc.lines[sub] = p.line
			}
			t = n
			continue
		}
		m, isTable := v.(map[string]any)
		if !isTable || p.inline[sub] {
			return nil, &tomlError{Line: p.line, Key: sub, Msg: fmt.Sprintf("key %q is already a value, not a table", sub)}
		}
		t = m
	}
	return t, nil
}

func (p *parser) key() ([]string, error) {
	var parts []string
	for {
		p.skipSpace()
		var part string
		switch c := p.peek(); {
		case c == '"':
			s, err := p.basicString()
			if err != nil {
				return nil, err
			}
			part = s
		case c == '\'':
			s, err := p.literalString()
			if err != nil {
				return nil, err
			}
			part = s
		default:
			start := p.pos
			for !p.eof() && isBare(p.peek()) {
				p.pos++
			}
			if p.pos == start {
				return nil, p.errf("expected a key, found %q", p.rest())
			}
			part = p.src[start:p.pos]
		}
		parts = append(parts, part)
		p.skipSpace()
		if p.peek() != '.' {
			return parts, nil
		}
		p.pos++
	}
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func (p *parser) keyValue(table []string) error {
	key, err := p.key()
	if err != nil {
		return err
	}
	full := append(append([]string{}, table...), key...)
	path := strings.Join(full, ".")
	line := p.line

	p.skipSpace()
	if p.peek() != '=' {
		return &tomlError{Line: line, Key: path, Msg: fmt.Sprintf("expected = after key %q", strings.Join(key, "."))}
	}
	p.pos++
	p.skipSpace()
	v, err := p.value(path)
	if err != nil {
		if te, ok := err.(*tomlError); ok && te.Key == "" {
			te.Key = path
		}
		return err
	}
	if err := p.set(full, v, line); err != nil {
		return err
	}
	return p.endLine()
}

func (p *parser) set(full []string, v any, line int) error {
	parent, err := p.table(full[:len(full)-1], false)
	if err != nil {
		return err
	}
	last := full[len(full)-1]
	path := strings.Join(full, ".")
	if _, dup := parent[last]; dup {
		return &tomlError{Line: line, Key: path, Msg: fmt.Sprintf("key %q is set twice", path)}
	}
	parent[last] = v
	p.doc.lines[path] = line
	switch v.(type) {
	case map[string]any, []any:
		p.inline[path] = true
	}
	return nil
}

func (p *parser) value(path string) (any, error) {
	switch c := p.peek(); {
	case c == '"':
		if strings.HasPrefix(p.src[p.pos:], `"""`) {
			return p.multiline('"', true)
		}
		return p.basicString()
	case c == '\'':
		if strings.HasPrefix(p.src[p.pos:], `'''`) {
			return p.multiline('\'', false)
		}
		return p.literalString()
	case c == '[':
		return p.array(path)
	case c == '{':
		return p.inlineTable(path)
	case c == 't' || c == 'f':
		for _, w := range []string{"true", "false"} {
			if strings.HasPrefix(p.src[p.pos:], w) && (p.pos+len(w) == len(p.src) || !isBare(p.src[p.pos+len(w)])) {
				p.pos += len(w)
				return w == "true", nil
			}
		}
		return nil, p.errf("expected true or false, found %q", p.rest())
	case c == '+' || c == '-' || (c >= '0' && c <= '9') || c == 'i' || c == 'n':
		return p.number()
	case c == 0 || c == '\n' || c == '#':
		return nil, p.errf("missing value")
	}
	return nil, p.errf("unexpected %q where a value should be (strings need quotes)", p.rest())
}

func (p *parser) number() (any, error) {
	start := p.pos
	for !p.eof() {
		c := p.peek()
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}' || c == '#' {
			break
		}
		p.pos++
	}
	s := p.src[start:p.pos]
	if strings.ContainsAny(s, ".eE:") && !strings.HasPrefix(s, "0x") || s == "inf" || s == "nan" || strings.HasSuffix(s, "inf") || strings.HasSuffix(s, "nan") {
		if strings.Contains(s, ":") || strings.Count(s, "-") >= 2 && !strings.HasPrefix(s, "-") {
			return nil, p.errf("dates and times are not used by prchip's configuration: %q", s)
		}
		return nil, p.errf("%q: prchip's configuration uses whole numbers or strings such as \"5s\", not floats", s)
	}
	if strings.Count(s, "-") > 1 || strings.Count(s, "-") == 1 && !strings.HasPrefix(s, "-") {
		return nil, p.errf("dates and times are not used by prchip's configuration: %q", s)
	}
	base, digits := 10, s
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o' || s[1] == 'b') {
		base = map[byte]int{'x': 16, 'o': 8, 'b': 2}[s[1]]
		digits = s[2:]
	} else {
		d := strings.TrimLeft(s, "+-")
		if len(s)-len(d) > 1 {
			return nil, p.errf("malformed number %q", s)
		}
		if len(d) > 1 && d[0] == '0' {
			return nil, p.errf("leading zeros are not allowed: %q", s)
		}
	}
	// Underscores only between digits.
	for i := 0; i < len(digits); i++ {
		if digits[i] == '_' && (i == 0 || i == len(digits)-1 || !isDigit(digits[i-1], base) || !isDigit(digits[i+1], base)) {
			return nil, p.errf("malformed number %q", s)
		}
	}
	digits = strings.ReplaceAll(digits, "_", "")
	if digits == "" || base != 10 && (digits[0] == '+' || digits[0] == '-') {
		return nil, p.errf("malformed number %q", s)
	}
	n, err := strconv.ParseInt(digits, base, 64)
	if err != nil {
		return nil, p.errf("malformed number %q", s)
	}
	return n, nil
}

func isDigit(c byte, base int) bool {
	switch base {
	case 16:
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	case 8:
		return c >= '0' && c <= '7'
	case 2:
		return c == '0' || c == '1'
	}
	return c >= '0' && c <= '9'
}

func (p *parser) basicString() (string, error) {
	p.pos++ // opening quote
	var b strings.Builder
	for {
		if p.eof() || p.peek() == '\n' {
			return "", p.errf("unterminated string")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c < 0x20 && c != '\t' || c == 0x7f:
			return "", p.errf("control character in a string (use an escape such as \\n)")
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

func (p *parser) escape(b *strings.Builder) error {
	p.pos++
	if p.eof() {
		return p.errf("unterminated string")
	}
	c := p.src[p.pos]
	p.pos++
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 't':
		b.WriteByte('\t')
	case 'n':
		b.WriteByte('\n')
	case 'f':
		b.WriteByte('\f')
	case 'r':
		b.WriteByte('\r')
	case 'e':
		b.WriteByte(0x1b)
	case '"':
		b.WriteByte('"')
	case '\\':
		b.WriteByte('\\')
	case 'u', 'U':
		n := 4
		if c == 'U' {
			n = 8
		}
		if p.pos+n > len(p.src) {
			return p.errf("short unicode escape")
		}
		v, err := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) {
			return p.errf("invalid unicode escape \\%c%s", c, p.src[p.pos:p.pos+n])
		}
		b.WriteRune(rune(v))
		p.pos += n
	default:
		return p.errf("invalid escape \\%c", c)
	}
	return nil
}

func (p *parser) literalString() (string, error) {
	p.pos++
	start := p.pos
	for {
		if p.eof() || p.peek() == '\n' {
			return "", p.errf("unterminated string")
		}
		c := p.src[p.pos]
		if c == '\'' {
			s := p.src[start:p.pos]
			p.pos++
			return s, nil
		}
		if c < 0x20 && c != '\t' || c == 0x7f {
			return "", p.errf("control character in a string")
		}
		p.pos++
	}
}

// multiline parses """...""" (escapes) and ”'...”' (literal): a newline
// right after the opening quotes is dropped; in the basic form a backslash
// at a line's end joins the lines. Up to two quotes may end the content.
func (p *parser) multiline(quote byte, escapes bool) (string, error) {
	delim := strings.Repeat(string(quote), 3)
	p.pos += 3
	p.skipFirstNewline()
	var b strings.Builder
	for {
		if p.eof() {
			return "", p.errf("unterminated multi-line string")
		}
		if strings.HasPrefix(p.src[p.pos:], delim) {
			extra := 0
			for extra < 2 && p.pos+3+extra < len(p.src) && p.src[p.pos+3+extra] == quote {
				extra++
			}
			b.WriteString(strings.Repeat(string(quote), extra))
			p.pos += 3 + extra
			return b.String(), nil
		}
		c := p.src[p.pos]
		switch {
		case c == '\\' && escapes:
			if p.joinLines() {
				continue
			}
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c == '\n':
			p.line++
			b.WriteByte('\n')
			p.pos++
		case c == '\r' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n':
			p.pos++
		case c < 0x20 && c != '\t' || c == 0x7f:
			return "", p.errf("control character in a string")
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// joinLines handles a backslash that ends a line inside """...""": it and
// all whitespace and newlines after it are dropped.
func (p *parser) joinLines() bool {
	// A carriage return counts only as part of CRLF.
	crlf := func(j int) bool { return p.src[j] == '\r' && j+1 < len(p.src) && p.src[j+1] == '\n' }
	j := p.pos + 1
	for j < len(p.src) && (p.src[j] == ' ' || p.src[j] == '\t' || crlf(j)) {
		j++
	}
	if j >= len(p.src) || p.src[j] != '\n' {
		return false
	}
	for j < len(p.src) && (p.src[j] == ' ' || p.src[j] == '\t' || p.src[j] == '\n' || crlf(j)) {
		if p.src[j] == '\n' {
			p.line++
		}
		j++
	}
	p.pos = j
	return true
}

func (p *parser) skipFirstNewline() {
	if strings.HasPrefix(p.src[p.pos:], "\r\n") {
		p.pos += 2
		p.line++
	} else if p.peek() == '\n' {
		p.pos++
		p.line++
	}
}

// skipBlank skips space, newlines and comments inside arrays.
func (p *parser) skipBlank() error {
	for !p.eof() {
		switch p.peek() {
		case ' ', '\t', '\r':
			p.pos++
		case '\n':
			p.pos++
			p.line++
		case '#':
			if err := p.skipComment(); err != nil {
				return err
			}
		default:
			return nil
		}
	}
	return nil
}

func (p *parser) array(path string) (any, error) {
	p.pos++
	arr := []any{}
	for {
		if err := p.skipBlank(); err != nil {
			return nil, err
		}
		if p.peek() == ']' {
			p.pos++
			return arr, nil
		}
		if p.eof() {
			return nil, p.errf("unterminated array")
		}
		v, err := p.value(path)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		if err := p.skipBlank(); err != nil {
			return nil, err
		}
		if p.eof() {
			return nil, p.errf("unterminated array")
		}
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return arr, nil
		default:
			return nil, p.errf("expected , or ] in the array, found %q", p.rest())
		}
	}
}

func (p *parser) inlineTable(path string) (any, error) {
	p.pos++
	t := map[string]any{}
	p.skipSpace()
	if p.peek() == '}' {
		p.pos++
		return t, nil
	}
	for {
		p.skipSpace()
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.peek() != '=' {
			return nil, p.errf("expected = in the inline table")
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(path)
		if err != nil {
			return nil, err
		}
		m := t
		for i, k := range key[:len(key)-1] {
			sub, ok := m[k]
			if !ok {
				n := map[string]any{}
				m[k] = n
				m = n
				continue
			}
			sm, isMap := sub.(map[string]any)
			if !isMap {
				return nil, p.errf("key %q is already a value", strings.Join(key[:i+1], "."))
			}
			m = sm
		}
		last := key[len(key)-1]
		if _, dup := m[last]; dup {
			return nil, p.errf("key %q is set twice in the inline table", strings.Join(key, "."))
		}
		m[last] = v
		p.doc.lines[path+"."+strings.Join(key, ".")] = p.line
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return t, nil
		default:
			return nil, p.errf("expected , or } in the inline table (inline tables stay on one line)")
		}
	}
}
