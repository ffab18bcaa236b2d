package config

import (
	"strconv"
	"strings"
	"testing"
)

func TestTOMLKeyLines(t *testing.T) {
	doc, broken := parseTOML("a = 1\n\n[chips.x]\n# c\ncommand = \"\"\"\nmulti = 1\n\"\"\"\nlist = [\n  \"x = 1\",\n]\ntimeout = \"1s\"\n" +
		"[shell.\"zsh\"]\nformat.q = 1\n'odd key' = 2\n")
	if len(broken) > 0 {
		t.Fatal(broken[0])
	}
	want := map[string]int{"a": 1, "chips": 3, "chips.x": 3, "chips.x.command": 5, "chips.x.list": 8, "chips.x.timeout": 11,
		"shell.zsh": 12, "shell.zsh.format.q": 13, "shell.zsh.odd key": 14}
	for k, l := range want {
		if doc.lines[k] != l {
			t.Errorf("line of %s: %d, want %d", k, doc.lines[k], l)
		}
	}
	for _, k := range []string{"chips.x.multi", "chips.x.x"} {
		if _, ok := doc.lines[k]; ok {
			t.Errorf("%s is inside a string, not a key", k)
		}
	}
}

// Comments, and brackets, = and # inside strings, do not move keys.
func TestTOMLKeyLinesOddLines(t *testing.T) {
	doc, broken := parseTOML("invalidate_on = [\"[\", # [\n  \"]x\"]\n\"a=b\" = 1\n[chips.x] # see [docs]\ncommand = \"echo '#'\"\ntimeout = \"1s\"\n")
	if len(broken) > 0 {
		t.Fatal(broken[0])
	}
	for k, l := range map[string]int{"invalidate_on": 1, "a=b": 3, "chips.x": 4, "chips.x.command": 5, "chips.x.timeout": 6} {
		if doc.lines[k] != l {
			t.Errorf("line of %s: %d, want %d (%v)", k, doc.lines[k], l, doc.lines)
		}
	}
}

// Syntax errors carry the decoder's line.
func TestTOMLRejects(t *testing.T) {
	for src, line := range map[string]int{
		"a = 1\na = 2\n":       2,
		"[t]\n[t]\n":           2,
		"a = \"open\n":         1,
		"a = bare\n":           1,
		"\n\na = \"\\q\"\n":    3,
		"x = 1\n= 2\n":         2,
		"a = \"\xff\"\n":       1,
		"a = { b = 1 }\n[a]\n": 2,
	} {
		_, te := decode(src)
		if te == nil || te.Line != line || te.Msg == "" {
			t.Errorf("%q: got %#v, want a problem at line %d", src, te, line)
		}
	}
}

// A deeply nested or huge file is decoded without overflowing the stack
// (a crash fails the test; how long it takes is scripts/bench's business,
// not a test's).
func TestTOMLDeepNesting(t *testing.T) {
	for name, src := range map[string]string{
		"50,000-level header":     "[" + strings.Repeat("a.", 50000) + "a]\n",
		"50,000-level dotted key": strings.Repeat("a.", 50000) + "a = 1\n",
		"50,000 nested arrays":    "a = " + strings.Repeat("[", 50000) + strings.Repeat("]", 50000) + "\n",
		"50,000 nested tables":    "a = " + strings.Repeat("{b = ", 50000) + "1" + strings.Repeat("}", 50000) + "\n",
		"200,000-element array":   "a = [" + strings.Repeat("1,", 200000) + "1]\n",
		"40,000 tables":           manyTables(40000),
	} {
		// Nesting past the bound is one problem, refused before it is
		// decoded; width is no problem at all.
		want := 1
		if strings.HasPrefix(name, "200,000") || strings.HasPrefix(name, "40,000") {
			want = 0
		}
		if _, problems := parseTOML(src); len(problems) != want {
			t.Errorf("%s: %d problems, want %d", name, len(problems), want)
		}
	}
	if _, te := decode("[" + strings.Repeat("a.", 40) + "a]\n"); te == nil || te.Line != 1 {
		t.Errorf("a 41-level header: %v, want a problem at line 1", te)
	}
	// What stands in strings and comments is not nesting.
	ok := "format = \"" + strings.Repeat(".", 40) + strings.Repeat("[", 40) + "\\\"{\"\n" +
		"# " + strings.Repeat("[a.", 40) + "\n" +
		"[chips.x]\ncommand = '" + strings.Repeat("{.", 40) + "'\n" +
		"[shell.zsh]\nformat = \"\"\"\n" + strings.Repeat("[.", 40) + "\n\"\"\"\n"
	if _, broken := parseTOML(ok); len(broken) > 0 {
		t.Errorf("dots and brackets in strings and comments refused: %v\n%s", broken[0], ok)
	}
}

func manyTables(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("[t" + strconv.Itoa(i) + "]\nk = 1\n")
	}
	return b.String()
}
