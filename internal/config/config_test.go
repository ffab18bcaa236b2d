package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/BurntSushi/toml"

	"github.com/prchip/prchip/chip/format"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/rawfile"
)

func load(t *testing.T, body string) *Config {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return Load(p, rawfile.Reader{})
}

func TestMissingFileIsDefaults(t *testing.T) {
	c := Load(filepath.Join(t.TempDir(), "nope.toml"), rawfile.Reader{})
	if len(c.Problems) != 0 || c.Mode != ModeAuto || c.Timeout != 5*time.Second || c.RefreshInterval != 30*time.Second {
		t.Fatalf("%+v", c)
	}
}

func TestEmptyFile(t *testing.T) {
	c := load(t, "")
	if len(c.Problems) != 0 || c.Mode != ModeAuto {
		t.Fatalf("%+v", c.Problems)
	}
}

func TestValidFile(t *testing.T) {
	c := load(t, `mode = "always"
timeout = "2s"
refresh_interval = 60
invalidate_on = ["git", "hub"]

[chips.k8s]
command = "kubectl config current-context"
timeout = "1s"
suppress_on_failure = true

[chips.aws]
command = "echo $AWS_PROFILE"
`)
	if len(c.Problems) != 0 {
		t.Fatalf("problems: %v", c.Problems)
	}
	if c.Mode != ModeAlways || c.Timeout != 2*time.Second || c.RefreshInterval != time.Minute || strings.Join(c.InvalidateOn, ",") != "git,hub" {
		t.Fatalf("%+v", c)
	}
	if len(c.Chips) != 2 || c.Chips[0].Name != "aws" || c.Chips[1].Name != "k8s" || !c.Chips[1].SuppressOnFailure || c.Chips[1].Timeout != time.Second {
		t.Fatalf("chips %+v", c.Chips)
	}
	if c.Chips[0].Timeout != 2*time.Second {
		t.Fatalf("chip timeout does not default to the global one: %v", c.Chips[0].Timeout)
	}
	if c.Source["mode"] != c.Path+":1" {
		t.Fatalf("source %q", c.Source["mode"])
	}
}

// Each broken key is reported with file, line and key, and falls back to
// its default while the good keys still apply.
func TestProblemsNameFileLineKey(t *testing.T) {
	cases := []struct {
		name, body string
		line       int
		key, msg   string
	}{
		{"unknown key", "mode = \"auto\"\ncolour = \"red\"\n", 2, "colour", "unknown key"},
		{"wrong type", "\n\nmode = 3\n", 3, "mode", "must be"},
		{"bad mode", "mode = \"sometimes\"\n", 1, "mode", "must be"},
		{"bad duration", "timeout = \"5 parsecs\"\n", 1, "timeout", "not a duration"},
		{"duration out of range", "timeout = \"10m\"\n", 1, "timeout", "outside"},
		{"chip unknown key", "[chips.x]\ncommand = \"true\"\nsupress_on_failure = true\n", 3, "chips.x.supress_on_failure", "unknown key"},
		{"chip without command", "\n[chips.x]\ntimeout = \"1s\"\n", 2, "chips.x.command", "missing"},
		{"empty chip table", "[chips.x]\n", 1, "chips.x.command", "missing"},
		{"chip bad bool", "[chips.x]\ncommand = \"true\"\nsuppress_on_failure = \"yes\"\n", 3, "chips.x.suppress_on_failure", "true or false"},
		{"syntax error", "mode = \"auto\"\ntimeout = = 3\n", 2, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := load(t, c.body)
			if len(cfg.Problems) != 1 {
				t.Fatalf("problems %v", cfg.Problems)
			}
			p := cfg.Problems[0]
			if p.File != cfg.Path || p.Line != c.line || (c.key != "" && p.Key != c.key) || !strings.Contains(p.Msg, c.msg) {
				t.Fatalf("got %s", p)
			}
			s := p.String()
			if !strings.Contains(s, cfg.Path+":") {
				t.Fatalf("message %q lacks file:line", s)
			}
			if cfg.Timeout < 100*time.Millisecond || cfg.Mode == "" {
				t.Fatal("fallback to defaults failed")
			}
		})
	}
}

