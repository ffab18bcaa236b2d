package config

import (
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/BurntSushi/toml"
)

// BurntSushi/toml does not say on which line a key stands, so keyLines finds
// that in one pass over the text. The decoder stops at the first syntax
// error; parseTOML then skips the broken statement and decodes the rest
// again, so that one broken line costs only its own keys.

// tomlError is a statement the decoder refused (or, when Fatal, the reason
// the whole file was given up).
type tomlError struct {
	Line     int    // where the decoder stopped
	Key      string // the statement's key path ("chips.x.command"), or the header's path
	Msg      string // the decoder's message
	Header   bool   // a table header: its keys were skipped with it, not moved into the table before
	From, To int    // the lines skipped (a multi-line statement spans several)
	// Text is the refused line as the file has it, First the statement's
	// first line, Assign its "key =" as written: hints show the fix.
	Text, First, Assign string
	Fatal               bool
	SetOn               int // the line that first set a key (or table) refused as defined twice
}

// document is a decoded file: values, the line of every key path and table
// ("chips", "chips.x", "chips.x.command"), and the lines decoded (the file
// with its broken statements blanked).
type document struct {
	root  map[string]any
	lines map[string]int
	text  []string
	// skipped holds the placeholder tables that took the keys under a
	// broken header (at most maxBroken): not the user's, not interpreted.
	skipped []string
}

// maxDepth bounds how deeply keys, tables, arrays and inline tables nest:
// prchip's own keys go three deep, and the decoder takes seconds on a file
// of thousands of levels.
const maxDepth = 32

// Recovery is bounded: at most maxBroken broken statements are skipped, and
// all passes together read at most decodeBudget bytes (two over the largest
// file, so a broken file costs about twice a good one). Beyond that the
// file is given up for the defaults.
const (
	maxBroken    = 16
	decodeBudget = 2 << 20
)

// parseTOML decodes src, blanking each statement the decoder refuses (line
// numbers stay) and decoding again; a broken header becomes a placeholder
// table, which takes the keys under it. The document is nil when the file
// is given up; the last error then says why (Fatal).
func parseTOML(src string) (*document, []*tomlError) {
	// The decoder skips a byte-order mark and then counts offsets from
	// after it: skip it here so that offsets are the text's.
	for _, bom := range []string{"\xef\xbb\xbf", "\xff\xfe", "\xfe\xff"} {
		if strings.HasPrefix(src, bom) {
			src = src[len(bom):]
			break
		}
	}
	var broken []*tomlError
	var skipped []string
	text, spent := src, 0
	for {
		spent += len(text)
		root, e := decode(text)
		if e == nil {
			split := strings.Split(text, "\n")
			return &document{root: root, lines: keyLines(split), text: split, skipped: skipped}, broken
		}
		if len(broken) == maxBroken || spent+len(text) > decodeBudget {
			e.Fatal = true
			e.Msg = fmt.Sprintf("%s; too many broken lines (%d skipped before): using defaults for the whole file", e.Msg, len(broken))
			return nil, append(broken, e)
		}
		next, placeholder := skipStatement(text, src, e)
		if next == text {
			e.Fatal = true
			e.Msg += "; using defaults for the whole file"
			return nil, append(broken, e)
		}
		if placeholder != "" {
			skipped = append(skipped, placeholder)
		}
		broken = append(broken, e)
		text = next
	}
}

// decode is one pass of the decoder over text.
func decode(text string) (map[string]any, *tomlError) {
	if line := tooDeep(text); line > 0 {
		return nil, &tomlError{Line: line, Msg: "nested more than 32 levels deep"}
	}
	root := map[string]any{}
	if _, err := toml.Decode(text, &root); err != nil {
		pe, ok := errors.AsType[toml.ParseError](err)
		if !ok {
			return nil, &tomlError{Msg: err.Error()}
		}
		msg := strings.TrimSuffix(pe.Message, ".")
		if pe.Usage != "" {
			msg += " (" + strings.TrimSpace(pe.Usage) + ")"
		}
		// The byte offset, not Position.Line: the decoder counts an error
		// at a line's newline on the next line.
		line := pe.Position.Line
		if pe.Position.Start > 0 && pe.Position.Start <= len(text) {
			line = 1 + strings.Count(text[:pe.Position.Start], "\n")
		}
		return nil, &tomlError{Line: line, Key: pe.LastKey, Msg: msg}
	}
	return root, nil
}

