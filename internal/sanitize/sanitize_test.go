package sanitize

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// checkSafe asserts the sanitiser's output properties.
func checkSafe(t *testing.T, in, out string, max int) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("invalid UTF-8 out of %q: %q", in, out)
	}
	if max > 0 && len(out) > max {
		t.Fatalf("%d bytes, bound %d", len(out), max)
	}
	for i := 0; i < len(out); i++ {
		if c := out[i]; c < 0x20 || c == 0x7f {
			t.Fatalf("control byte %#x in %q (from %q)", c, out, in)
		}
	}
	prev := rune(0)
	for _, r := range out {
		if r >= 0x80 && r <= 0x9f {
			t.Fatalf("C1 control %U in %q (from %q)", r, out, in)
		}
		if unicode.Is(unicode.Bidi_Control, r) {
			t.Fatalf("bidi control %U in %q (from %q)", r, out, in)
		}
		if unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || r == 0x2028 || r == 0x2029 {
			t.Fatalf("invisible or line-breaking %U in %q (from %q)", r, out, in)
		}
		if unicode.Is(unicode.Variation_Selector, r) && (prev < utf8.RuneSelf || unicode.Is(unicode.Variation_Selector, prev)) {
			t.Fatalf("variation selector %U after %U in %q (from %q)", r, prev, out, in)
		}
		prev = r
	}
}

func TestTextTable(t *testing.T) {
	mb := strings.Repeat("title ", 1<<20/6+1)
	cases := []struct {
		name, in, want string
		max            int
	}{
		{"plain", "Fix the thing", "Fix the thing", 0},
		{"C1 CSI as UTF-8", "a\u009b31mred", "ared", 0},
		{"C1 CSI as raw byte", "a\x9b31mred", "ared", 0},
		{"OSC 52 clipboard (BEL)", "a\x1b]52;c;ZXZpbA==\x07b", "ab", 0},
		{"OSC 52 clipboard (ST)", "a\x1b]52;c;ZXZpbA==\x1b\\b", "ab", 0},
		{"OSC 8 link", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click", 0},
		{"OSC 0 title", "x\x1b]0;owned\x07y", "xy", 0},
		{"C1 OSC", "x\u009d0;owned\u009cy", "xy", 0},
		{"DCS", "x\x1bPq#0;2;0;0;0\x1b\\y", "xy", 0},
		{"CSI colour", "\x1b[1;31mred\x1b[0m", "red", 0},
		{"CSI cursor movement", "a\x1b[2Ab\x1b[10;20Hc", "abc", 0},
		{"two-byte ESC", "a\x1b(Bb\x1bcc", "abc", 0},
		{"unterminated OSC eats the rest", "safe\x1b]0;never ends", "safe", 0},
		{"RLO", "abc\u202edcba", "abcdcba", 0},
		{"isolates", "\u2066a\u2069\u2067b\u2068c\u2069", "abc", 0},
		{"invalid UTF-8", "a\xff\xfeb", "a\ufffd\ufffdb", 0},
		{"newlines and tabs", "a\n\tb\r\nc", "a b c", 0},
		{"NUL and DEL", "a\x00b\x7fc", "abc", 0},
		{"line and paragraph separators", "a\u2028b\u2029c", "a b c", 0},
		{"zero-width space", "a\u200bb", "ab", 0},
		{"word joiner, BOM, soft hyphen", "a\u2060b\ufeffc\u00add", "abcd", 0},
		{"zero-width non-joiner", "a\u200cb", "ab", 0},
		{"tag characters", "x\U000E0001\U000E0068\U000E0069\U000E007Fy", "xy", 0},
		{"emoji tag sequence keeps its flag", "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", "\U0001F3F4", 0},
		{"ZWJ between letters", "ab\u200dcd", "abcd", 0},
		{"ZWJ family becomes its emoji", "\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F468\U0001F469\U0001F467", 0},
		{"combining grapheme joiner, Hangul fillers", "a\u034fb\u3164c\uffa0d\u115fe", "abcde", 0},
		{"emoji presentation selector kept", "\u2764\ufe0f ok", "\u2764\ufe0f ok", 0},
		{"ideographic variation selector kept", "\u845b\U000E0100", "\u845b\U000E0100", 0},
		{"Mongolian free variation selector kept", "\u1820\u180b", "\u1820\u180b", 0},
		{"variation selector after ASCII", "ab\ufe0fcd\U000E0100e", "abcde", 0},
		{"run of variation selectors hides bytes", "\U0001F600\ufe00\ufe01\U000E0150\U000E01EF!", "\U0001F600\ufe00!", 0},
		{"keycap loses its selector", "1\ufe0f\u20e3", "1\u20e3", 0},
		{"skin tone and combining marks kept", "\U0001F44D\U0001F3FD e\u0301", "\U0001F44D\U0001F3FD e\u0301", 0},
		{"cut on a rune boundary", "ééé", "é", 3},
		{"1 MB title bounded", mb, mb[:256], 256},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Text(c.in, c.max)
			if got != c.want {
				t.Fatalf("Text(%q) = %q, want %q", truncate(c.in), truncate(got), truncate(c.want))
			}
			checkSafe(t, c.in, got, c.max)
		})
	}
}

