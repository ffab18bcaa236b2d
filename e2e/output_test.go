package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/prchip/prchip/internal/fakegithub"
)

// hostile is what a planted state file or config file holds in every
// string: CSI, OSC 52 (writes the clipboard), C1 CSI, bidi override and
// isolate, U+2028, a newline that would start a line of its own, a token,
// a token split by a zero-width space, and invalid UTF-8 (rawBytes, put
// into the file raw).
const (
	tamperToken = "ghp_TAMPERTOKEN0123456789abcdefghijkl"
	splitToken  = "ghp_SPLITTOKEN0123456789abcdefghijklm"
	rawBytes    = "RAWBYTES"
)

var (
	hostile = "x\x1b[31mred\x1b]52;c;aGVsbG8=\x07\u009b2J\u202eevil\u2066\u2028\nFORGED line " +
		tamperToken + " " + splitToken[:9] + "\u200b" + splitToken[9:] + " " + rawBytes + " end"
)

// outputProblems lists what makes s unfit for a terminal: invalid UTF-8, a
// control character other than newline, a C1 control, a bidi or other
// format character, a token, or a line that starts with the text after
// the hostile newline.
func outputProblems(s string) []string {
	var bad []string
	if !utf8.ValidString(s) {
		bad = append(bad, "invalid UTF-8")
	}
	for _, r := range s {
		if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029) {
			bad = append(bad, fmt.Sprintf("rune U+%04X", r))
			break
		}
	}
	for _, tok := range []string{tamperToken, splitToken, splitToken[9:]} {
		if strings.Contains(s, tok) {
			bad = append(bad, "token "+tok)
		}
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "FORGED") {
			bad = append(bad, "a forged line: "+line)
		}
	}
	return bad
}

// jsonStrings is every string (keys too) in a decoded JSON value.
func jsonStrings(v any, out *[]string) {
	switch x := v.(type) {
	case string:
		*out = append(*out, x)
	case []any:
		for _, e := range x {
			jsonStrings(e, out)
		}
	case map[string]any:
		for k, e := range x {
			*out = append(*out, k)
			jsonStrings(e, out)
		}
	}
}

// tamper replaces every string in a decoded record with hostile text,
// except those that tie a record to the current setup (fingerprints,
// identities, the branch, times): the record must still apply to be shown.
func tamper(v any) any {
	keep := map[string]bool{"fingerprint": true, "failure_fp": true, "branch": true, "target": true, "gh_version_of": true,
		"suppressed_setup": true, "validation": true, "checked_at": true, "at": true, "next_attempt": true,
		"retry_at": true, "suppressed_at": true}
	switch x := v.(type) {
	case string:
		return hostile
	case []any:
		for i := range x {
			x[i] = tamper(x[i])
		}
		return x
	case map[string]any:
		for k, e := range x {
			if !keep[k] {
				x[k] = tamper(e)
			}
		}
		return x
	}
	return v
}