func TestUnreadableAndOddFiles(t *testing.T) {
	dir := t.TempDir()
	c := Load(dir, rawfile.Reader{}) // a directory
	if len(c.Problems) != 1 || !strings.Contains(c.Problems[0].Msg, "not a regular file") {
		t.Fatalf("%v", c.Problems)
	}
	big := filepath.Join(dir, "big.toml")
	os.WriteFile(big, []byte(strings.Repeat("# x\n", MaxSize/4+1)), 0o600)
	if c := Load(big, rawfile.Reader{}); len(c.Problems) != 1 || !strings.Contains(c.Problems[0].Msg, "larger") {
		t.Fatalf("%v", c.Problems)
	}
}

func FuzzLoad(f *testing.F) {
	f.Add("mode = \"auto\"\n[chips.x]\ncommand = \"a\"\n")
	f.Add("timeout = 3\ninvalidate_on = [\"a\", 1]\n")
	f.Add("preset = nerd\n[chips.x\ncommand = 1\ninvalidate_on = [\n  git,\n]\ntitel_width = \"\"\"\n")
	f.Fuzz(func(t *testing.T, body string) {
		c := Defaults("f.toml")
		c.parse(body)
		lines := strings.Count(body, "\n") + 1
		for _, p := range c.Problems {
			if p.Line < 0 || p.Line > lines {
				t.Fatalf("problem at line %d of %d: %s", p.Line, lines, p)
			}
		}
		if c.Mode != ModeAuto && c.Mode != ModeAlways && c.Mode != ModeOff {
			t.Fatalf("mode %q", c.Mode)
		}
		if c.Timeout < 100*time.Millisecond || c.Timeout > time.Minute {
			t.Fatalf("timeout %v", c.Timeout)
		}
		for _, p := range c.Problems {
			if p.File != "f.toml" {
				t.Fatal("problem without file")
			}
		}
	})
}

func TestLookKeys(t *testing.T) {
	c := load(t, `on_retryable = "keep"
format = "#{number} {title}( {checks_symbol})"
preset = "nerd"
color = false
hyperlinks = true
title_width = 30

[symbols]
merged = "M"

[styles]
number = "bold blue"
checks_failing = "bright-red"

[shell.plain]
hyperlinks = true

[shell.zsh]
format = "#{number}"
color = true
`)
	if len(c.Problems) != 0 {
		t.Fatalf("problems %v", c.Problems)
	}
	if c.OnRetryable != "keep" || c.Preset != "nerd" || c.Color || !c.Hyperlinks || c.TitleWidth != 30 {
		t.Fatalf("%+v", c)
	}
	o := c.ChipOptions("fish", "github.com", false)
	if o.Format != "#{number} {title}( {checks_symbol})" || o.Color || !o.Hyperlink || o.Symbols.Merged != "M" || o.Symbols.Closed != "\uf4dc" {
		t.Fatalf("fish options %+v", o)
	}
	if o.StyleOf("number") != "1;34" || o.StyleOf("checks.failing") != "91" || o.StyleOf("state.merged") != "35" || o.StyleOf("title") != "" {
		t.Fatalf("styles %q %q %q", o.StyleOf("number"), o.StyleOf("checks.failing"), o.StyleOf("state.merged"))
	}
	z := c.ChipOptions("zsh", "github.com", false)
	if z.Format != "#{number}" || !z.Color {
		t.Fatalf("zsh override not applied: %+v", z)
	}
	if p := c.ChipOptions("plain", "github.com", false); p.Color || !p.Hyperlink {
		t.Fatalf("plain: colour is never on, links only on request: %+v", p)
	}
	if z := c.ChipOptions("zsh", "github.com", env.Of(map[string]string{"NO_COLOR": "1"}).NoColor()); z.Color {
		t.Fatal("NO_COLOR ignored")
	}
}