func truncate(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

func TestForShell(t *testing.T) {
	in := `50% off $(rm -rf ~) ` + "`id`" + ` \[\e[31m\] %F{red} #(id) #{host} #[fg=red]`
	cases := map[Shell]string{
		Zsh:        "50%% off \uff04(rm -rf ~) \u02cbid\u02cb \u2216[\u2216e[31m\u2216] %%F{red} #(id) #{host} #[fg=red]",
		Bash:       "50% off \uff04(rm -rf ~) \u02cbid\u02cb \u2216[\u2216e[31m\u2216] %F{red} #(id) #{host} #[fg=red]",
		Tmux:       `50% off $(rm -rf ~) ` + "`id`" + ` \[\e[31m\] %F{red} ##(id) ##{host} ##[fg=red]`,
		Fish:       in,
		Plain:      in,
		Statusline: in,
	}
	for sh, want := range cases {
		if got := ForShell(in, sh); got != want {
			t.Errorf("%s: got %q want %q", sh, got, want)
		}
	}
	for _, name := range []string{"tcsh", "statusline"} {
		if _, ok := ParseShell(name); ok {
			t.Errorf("%s accepted", name)
		}
	}
	if sh, ok := ParseShell("tmux"); !ok || sh != Tmux {
		t.Error("tmux refused")
	}
}

const tok = "ghp_0123456789abcdefghijABCDEFGHIJ012345"

func TestRedact(t *testing.T) {
	cases := []struct{ in, want string }{
		{"token " + tok + " leaked", "token [REDACTED] leaked"},
		{"gho_abcdefghij1234567890 ghu_abcdefghij1234567890 ghs_abcdefghij1234567890 ghr_abcdefghij1234567890", "[REDACTED] [REDACTED] [REDACTED] [REDACTED]"},
		{"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "[REDACTED]"},
		{"https://user:s3cret-pass@github.com/o/r.git", "https://[REDACTED]@github.com/o/r.git"},
		{"https://x-access-token:" + tok + "@github.com/o/r", "https://[REDACTED]@github.com/o/r"},
		{"https://" + tok + "@github.com/o/r", "https://[REDACTED]@github.com/o/r"},
		{"https://abcdefghijklmnopqrstuvwxyz0123@ghe.example/o/r", "https://[REDACTED]@ghe.example/o/r"},
		{"exit 2https://user:s3cret-pass@h/x 0A://:0@h", "exit 2https://[REDACTED]@h/x 0A://[REDACTED]@h"}, // digits glued before a scheme
		{"ssh://git@github.com/o/r.git", "ssh://git@github.com/o/r.git"},
		{"git@github.com:o/r.git", "git@github.com:o/r.git"},
		{"Authorization: token abcdefghijklmnopqrstuvwxyz012345", "Authorization: token [REDACTED]"},
		{"Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345", "Authorization: Bearer [REDACTED]"},
		{"password=hunter2hunter2hunter2hunter2", "password=[REDACTED]"},
		{"installation v1.0123456789abcdef0123456789abcdef01234567 ok", "installation [REDACTED] ok"},
		{"Your token has not been granted the required scopes", "Your token has not been granted the required scopes"},
		{"ghp_short", "ghp_short"},
		{"plain text", "plain text"},
	}
	for _, c := range cases {
		if got := Redact(c.in); got != c.want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// The regular expressions the scanners replaced, kept as the oracle.
var (
	oracleToken    = regexp.MustCompile(`gh[pousr]_[A-Za-z0-9_]{8,}|github_pat_[A-Za-z0-9_]{8,}`)
	oracleUserinfo = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^/\s@]*:[^/\s@]+@`)
)

func FuzzRedact(f *testing.F) {
	f.Add("x " + tok + " y")
	f.Add("https://u:p@h/x")
	f.Add("Authorization: token abcdefghijklmnopqrstuvwxyz")
	f.Fuzz(func(t *testing.T, s string) {
		out := Redact(s)
		if oracleToken.MatchString(out) {
			t.Fatalf("token survived: %q -> %q", s, out)
		}
		if m := oracleUserinfo.FindString(out); m != "" && !strings.Contains(m, Redacted) {
			t.Fatalf("URL credentials survived: %q -> %q", s, out)
		}
		if Redact(out) != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, out, Redact(out))
		}
	})
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"\x1b]52;c;x\x07", "\u009b1m", "\x9b", "a\u202eb", "\xff", "%F{red}$(x)`y`\\",
		"a\u2028b\u2029", "x\u200by\u2060\ufeff", "\U0001F3F4\U000E0067\U000E0062\U000E007F", "\U0001F468\u200d\U0001F469",
		"\u2764\ufe0f\ufe0f", "a\ufe0f\U000E0100", "\u845b\U000E0100", "\u034f\u3164\u115f"} {
		f.Add(s, 64)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 0 {
			max = -max
		}
		max %= 4096
		out := Text(s, max)
		checkSafe(t, s, out, max)
		if again := Text(out, max); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, out, again)
		}
		if strings.Contains(out, "\u009b") || strings.IndexByte(out, 0x9b) >= 0 && !utf8.ValidString(out) {
			t.Fatal("raw or encoded CSI left")
		}
		zsh := ForShell(out, Zsh)
		if strings.Contains(strings.ReplaceAll(zsh, "%%", ""), "%") {
			t.Fatalf("unescaped %% in zsh output %q", zsh)
		}
		if strings.ContainsAny(zsh, "$`\\") {
			t.Fatalf("zsh output keeps an expansion character: %q", zsh)
		}
		bash := ForShell(out, Bash)
		if strings.ContainsAny(bash, "$`\\") {
			t.Fatalf("bash output keeps an expansion character: %q", bash)
		}
		checkSafe(t, s, zsh, 0)
		checkSafe(t, s, bash, 0)
	})
}