// rewriteState applies edit to every JSON record of the state file and
// writes it back with the raw invalid UTF-8 bytes in place.
func (w *world) rewriteState(edit func(kind string, rec map[string]any)) {
	w.t.Helper()
	b, err := os.ReadFile(w.statePath())
	if err != nil {
		w.t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i, line := range lines[1:] {
		j := strings.IndexByte(line, '{')
		if j < 0 {
			w.t.Fatalf("state record without JSON: %q", line)
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line[j:]), &rec); err != nil {
			w.t.Fatal(err)
		}
		edit(line[:1], rec)
		nb, _ := json.Marshal(rec)
		lines[i+1] = line[:j] + string(bytes.ReplaceAll(nb, []byte(rawBytes), []byte("\xff\xfe\xc3")))
	}
	if err := os.WriteFile(w.statePath(), []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// A planted or edited state file and a hostile config file: status (human
// and JSON), refresh and config print no escape, control, C1, bidi or
// format character, no invalid UTF-8, no token and no forged line, and
// status --json stays valid JSON whose strings are clean too.
func TestTamperedStateAndConfigSanitised(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 7, Title: "fine"})
	// A valid format with ESC and bidi in its literal text, an invalid one
	// quoting them back in its problem, a key with a control character, a
	// chip whose command holds a token.
	w.config(`format = "#{number} {title} \u001b]52;c;eA==\u0007\u202e"` + "\n" +
		`title_width = 200` + "\n" +
		`"bad\u001b[2Jkey" = 1` + "\n" +
		"[shell.zsh]\n" + `format = "{title\u001b]0;pwned\u0007\u009b2J}"` + "\n" +
		"[chips.note]\n" + `command = "echo note; : ` + tamperToken + `"` + "\n")
	w.refresh(w.repo, 0)
	w.rewriteState(func(kind string, rec map[string]any) { tamper(rec) })

	check := func(what, out string) {
		t.Helper()
		if bad := outputProblems(out); len(bad) > 0 {
			t.Errorf("%s: %s\n%s", what, strings.Join(bad, "; "), out)
		}
	}
	human := w.run(w.repo, "status")
	if !strings.Contains(human.stdout, "pull request:") || !strings.Contains(human.stdout, "evil") {
		t.Fatalf("status does not show the planted pull request:\n%s", human.stdout)
	}
	check("status", human.stdout+human.stderr)
	js := w.run(w.repo, "status", "--json")
	check("status --json", js.stdout+js.stderr)
	var doc any
	if err := json.Unmarshal([]byte(js.stdout), &doc); err != nil {
		t.Fatalf("status --json is not JSON: %v\n%s", err, js.stdout)
	}
	var strs []string
	jsonStrings(doc, &strs)
	check("status --json, decoded", strings.Join(strs, "\n"))
	for _, sh := range []string{"plain", "zsh", "bash", "fish"} {
		r := w.run(w.repo, "prompt", "--no-refresh", "--shell", sh)
		if sh == "plain" && !strings.Contains(r.stdout, "evil") {
			t.Fatalf("prompt does not show the planted title: %q", r.stdout)
		}
		check("prompt --shell "+sh, r.stdout)
	}

	// refresh prints what is stored when it does not run a chip: a cached
	// failure says what the last outcome was.
	w.rewriteState(func(kind string, rec map[string]any) {
		branches, _ := rec["branches"].([]any)
		for _, b := range branches {
			chips, _ := b.(map[string]any)["chips"].(map[string]any)
			for _, c := range chips {
				c := c.(map[string]any)
				c["failure_fp"] = c["fingerprint"]
			}
		}
	})
	ref := w.run(w.repo, "refresh")
	if !strings.Contains(ref.stdout, "cached failure") {
		t.Fatalf("refresh did not report the stored outcome:\n%s%s", ref.stdout, ref.stderr)
	}
	check("refresh", ref.stdout+ref.stderr)
	check("status with cached failures", w.run(w.repo, "status").stdout)

	cfg := w.run(w.repo, "config")
	if !strings.Contains(cfg.stdout, "chips.note.command") || !strings.Contains(cfg.stderr, "bad") {
		t.Fatalf("config output lacks the chip or the problem:\n%s%s", cfg.stdout, cfg.stderr)
	}
	check("config", cfg.stdout+cfg.stderr)
}

// A title cut to title_width fits that width as the shell measures the
// prompt (zsh, one code point at a time, with the C library's widths):
// emoji and East Asian characters are two columns for prchip too, and no
// ZWJ sequence is kept that zsh would count wider than prchip did (a
// family is 6 columns to zsh, 2 to a ZWJ-aware terminal). Titles come
// through the real gh. (A skin tone or VS16 emoji is one glyph of two
// columns, as terminals draw it and prchip counts it; zsh counts the
// first 4 and the second 1, so they are not compared here.)
func TestTitleWidthAsZshMeasuresIt(t *testing.T) {
	zsh := need(t, "zsh")
	w := newWorld(t)
	const width = 20
	w.config("format = \"{title}\"\ntitle_width = " + fmt.Sprint(width) + "\n")
	for _, title := range []string{
		strings.Repeat("🚀", 15),
		strings.Repeat("⌚", 15),
		strings.Repeat("👨\u200d👩\u200d👧", 8),
		strings.Repeat("🇯🇵", 15),
		"プロンプトのチップを修正する長いタイトル",
		"Fix e\u0301 and 日本 🚀 and more words here",
	} {
		w.srv.SetPR("feature", fakegithub.PR{Number: 3, Title: title})
		w.refresh(w.repo, 0)
		chip := w.run(w.repo, "prompt", "--shell", "plain", "--no-refresh").stdout
		if !strings.HasSuffix(chip, "…") {
			t.Fatalf("%q: not cut: %q", title, chip)
		}
		c := exec.Command(zsh, "-fc", `print -r -- ${(m)#1}`, "zsh", chip)
		c.Env = w.env()
		out, err := c.Output()
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := strconv.Atoi(strings.TrimSpace(string(out))); n > width || n < width-2 {
			t.Errorf("%q: the chip %q is %d columns to zsh, title_width %d", title, chip, n, width)
		}
	}
}
