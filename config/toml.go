package config

import (
	"errors"
	"strings"

	"github.com/BurntSushi/toml"
)

// The file is decoded by BurntSushi/toml. It does not say on which line a
// key stands, so keyLines finds that in one pass over the text, for
// problems that name file, line and key.

// tomlError is a syntax error at a line.
type tomlError struct {
	Line int
	Key  string
	Msg  string
}

func (e *tomlError) Error() string { return e.Msg }

// document is a decoded file: values, and the line of every key path
// ("chips.x.command") and table header ("chips", "chips.x").
type document struct {
	root  map[string]any
	lines map[string]int
}

// maxDepth bounds how deeply keys, tables, arrays and inline tables nest:
// prchip's own keys go three deep, and the decoder takes seconds on a file
// of thousands of levels.
const maxDepth = 32

func parseTOML(src string) (*document, error) {
	if line := tooDeep(src); line > 0 {
		return nil, &tomlError{Line: line, Msg: "nested more than 32 levels deep"}
	}
	root := map[string]any{}
	if _, err := toml.Decode(src, &root); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			msg := pe.Message
			if pe.Usage != "" {
				msg += " (" + strings.TrimSpace(pe.Usage) + ")"
			}
			return nil, &tomlError{Line: pe.Position.Line, Key: pe.LastKey, Msg: msg}
		}
		return nil, &tomlError{Msg: err.Error()}
	}
	return &document{root: root, lines: keyLines(src)}, nil
}

// keyLines maps each key path and table header to the line it first
// appears on. It reads a file the decoder accepted, line by line: headers
// ([a.b], [[a]]), "key = value" lines (dotted and quoted keys), and skips
// the insides of multi-line strings and arrays. Linear in the file's size.
func keyLines(src string) map[string]int {
	lines := map[string]int{}
	set := func(k string, n int) {
		if _, ok := lines[k]; !ok {
			lines[k] = n
		}
	}
	table, inString, depth := "", "", 0
	for i, line := range strings.Split(src, "\n") {
		n := i + 1
		s := strings.TrimSpace(line)
		if inString != "" { // inside a multi-line string
			if strings.Count(s, inString)%2 == 1 {
				inString = ""
			}
			continue
		}
		s = codeOf(s)
		if depth > 0 { // inside a multi-line array
			depth += countOutside(s, '[') - countOutside(s, ']')
			continue
		}
		if s == "" {
			continue
		}
		if s[0] == '[' {
			h := strings.Trim(s, "[] \t")
			parts := splitKey(h)
			for j := range parts {
				set(strings.Join(parts[:j+1], "."), n)
			}
			table = strings.Join(parts, ".")
			continue
		}
		eq := indexOutside(s, '=')
		if eq < 0 {
			continue
		}
		key := strings.Join(splitKey(s[:eq]), ".")
		if table != "" {
			key = table + "." + key
		}
		set(key, n)
		value := strings.TrimSpace(s[eq+1:])
		for _, q := range []string{`"""`, `'''`} {
			if strings.HasPrefix(value, q) && strings.Count(value, q)%2 == 1 {
				inString = q
			}
		}
		if strings.HasPrefix(value, "[") {
			depth = countOutside(value, '[') - countOutside(value, ']')
		}
	}
	return lines
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
	for i := indexOutside(s, c); i >= 0; {
		n++
		j := indexOutside(s[i+1:], c)
		if j < 0 {
			break
		}
		i += 1 + j
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
		k = strings.TrimSpace(k)
		k = strings.TrimPrefix(k, ".")
		k = strings.TrimSpace(k)
	}
	return parts
}