func TestDefaultLook(t *testing.T) {
	c := Defaults("x")
	o := c.ChipOptions("zsh", "github.com", env.Of(map[string]string{"NO_COLOR": ""}).NoColor())
	if o.Format != "#{number}( {state})( {stale})" || !o.Color || o.Hyperlink {
		t.Fatalf("%+v", o)
	}
	if p := c.ChipOptions("plain", "github.com", false); p.Hyperlink || p.Color {
		t.Fatalf("plain %+v", p)
	}
}

func TestLookProblems(t *testing.T) {
	cases := []struct{ body, key, msg string }{
		{"format = \"{nope}\"\n", "format", "unknown field"},
		{"format = \"(#{number}\"\n", "format", "unclosed"},
		{"preset = \"emoji\"\n", "preset", "plain"},
		{"on_retryable = \"maybe\"\n", "on_retryable", "clear"},
		{"title_width = 500\n", "title_width", "0 (no limit) to 200"},
		{"[styles]\nnumber = \"sparkly\"\n", "styles.number", "unknown style"},
		{"[styles]\nfont = \"bold\"\n", "styles.font", "unknown key"},
		{"[symbols]\nopen = 1\n", "symbols.open", "string"},
		{"[shell.tcsh]\nformat = \"x\"\n", "shell.tcsh", "shells are"},
		{"[shell.zsh]\nfont = 1\n", "shell.zsh.font", "unknown key"},
		{"hyperlinks = \"yes\"\n", "hyperlinks", "true or false"},
		// A key in an inline table is reported at its table's line.
		{"\nsymbols = { open = 3 }\n", "symbols.open", "string"},
	}
	for _, c := range cases {
		cfg := load(t, c.body)
		if len(cfg.Problems) != 1 || cfg.Problems[0].Key != c.key || !strings.Contains(cfg.Problems[0].Msg, c.msg) || cfg.Problems[0].Line == 0 {
			t.Errorf("%q: problems %v", c.body, cfg.Problems)
		}
	}
}

// TestDurationText: durations print as a user writes them, and read back.
func TestDurationText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		24 * time.Hour: "24h", 90 * time.Minute: "1h30m", 5 * time.Second: "5s", 90 * time.Second: "1m30s",
		time.Hour + time.Second: "1h0m1s", 10 * time.Minute: "10m", 1500 * time.Millisecond: "1.5s", 0: "0s",
	} {
		got := durationText(d)
		back, err := time.ParseDuration(got)
		if got != want || err != nil || back != d {
			t.Errorf("durationText(%v) = %q (reads back as %v, %v), want %q", d, got, back, err, want)
		}
	}
}

// A huge or deeply nested format string is refused with its line and key,
// before any prompt renders it (a 50,000-level one took 18 s a render).
func TestFormatIsBounded(t *testing.T) {
	deep := strings.Repeat("(", 50000) + "{number}" + strings.Repeat(")", 50000)
	long := strings.Repeat("#{number} ", 200)
	for name, body := range map[string]string{
		"deep":        "format = \"" + deep + "\"\n",
		"long":        "format = \"" + long + "\"\n",
		"deep shell":  "[shell.zsh]\nformat = \"" + deep + "\"\n",
		"nine levels": "format = \"" + strings.Repeat("(", 9) + "{number}" + strings.Repeat(")", 9) + "\"\n",
	} {
		c := load(t, body)
		if len(c.Problems) != 1 || c.Format != "" || c.Problems[0].Key != "format" && !strings.HasSuffix(c.Problems[0].Key, ".format") {
			t.Errorf("%s: problems %v, format %.20q", name, c.Problems, c.Format)
		}
	}
	if c := load(t, "format = \""+strings.Repeat("(", 8)+"{number}"+strings.Repeat(")", 8)+"\"\n"); len(c.Problems) != 0 {
		t.Errorf("eight levels refused: %v", c.Problems)
	}
}