// A token split by a control or format character is redacted whole; the
// exact values of the token variables are redacted whatever their format;
// a URL password may hold '@'.
func TestRedactSplitAndExactTokens(t *testing.T) {
	tok := "ghp_" + strings.Repeat("A1b2", 9)
	for _, sep := range []string{"\x01", "\u202e", "\u200b", "\u2060", "\U000E0041", "\ufeff", "\u200d", "\ufe0f", "\U000E0100", "\u034f", "\u3164"} {
		in := "error: " + tok[:10] + sep + tok[10:] + " rejected"
		if out := Detail(in); strings.Contains(out, tok[:10]) || strings.Contains(out, tok[10:]) || !strings.Contains(out, Redacted) {
			t.Errorf("split by %q: %q", sep, out)
		}
	}
	legacy := strings.Repeat("0123456789abcdef", 2) + "01234567"
	RedactAlso(func() []string { return []string{legacy, "weird value!"} }) // GH_TOKEN, GITHUB_ENTERPRISE_TOKEN
	for _, in := range []string{"token " + legacy, "x" + legacy + "y", "said weird value! there"} {
		if out := Detail(in); strings.Contains(out, legacy) || strings.Contains(out, "weird value!") {
			t.Errorf("exact value kept: %q", out)
		}
	}
	RedactAlso(func() []string { return []string{"x"} }) // GH_TOKEN=x: too short to be taken for a token
	if out := Detail("exit x"); out != "exit x" {
		t.Errorf("a short variable value was redacted: %q", out)
	}
	// Values given by RedactAlso (gh's hosts.yml tokens) are exact values
	// too, loaded once, on the first Redact.
	loads := 0
	RedactAlso(func() []string { loads++; return []string{legacy[:39] + "9", "short"} })
	defer RedactAlso(nil)
	if loads != 0 {
		t.Error("RedactAlso loaded before any Redact")
	}
	for range 3 {
		if out := Detail("gh said " + legacy[:39] + "9 and short"); out != "gh said "+Redacted+" and short" {
			t.Errorf("hosts.yml token: %q", out)
		}
	}
	if loads != 1 {
		t.Errorf("loaded %d times", loads)
	}
	for _, in := range []string{"https://user:p@ss@word@github.com/o/r.git", "https://u:a@b@c@host/x?y"} {
		out := Detail(in)
		if strings.Contains(out, "ss") || strings.Contains(out, "word") || strings.Contains(out, "@b") {
			t.Errorf("%q -> %q", in, out)
		}
	}
	if out := Detail("see https://github.com/o/r and line\u2028break"); out != "see https://github.com/o/r and line break" {
		t.Errorf("U+2028: %q", out)
	}
}

