package config

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// Mistakes into advice: a line the decoder refused gets the fix where one is
// clear (most often a string without quotes), an unknown key or table the
// nearest valid name. None of it runs for a good file.

// shellNames are the [shell.NAME] tables, in `prchip config`'s order.
var shellNames = []string{"zsh", "bash", "fish", "plain", "tmux", "statusline"}

// valueAt is the typed value the key path ("chips.x.timeout") decodes
// into, for a hint that depends on its kind; nil for a key without one.
func valueAt(key string) value {
	switch parts := strings.Split(key, "."); {
	case len(parts) == 1:
		return find(topFields, new(Config), key)
	case len(parts) == 3 && parts[0] == "shell":
		return find(shellFields, new(ShellOverride), parts[2])
	case len(parts) == 3 && parts[0] == "chips":
		return find(chipFields, new(ShellChip), parts[2])
	}
	return nil
}

// syntaxProblem reports a statement the decoder refused, which was
// skipped (or, when e is Fatal, why the whole file was).
func (c *Config) syntaxProblem(e *tomlError) {
	msg := e.Msg
	switch {
	case e.Fatal:
	case e.SetOn > 0 && e.Header:
		msg = fmt.Sprintf("[%s] is already defined on line %d; the keys under this one are ignored, up to the next table", e.Key, e.SetOn)
	case e.SetOn > 0:
		msg = fmt.Sprintf("already set on line %d, which is the one used (line ignored)", e.SetOn)
	case e.Header:
		msg = "broken table header: " + e.Msg
		code := codeOf(e.Text)
		if fix := "[" + e.Key + "]"; e.Key != "" && fix != code && !strings.HasPrefix(code, "[[") && valid(fix) {
			msg += "; write " + fix
		}
		msg += "; the keys under it are ignored, up to the next table"
	default:
		msg = cmp.Or(hint(e), msg)
		if e.From != e.To {
			msg += fmt.Sprintf(" (lines %d to %d ignored)", e.From, e.To)
		} else {
			msg += " (line ignored)"
		}
	}
	c.problem(e.Line, e.Key, msg)
}

// hint is what to write instead of a refused "key = value" line, or of an
// element on its own line in a multi-line array; "" when no fix is clear.
func hint(e *tomlError) string {
	if e.Assign == "" {
		return ""
	}
	if e.Line != e.From { // an element of a multi-line array, perhaps
		_, value, _ := strings.Cut(codeOf(e.First), "=")
		elem := strings.TrimSpace(strings.TrimSuffix(codeOf(e.Text), ","))
		if fix := quoteFix(elem); fix != "" && strings.HasPrefix(strings.TrimSpace(value), "[") && !strings.Contains(elem, "=") {
			return "strings need quotes: write " + fix
		}
		return ""
	}
	eq := indexOutside(e.Text, '=')
	if eq < 0 {
		return ""
	}
	value := codeOf(e.Text[eq+1:])
	if value == "" {
		// A bare "#{number}" is a comment: the value is all the rest.
		if value = strings.TrimSpace(e.Text[eq+1:]); strings.HasPrefix(value, "#") {
			return "strings need quotes (a # outside quotes starts a comment): write " + e.Assign + " " + quoted(value)
		}
		return ""
	}
	switch valueAt(e.Key).(type) {
	case *flag, set[bool]:
		if low := strings.ToLower(value); low == "true" || low == "false" {
			return "true and false are written in lower case: write " + e.Assign + " " + low
		}
		return "must be true or false, not " + value
	case *width:
		return "must be a whole number, not " + value
	case *words:
		if fix := quoteFix(value); fix != "" {
			return "must be a list of strings: write " + e.Assign + " [" + fix + "]"
		}
		if inner, ok := strings.CutPrefix(value, "["); ok && strings.HasSuffix(inner, "]") {
			var elems []string
			for _, w := range strings.Split(strings.TrimSuffix(inner, "]"), ",") {
				if w = strings.TrimSpace(w); w != "" {
					elems = append(elems, cmp.Or(quoteFix(w), w))
				}
			}
			if fix := "[" + strings.Join(elems, ", ") + "]"; valid("v = " + fix) {
				return "strings need quotes: write " + e.Assign + " " + fix
			}
		}
		return ""
	}
	if fix := quoteFix(value); fix != "" {
		return "strings need quotes: write " + e.Assign + " " + fix
	}
	return ""
}

// quoteFix is v, which is not a TOML value, as a TOML string that is one
// ("" for none): a word or words without quotes, or with a quote at one
// end only.
func quoteFix(v string) string {
	inner := strings.TrimPrefix(strings.TrimPrefix(v, `"`), "'")
	inner = strings.TrimSuffix(strings.TrimSuffix(inner, `"`), "'")
	fix := `"` + inner + `"`
	if inner == "" || strings.ContainsAny(inner, "\"'\\[]{}") || valid("v = "+v) || !valid("v = "+fix) {
		return ""
	}
	return fix
}

// quoted is s as a TOML basic string.
func quoted(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// valid tells whether src ("v = " and a value, or a header) is TOML.
func valid(src string) bool {
	var m map[string]any
	_, err := toml.Decode(src, &m)
	return err == nil
}

// unknownTopLevel is the message for an unknown top-level key k: a table
// written as a header ([shells.zsh]) is named as written, and the
// suggestion is the corrected header.
func unknownTopLevel(doc *document, k string) string {
	near, ok := nearest(k, append(keysOf(topFields), "symbols", "styles", "shell", "chips"))
	header := ""
	if n := doc.lineOf(k); n > 0 { // a line of doc.text, or none
		if s := codeOf(doc.text[n-1]); strings.HasPrefix(s, "[") {
			header = strings.Trim(s, "[] \t")
		}
	}
	switch {
	case header == "" && ok:
		return fmt.Sprintf("unknown key; did you mean %q?", near)
	case header == "":
		return "unknown key"
	case !ok:
		return "unknown table [" + header + "]"
	}
	parts := splitKey(header)
	parts[0] = near
	return fmt.Sprintf("unknown table [%s]; did you mean [%s]?", header, strings.Join(parts, "."))
}

// unknownIn is the message for a key unknown in a table of known keys.
func unknownIn(k string, known []string) string {
	if near, ok := nearest(k, known); ok {
		return fmt.Sprintf("unknown key; did you mean %q?", near)
	}
	return "unknown key; known: " + strings.Join(known, ", ")
}

// nearest is the candidate closest to s, if it is close: at most one edit
// in three of the candidate's letters (titel_width is one swap from
// title_width).
func nearest(s string, candidates []string) (string, bool) {
	best, bestD := "", 0
	for _, c := range candidates {
		limit := len(c) / 3
		if d := len(s) - len(c); d > limit || -d > limit {
			continue // too far apart in length alone (and s may be long)
		}
		if d := Distance(strings.ToLower(s), c); d <= limit && (best == "" || d < bestD) {
			best, bestD = c, d
		}
	}
	return best, best != "" && best != s
}

// Distance is the Damerau–Levenshtein distance of a and b (optimal string
// alignment: insertions, deletions, substitutions and swaps of neighbouring
// bytes, each one edit), by the usual dynamic programme over three rows;
// none of the chosen libraries has one. Config keys and cobra's command
// suggestions use it.
func Distance(a, b string) int {
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+1)
			if a[i-1] == b[j-1] {
				cur[j] = min(cur[j], prev[j-1])
			}
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