// What `prchip config` and `status` print of a hostile file: values and
// problems hold no control, escape, bidi or format character and no token,
// and the values still read back as TOML strings.
func TestHostileFileIsPrintedSafely(t *testing.T) {
	const tok = "ghp_CONFIGTOKEN0123456789abcdefghijklm"
	c := load(t, `format = "#{number} \u001b]52;c;eA==\u0007\u202e{title}"`+"\n"+
		`"bad\u001b[2Jkey" = 1`+"\n"+
		"[shell.zsh]\n"+`format = "{title\u001b]0;pwned\u0007\u009b2J `+tok+`}"`+"\n"+
		"[chips.note]\n"+`command = "echo; : `+tok+`"`+"\n")
	var out strings.Builder
	for _, e := range c.Effective() {
		out.WriteString(e.Key + " = " + e.Value + "  # " + e.Source + "\n")
		if e.Value[0] == '"' {
			var v struct{ V string }
			if _, err := toml.Decode("V = "+e.Value, &v); err != nil {
				t.Errorf("%s: %s is not a TOML string: %v", e.Key, e.Value, err)
			}
		}
	}
	for _, p := range c.Problems {
		out.WriteString(p.String() + "\n")
	}
	s := out.String()
	if len(c.Problems) != 2 || !strings.Contains(s, "chips.note.command") {
		t.Fatalf("unexpected reading: %v\n%s", c.Problems, s)
	}
	for _, r := range s {
		if r != '\n' && (r < 0x20 || r >= 0x7f && r <= 0x9f || unicode.Is(unicode.Cf, r)) {
			t.Errorf("printed U+%04X:\n%s", r, s)
			break
		}
	}
	if strings.Contains(s, tok) {
		t.Errorf("printed the token:\n%s", s)
	}
}

// The merge and sync fields are styled like the others: by field, or by
// field and value; conflicts, a failing check and a removal from the merge
// queue are red by default.
func TestMergeFieldStyles(t *testing.T) {
	c := load(t, "[styles]\nsync_diverged = \"yellow\"\nqueue = \"bold\"\n")
	if len(c.Problems) != 0 {
		t.Fatalf("problems %v", c.Problems)
	}
	o := c.ChipOptions("fish", "github.com", false)
	for key, want := range map[string]format.Style{"sync.diverged": "33", "queue": "1", "merge_state.conflicts": "31",
		"failing_check": "31", "sync.ahead": "", "queue.dequeued": "31", "queue_state.dequeued": "31"} {
		if got := o.StyleOf(key); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
}

// BenchmarkParse reads a typical file, good and with one broken line (a
// second decoding pass).
func BenchmarkParse(b *testing.B) {
	good := `mode = "auto"
timeout = "3s"
format = "#{number}( {state})( {checks_symbol})"
preset = "nerd"
invalidate_on = [
  "git",
  "gh",
]

[styles]
number = "bold blue"

[shell.zsh]
color = true

[chips.k8s]
command = "kubectl config current-context"
suppress_on_failure = true
`
	for name, body := range map[string]string{"good": good, "one broken line": strings.Replace(good, `"nerd"`, "nerd", 1)} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c := Defaults("f.toml")
				c.parse(body)
			}
		})
	}
}

// tmux and agent status lines take per-shell overrides like the shells.
func TestShellOverridesForTmuxAndStatusline(t *testing.T) {
	c := load(t, "[shell.tmux]\nformat = \"#{number} T\"\ncolor = false\n[shell.statusline]\nformat = \"#{number} S\"\n")
	if len(c.Problems) != 0 {
		t.Fatalf("problems: %v", c.Problems)
	}
	if o := c.ChipOptions("tmux", "github.com", false); o.Format != "#{number} T" || o.Color {
		t.Errorf("tmux options %+v", o)
	}
	if o := c.ChipOptions("statusline", "github.com", false); o.Format != "#{number} S" {
		t.Errorf("statusline options %+v", o)
	}
}

