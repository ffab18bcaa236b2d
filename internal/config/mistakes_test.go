package config

import (
	"fmt"
	"strings"
	"testing"
)

// effective is `prchip config`'s value and source of key.
func effective(c *Config, key string) (value, source string) {
	for _, e := range c.Effective() {
		if e.Key == key {
			return e.Value, e.Source
		}
	}
	return "", ""
}

// want is a problem expected: its line, key and words in its message.
type want struct {
	line int
	key  string
	msg  []string
}

// TestMistakesExplained: each mistake is one problem naming file, line
// and key, with the fix where it is clear (a string without quotes, above
// all; the decoder's own messages for those differ with the word), and
// only the broken key falls back: every other key of the file applies,
// even when the TOML does not parse.
func TestMistakesExplained(t *testing.T) {
	cases := []struct {
		name     string
		body     string
		problems []want
		// values are `prchip config`'s: value, then the line it came
		// from (0: the default).
		values map[string]string
	}{
		{"unquoted word", "mode = \"always\"\npreset = nerd\ntitle_width = 20\n",
			[]want{{2, "preset", []string{`strings need quotes: write preset = "nerd"`}}},
			map[string]string{"mode": `"always" 1`, "title_width": "20 3", "preset": `"plain" 0`}},
		{"unquoted word with a comment", "preset = nerd # icons\nmode = \"off\"\n",
			[]want{{1, "preset", []string{`write preset = "nerd"`}}},
			map[string]string{"mode": `"off" 2`}},
		{"unquoted mode", "title_width = 10\nmode = always\n",
			[]want{{2, "mode", []string{`strings need quotes: write mode = "always"`}}},
			map[string]string{"mode": `"auto" 0`, "title_width": "10 1"}},
		{"unquoted duration, read as a number", "timeout = 5s\nrefresh_interval = \"1m\"\n",
			[]want{{1, "timeout", []string{`strings need quotes: write timeout = "5s"`}}},
			map[string]string{"timeout": `"5s" 0`, "refresh_interval": `"1m" 2`}},
		{"unquoted word with a dash, read as a bool", "on_retryable = \"keep\"\npreset = true-ish\n",
			[]want{{2, "preset", []string{`write preset = "true-ish"`}}},
			map[string]string{"on_retryable": `"keep" 1`}},
		{"unquoted words", "[styles]\nnumber = bold green\ntitle = \"italic\"\n",
			[]want{{2, "styles.number", []string{`write number = "bold green"`}}},
			map[string]string{"styles.title": `"italic" 3`}},
		{"a quote missing", "preset = \"nerd\nmode = \"off\"\n",
			[]want{{1, "preset", []string{`write preset = "nerd"`}}},
			map[string]string{"mode": `"off" 2`}},
		{"a bare # starts a comment", "format = #{number} {title}\ncolor = false\n",
			[]want{{1, "format", []string{"# outside quotes starts a comment", `write format = "#{number} {title}"`}}},
			map[string]string{"color": "false 2"}},
		{"unquoted chip command", "[chips.k8s]\ncommand = kubectl\n[chips.aws]\ncommand = \"echo $AWS_PROFILE\"\n",
			[]want{{2, "chips.k8s.command", []string{`write command = "kubectl"`}}},
			map[string]string{"chips.aws.command": `"echo $AWS_PROFILE" 4`, "chips.k8s.command": ""}},
		{"bool not true or false", "color = yes\nhyperlinks = True\ntitle_width = 5\n",
			[]want{{1, "color", []string{"must be true or false, not yes"}},
				{2, "hyperlinks", []string{"lower case: write hyperlinks = true"}}},
			map[string]string{"color": "true 0", "hyperlinks": "false 0", "title_width": "5 3"}},
		{"bool in a shell or chip table", "[shell.zsh]\ncolor = yes\n[chips.x]\ncommand = \"a\"\nsuppress_on_failure = True\n",
			[]want{{2, "shell.zsh.color", []string{"must be true or false, not yes"}},
				{5, "chips.x.suppress_on_failure", []string{"lower case: write suppress_on_failure = true"}}},
			map[string]string{"chips.x.command": `"a" 4`}},
		{"number with a unit", "title_width = 40px\nmode = \"off\"\n",
			[]want{{1, "title_width", []string{"must be a whole number, not 40px"}}},
			map[string]string{"title_width": "40 0", "mode": `"off" 2`}},
		{"list of bare words", "invalidate_on = [git, gh]\nmode = \"off\"\n",
			[]want{{1, "invalidate_on", []string{`write invalidate_on = ["git", "gh"]`}}},
			map[string]string{"invalidate_on": `["git", "gh", "gt"] 0`, "mode": `"off" 2`}},
		{"bare word for a list", "invalidate_on = git\n",
			[]want{{1, "invalidate_on", []string{`write invalidate_on = ["git"]`}}}, nil},
		{"multi-line array", "invalidate_on = [\n  \"git\",\n  hub,\n]\nmode = \"off\"\n",
			[]want{{3, "invalidate_on", []string{`write "hub"`, "lines 1 to 4 ignored"}}},
			map[string]string{"invalidate_on": `["git", "gh", "gt"] 0`, "mode": `"off" 5`}},
		{"syntax error", "mode = \"off\"\ntimeout = = 3\ntitle_width = 7\n",
			[]want{{2, "timeout", []string{"line ignored"}}},
			map[string]string{"mode": `"off" 1`, "title_width": "7 3"}},
		{"duplicate key: the first stays", "mode = \"off\"\nmode = \"always\"\n",
			[]want{{2, "mode", []string{"already set on line 1"}}},
			map[string]string{"mode": `"off" 1`}},
		// Not a hint about the value: the value is fine, the key is twice.
		{"duplicate number", "title_width = 30\ntimeout = \"2s\"\ntitle_width = 30\n",
			[]want{{3, "title_width", []string{"already set on line 1"}}},
			map[string]string{"title_width": "30 1", "timeout": `"2s" 2`}},
		{"duplicate through a dotted key", "shell.zsh.color = true\n[shell]\nzsh.color = false\n",
			[]want{{3, "shell.zsh.color", []string{"already set on line 1"}}},
			map[string]string{"shell.zsh.color": "true 1"}},
		{"duplicate table", "[chips.a]\ncommand = \"x\"\n[chips.a]\ncommand = \"y\"\n",
			[]want{{3, "chips.a", []string{"[chips.a] is already defined on line 1"}}},
			map[string]string{"chips.a.command": `"x" 2`}},
		{"each broken line", "timeout = 5s\nmode = always\npreset = nerd\ntitle_width = 9\n",
			[]want{{1, "timeout", []string{`"5s"`}}, {2, "mode", []string{`"always"`}}, {3, "preset", []string{`"nerd"`}}},
			map[string]string{"title_width": "9 4"}},
		// A broken header's keys are skipped with it, not moved into the
		// table above it (timeout would become chips.a's).
		{"broken table header", "[chips.a]\ncommand = \"true\"\n[chips.b\ncommand = \"false\"\ntimeout = \"2s\"\n[styles]\nnumber = \"bold\"\n",
			[]want{{3, "chips.b", []string{"broken table header", "write [chips.b]", "keys under it are ignored"}}},
			map[string]string{"chips.a.command": `"true" 2`, "chips.a.timeout": `"5s" 0`, "styles.number": `"bold" 7`, "chips.b.command": ""}},
		{"broken header at the top", "[shell.zsh]]\ncolor = false\n[shell.fish]\ncolor = false\n",
			[]want{{1, "shell.zsh", []string{"broken table header"}}},
			map[string]string{"shell.fish.color": "false 4", "shell.zsh.color": ""}},
		{"unterminated multi-line string", "mode = \"off\"\nformat = \"\"\"\n#{number}\n",
			[]want{{3, "format", []string{"lines 2 to 3 ignored"}}},
			map[string]string{"mode": `"off" 1`}},
		{"a bad value after a broken line", "preset = nerd\nmode = \"sometimes\"\ntitle_width = 3\n",
			[]want{{1, "preset", []string{`"nerd"`}}, {2, "mode", []string{`not "sometimes"`}}},
			map[string]string{"mode": `"auto" 0`, "title_width": "3 3"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := load(t, tc.body)
			checkProblems(t, c, tc.problems)
			for k, v := range tc.values {
				got, src := effective(c, k)
				if src != "default" && !strings.HasPrefix(src, "preset ") && src != "" {
					src = strings.TrimPrefix(src, c.Path+":")
				} else {
					src = "0"
				}
				if v == "" {
					if got != "" {
						t.Errorf("%s = %s (from %s), want it unset", k, got, src)
					}
					continue
				}
				if got+" "+src != v {
					t.Errorf("%s = %s from line %s, want %s", k, got, src, v)
				}
			}
		})
	}
}