// DetailLines keeps a message's lines apart (each cleaned), while the
// detail is what Detail makes of it; a secret split across lines is
// redacted as Detail redacts it, and the lines go; the bounds hold.
func TestDetailLines(t *testing.T) {
	in := "error connecting to api.github.com\r\n\n\x1b[31mcheck your internet connection\x1b[0m or https://githubstatus.com\n"
	d, starts := DetailLines(in)
	lines := SplitLines(d, starts)
	if d != "error connecting to api.github.com check your internet connection or https://githubstatus.com" ||
		len(lines) != 2 || lines[0] != "error connecting to api.github.com" || lines[1] != "check your internet connection or https://githubstatus.com" {
		t.Fatalf("%q %v -> %q", d, starts, lines)
	}
	if d, starts := DetailLines("one line\n"); d != "one line" || starts != nil {
		t.Fatalf("one line: %q %v", d, starts)
	}
	secret := "Zx81mQ2vT7pL0aB9cD3eF6gH"
	d, starts = DetailLines("auth failed, password:\n" + secret + "\nbye")
	if strings.Contains(d, secret) || starts != nil || d != Detail("auth failed, password:\n"+secret+"\nbye") {
		t.Fatalf("secret across lines: %q %v", d, starts)
	}
	many := strings.Repeat("a line of forty bytes, give or take it.\n", 40)
	d, starts = DetailLines(many)
	if len(d) > MaxDetail || len(SplitLines(d, starts)) > MaxDetailLines || starts[len(starts)-1] >= len(d) {
		t.Fatalf("bounds: %d bytes, %d starts", len(d), len(starts))
	}
}

// SplitLines cuts only where DetailLines could have: a planted start
// inside a word, out of range, or out of order is ignored.
func TestSplitLinesIgnoresPlantedStarts(t *testing.T) {
	got := SplitLines("abc def ghi", []int{-1, 0, 2, 4, 4, 3, 9, 8, 100})
	if strings.Join(got, "|") != "abc|def|ghi" {
		t.Fatalf("%q", got)
	}
	if got := SplitLines("plain", nil); len(got) != 1 || got[0] != "plain" {
		t.Fatalf("%q", got)
	}
}

// BenchmarkRenderPath measures what a prompt's render asks of this
// package: a plain title and a hostile one cleaned, then escaped per shell.
func BenchmarkRenderPath(b *testing.B) {
	titles := []string{"Fix the flaky login test (#1234)", "50% off \x1b]8;;http://x\x07$(rm) `id` #tag\u202e tail"}
	for b.Loop() {
		for _, t := range titles {
			s := Text(t, 256)
			for _, sh := range []Shell{Zsh, Bash, Fish, Tmux} {
				_ = ForShell(s, sh)
			}
		}
	}
}