// Durations: a number means seconds, whole or not (the README says so);
// a value out of range is said with the range as the README writes it
// ("1s to 24h", never "24h0m0s"), and no message names a Go type.
func TestDurationValues(t *testing.T) {
	cases := []struct {
		body string
		want time.Duration // Timeout; 0: the problem below
		msg  string
	}{
		{"timeout = 0.5\n", 500 * time.Millisecond, ""},
		{"timeout = 2\n", 2 * time.Second, ""},
		{"timeout = \"1m\"\n", time.Minute, ""},
		{"timeout = 0.05\n", 0, `key "timeout": 0.05 seconds is outside 100ms to 1m`},
		{"timeout = 61\n", 0, `key "timeout": 61 seconds is outside 100ms to 1m`},
		{"timeout = -1\n", 0, `key "timeout": -1 seconds is outside 100ms to 1m`},
		{"timeout = 1e300\n", 0, `key "timeout": 1e+300 seconds is outside 100ms to 1m`},
		{"timeout = \"90s\"\n", 0, `key "timeout": "90s" is outside 100ms to 1m`},
		{"refresh_interval = \"100h\"\n", 0, `key "refresh_interval": "100h" is outside 1s to 24h`},
		{"worker_idle = 0\n", 0, `key "worker_idle": 0 seconds is outside 1s to 168h`},
		{"timeout = true\n", 0, `key "timeout": must be a duration such as "5s" or a number of seconds, not true`},
		{"timeout = [1]\n", 0, `not a list`},
		{"timeout = 1979-05-27\n", 0, `not a date or time`},
		{"color = 1.5\n", 0, `key "color": must be true or false, not 1.5`},
	}
	for _, c := range cases {
		cfg := load(t, c.body)
		if c.msg == "" {
			if len(cfg.Problems) != 0 || cfg.Timeout != c.want {
				t.Errorf("%q: timeout %v, problems %v", c.body, cfg.Timeout, cfg.Problems)
			}
			continue
		}
		if len(cfg.Problems) != 1 || !strings.Contains(cfg.Problems[0].String(), c.msg) {
			t.Errorf("%q: problems %v, want %q", c.body, cfg.Problems, c.msg)
			continue
		}
		for _, bad := range []string{"float64", "int64", "bool)", "[]interface", "map[", "0m0s", "h0m"} {
			if strings.Contains(cfg.Problems[0].String(), bad) {
				t.Errorf("%q: %q says %q", c.body, cfg.Problems[0], bad)
			}
		}
	}
}

// What `prchip config` prints reads back as a config file: each setting,
// written as printed, gives the same settings without a problem, and a
// [shell.NAME] key the file does not set is not printed.
func TestEffectiveReadsBack(t *testing.T) {
	c := load(t, `mode = "always"
timeout = 2.5
refresh_interval = 90
settled_refresh_interval = "1h30m"
worker_idle = "168h"
invalidate_on = ["git", "jj"]
on_retryable = "keep"
format = "#{number} {title}"
preset = "nerd"
color = false
hyperlinks = true
title_width = 0
[symbols]
open = "O"
[styles]
number = "bold blue"
[shell.zsh]
format = "#{number}"
[shell.tmux]
color = true
hyperlinks = false
[chips.k8s]
command = "kubectl config current-context"
timeout = "1s"
suppress_on_failure = true
`)
	var file strings.Builder
	for _, e := range c.Effective() {
		file.WriteString(e.Key + " = " + e.Value + "\n")
	}
	for _, k := range []string{"timeout = \"2.5s\"", "refresh_interval = \"1m30s\"", "shell.zsh.format = \"#{number}\"",
		"shell.tmux.hyperlinks = false", "chips.k8s.refresh_interval = \"1m30s\"", "styles.state_merged = \"purple\""} {
		if !strings.Contains(file.String(), k+"\n") {
			t.Errorf("printed no %s:\n%s", k, file.String())
		}
	}
	if strings.Contains(file.String(), "shell.zsh.color") {
		t.Errorf("printed an unset shell key:\n%s", file.String())
	}
	back := load(t, file.String())
	var got strings.Builder
	for _, e := range back.Effective() {
		got.WriteString(e.Key + " = " + e.Value + "\n")
	}
	if len(c.Problems) != 0 || len(back.Problems) != 0 || got.String() != file.String() {
		t.Errorf("problems %v, read back %v:\n%s\nwant\n%s", c.Problems, back.Problems, got.String(), file.String())
	}
}