// checkProblems compares c's problems, in order, with ws.
func checkProblems(t *testing.T, c *Config, ws []want) {
	t.Helper()
	var all strings.Builder
	for _, p := range c.Problems {
		all.WriteString("\n\t" + p.String())
	}
	if len(c.Problems) != len(ws) {
		t.Fatalf("%d problems, want %d:%s", len(c.Problems), len(ws), all.String())
	}
	for i, w := range ws {
		p, s := c.Problems[i], c.Problems[i].String()
		if p.File != c.Path || p.Line != w.line || p.Key != w.key ||
			!strings.Contains(s, fmt.Sprintf("%s:%d: key %q: ", c.Path, w.line, w.key)) {
			t.Errorf("problem %d: %s; want line %d, key %q", i, s, w.line, w.key)
		}
		for _, m := range w.msg {
			if !strings.Contains(p.Msg, m) {
				t.Errorf("problem %d: %s; want %q in it", i, s, m)
			}
		}
	}
}

// TestUnknownKeysSuggest: an unknown key, table or table key gets the
// nearest valid name when it is close, and only then; the rest applies.
func TestUnknownKeysSuggest(t *testing.T) {
	cases := []struct {
		name, body string
		problems   []want
	}{
		{"top-level key, swapped letters", "titel_width = 30\n", []want{{1, "titel_width", []string{`unknown key; did you mean "title_width"?`}}}},
		{"top-level key, a letter more", "colour = false\n", []want{{1, "colour", []string{`did you mean "color"?`}}}},
		{"top-level key, upper case", "\nMode = \"off\"\n", []want{{2, "Mode", []string{`did you mean "mode"?`}}}},
		{"table name", "[shells.zsh]\ncolor = false\n", []want{{1, "shells", []string{"unknown table [shells.zsh]; did you mean [shell.zsh]?"}}}},
		{"table name, singular", "[symbol]\nopen = \"o\"\n", []want{{1, "symbol", []string{"did you mean [symbols]?"}}}},
		{"chip table", "[chip.k8s]\ncommand = \"true\"\n", []want{{1, "chip", []string{"did you mean [chips.k8s]?"}}}},
		{"shell name", "[shell.zssh]\ncolor = false\n", []want{{1, "shell.zssh", []string{"did you mean [shell.zsh]?"}}}},
		{"chip key", "[chips.x]\ncommand = \"true\"\ncomand = \"echo\"\n", []want{{3, "chips.x.comand", []string{`unknown key; did you mean "command"?`}}}},
		{"chip key, the command misspelt", "[chips.x]\ncomand = \"echo\"\n", []want{
			{1, "chips.x.command", []string{"missing"}}, {2, "chips.x.comand", []string{`did you mean "command"?`}}}},
		{"shell key", "[shell.zsh]\nhyperlink = true\n", []want{{2, "shell.zsh.hyperlink", []string{`did you mean "hyperlinks"?`}}}},
		{"style key", "[styles]\nnumbr = \"bold\"\n", []want{{2, "styles.numbr", []string{`did you mean "number"?`}}}},
		{"symbol key", "[symbols]\nmerge = \"M\"\n", []want{{2, "symbols.merge", []string{`did you mean "merged"?`}}}},
		{"dotted key", "shells.zsh.color = false\n", []want{{1, "shells", []string{`unknown key; did you mean "shell"?`}}}},
		// Far from every name: no suggestion.
		{"far top-level key", "xyz = 1\n", []want{{1, "xyz", []string{"unknown key"}}}},
		{"far table", "[kubernetes]\na = 1\n", []want{{1, "kubernetes", []string{"unknown table [kubernetes]"}}}},
		{"far chip key", "[chips.x]\ncommand = \"true\"\nwibble = 1\n", []want{{3, "chips.x.wibble", []string{"known: command, timeout"}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := load(t, "title_width = 3\n"+tc.body)
			for i := range tc.problems {
				tc.problems[i].line++
			}
			checkProblems(t, c, tc.problems)
			if c.TitleWidth != 3 {
				t.Errorf("title_width %d: the rest of the file is not applied", c.TitleWidth)
			}
			for _, p := range c.Problems {
				if far := strings.HasPrefix(tc.name, "far"); far == strings.Contains(p.Msg, "did you mean") && !strings.Contains(p.Msg, "missing") {
					t.Errorf("%s: suggestion or none, wrongly: %s", tc.name, p)
				}
			}
		})
	}
}

// TestRecoveryIsBounded: a file of many broken lines is given up after
// maxBroken of them, or sooner for a large file (the passes read at most
// decodeBudget bytes), with a clear message, and quickly.
func TestRecoveryIsBounded(t *testing.T) {
	small := strings.Repeat("preset = nerd\n", 100)
	var big strings.Builder
	for big.Len() < MaxSize-100 {
		big.WriteString("k = nerd\n")
	}
	for _, tc := range []struct {
		name, body string
		problems   int
	}{
		{"100 broken lines", small, maxBroken + 1},
		{"1 MiB of broken lines", big.String(), 2},
	} {
		c := load(t, tc.body)
		last := c.Problems[len(c.Problems)-1]
		if len(c.Problems) != tc.problems || !strings.Contains(last.Msg, "too many broken lines") || !strings.HasSuffix(last.Msg, "using defaults for the whole file") {
			t.Errorf("%s: %d problems, last %s", tc.name, len(c.Problems), last)
		}
		if c.Preset != "plain" || len(c.Source) != 0 {
			t.Errorf("%s: not the defaults: %+v", tc.name, c)
		}
	}
	// Under the cap, the good keys still apply.
	c := load(t, strings.Repeat("k = nerd\n", maxBroken)+"title_width = 3\n")
	if len(c.Problems) != maxBroken || c.TitleWidth != 3 {
		t.Errorf("%d problems, title_width %d", len(c.Problems), c.TitleWidth)
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"titel_width", "title_width", 1}, {"colour", "color", 1},
		{"comand", "command", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3}, {"abcd", "badc", 2},
	} {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