// lineOf is the line of a key path, or of its nearest enclosing table's
// (a key inside an inline table has none of its own).
func (d *document) lineOf(key string) int {
	for {
		if n, ok := d.lines[key]; ok {
			return n
		}
		i := strings.LastIndexByte(key, '.')
		if i < 0 {
			return 0
		}
		key = key[:i]
	}
}

// skipStatement is text without the statement that holds e's line, and
// fills e in: the statement's lines, key and text as src has them (where a
// header skipped before still names the table). A header becomes a
// placeholder table, whose name it returns. text comes back unchanged when
// there is nothing left to skip there.
func skipStatement(text, src string, e *tomlError) (string, string) {
	lines, orig := strings.Split(text, "\n"), strings.Split(src, "\n")
	if e.Line < 1 || e.Line > min(len(lines), len(orig)) {
		return text, ""
	}
	e.From, e.To, e.Key = e.Line, e.Line, ""
	for st := range statements(lines) {
		if st.start > e.Line {
			break
		}
		if st.end == 0 || e.Line <= st.end {
			// An unterminated statement is skipped up to the error only:
			// what follows may be good.
			e.From, e.To, e.Header = st.start, max(st.end, e.Line), st.header
			e.Key, e.Assign = st.key, st.assign
			break
		}
	}
	for st := range statements(orig[:e.From]) {
		if st.start == e.From {
			e.Key, e.Assign = st.key, st.assign
		}
	}
	e.Text, e.First = orig[e.Line-1], orig[e.From-1]
	if strings.HasSuffix(e.Msg, "has already been defined") && e.Key != "" {
		// A key or table set twice: the first is the one that counts.
		for st := range statements(orig[:e.From-1]) {
			if st.key == e.Key || !e.Header && st.dotted && strings.HasPrefix(e.Key, st.key+".") {
				e.SetOn = st.start
				break
			}
		}
	}
	if e.Header {
		// The name holds a NUL, which no real file's key does; only the
		// names recorded here are passed over.
		lines[e.From-1] = fmt.Sprintf(`["\u0000skipped line %d"]`, e.From)
		return strings.Join(lines, "\n"), fmt.Sprintf("\x00skipped line %d", e.From)
	}
	if strings.TrimSpace(strings.Join(lines[e.From-1:e.To], "")) == "" {
		return text, ""
	}
	clear(lines[e.From-1 : e.To])
	return strings.Join(lines, "\n"), ""
}

// statement is a key/value or table header as the line scanner sees it:
// lines start to end (end 0: it never ends), the key path with the
// table's, and for a key its "key =" as written.
type statement struct {
	start, end int
	key        string
	header     bool
	assign     string
	dotted     bool // a key of several parts ("shells.zsh.color = …")
}

// keyLines maps each key path and table to the line it first appears on.
func keyLines(src []string) map[string]int {
	lines := map[string]int{}
	set := func(k string, n int) {
		if _, ok := lines[k]; !ok {
			lines[k] = n
		}
	}
	for st := range statements(src) {
		if !st.header && !st.dotted {
			set(st.key, st.start)
			continue
		}
		// A header, or a dotted key, defines the tables it names too (a
		// table's own prefixes are its header's already).
		parts := splitKey(st.key)
		for j := range parts {
			set(strings.Join(parts[:j+1], "."), st.start)
		}
	}
	return lines
}

// statements are the statements of src's lines, in order:
// headers ([a.b], [[a]]) and "key = value" lines (dotted and quoted keys),
// past the insides of multi-line strings and arrays. Linear in the file's
// size; src need not be valid TOML.
func statements(src []string) iter.Seq[statement] {
	return func(f func(statement) bool) {
		table, inString, depth := "", "", 0
		var open statement // a multi-line statement not yet ended
		for n, line := range src {
			n++
			s := strings.TrimSpace(line)
			if open.start > 0 { // inside a multi-line string or array
				if inString == "" {
					s = codeOf(s)
					depth += countOutside(s, '[') - countOutside(s, ']')
				}
				if inString != "" && strings.Count(s, inString)%2 == 1 || inString == "" && depth <= 0 {
					inString = ""
					if open.end = n; !f(open) {
						return
					}
					open = statement{}
				}
				continue
			}
			if s = codeOf(s); s == "" {
				continue
			}
			st := statement{start: n, end: n} // a line that is neither has no key
			switch eq := indexOutside(s, '='); {
			case s[0] == '[':
				table = strings.Join(splitKey(strings.Trim(s, "[] \t")), ".")
				st.key, st.header = table, true
			case eq >= 0:
				parts := splitKey(s[:eq])
				st.key, st.assign, st.dotted = strings.Join(parts, "."), strings.TrimSpace(s[:eq+1]), len(parts) > 1
				if table != "" {
					st.key = table + "." + st.key
				}
				value := strings.TrimSpace(s[eq+1:])
				if q := value[:min(3, len(value))]; (q == `"""` || q == `'''`) && strings.Count(value, q)%2 == 1 {
					inString = q
				}
				if strings.HasPrefix(value, "[") {
					depth = countOutside(value, '[') - countOutside(value, ']')
				}
				if inString != "" || depth > 0 {
					st.end = 0 // ends on a later line
					open = st
					continue
				}
			}
			if !f(st) {
				return
			}
		}
		if open.start > 0 {
			f(open) // never ended: end stays 0
		}
	}
}

// tooDeep returns the first line at which a dotted key or header, or the
// brackets and braces open at once, go deeper than maxDepth; 0 if none.
// What stands in quotes does not count (a triple-quoted string counts as
// three quotes, which leaves it quoted too): a bound, not a parser.
func tooDeep(src string) int {
	line, open, dots := 1, 0, 0
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\n' {
			line, dots = line+1, 0
			continue
		}
		if quote != 0 {
			switch {
			case c == '\\' && quote == '"' && i+1 < len(src) && src[i+1] != '\n':
				i++ // an escaped character, a quote perhaps
			case c == quote:
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			quote = c
		case '#':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case '.':
			dots++
		case '[', '{':
			open++
		case ']', '}':
			open--
		}
		if dots > maxDepth || open > maxDepth {
			return line
		}
	}
	return 0
}

// codeOf is a line without its comment and surrounding space.
func codeOf(s string) string {
	if i := indexOutside(s, '#'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// indexOutside is the index of the first c outside quotes in a line, or -1.
func indexOutside(s string, c byte) int {
	var quote byte
	for i := 0; i < len(s); i++ {
		switch {
		case quote != 0 && s[i] == '\\' && quote == '"':
			i++
		case quote != 0 && s[i] == quote:
			quote = 0
		case quote != 0:
		case s[i] == '"' || s[i] == '\'':
			quote = s[i]
		case s[i] == c:
			return i
		}
	}
	return -1
}

// countOutside counts c outside quotes in a line.
func countOutside(s string, c byte) int {
	n := 0
	for i := indexOutside(s, c); i >= 0; i = indexOutside(s, c) {
		n, s = n+1, s[i+1:]
	}
	return n
}

// splitKey splits a dotted key into its parts, unquoting quoted ones.
func splitKey(k string) []string {
	var parts []string
	for k = strings.TrimSpace(k); k != ""; {
		var part string
		if q := k[0]; q == '"' || q == '\'' {
			end := strings.IndexByte(k[1:], q)
			if end < 0 {
				end = len(k) - 1
			}
			part, k = k[1:1+end], k[min(len(k), end+2):]
		} else if dot := strings.IndexByte(k, '.'); dot >= 0 {
			part, k = k[:dot], k[dot:]
		} else {
			part, k = k, ""
		}
		parts = append(parts, strings.TrimSpace(part))
		k = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(k), "."))
	}
	return parts
}
