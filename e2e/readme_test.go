package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/prchip/prchip/internal/fakegithub"
)

// readmeBlocks are the fenced code blocks of the README's Quick start, in
// order, with their info words (zsh, bash, fish, toml).
func readmeBlocks(t *testing.T) [][2]string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	start := strings.Index(s, "\n## Quick start")
	if start < 0 {
		t.Fatal("README has no Quick start")
	}
	s = s[start+1:]
	if end := strings.Index(s, "\n## "); end > 0 {
		s = s[:end]
	}
	var out [][2]string
	for _, m := range regexp.MustCompile("(?s)```(\\w+)\n(.*?)```").FindAllStringSubmatch(s, -1) {
		out = append(out, [2]string{m[1], m[2]})
	}
	return out
}

// Every shell example of the README's Quick start, pasted as it stands
// into a real zsh, bash or fish on a terminal: the chip shows once, with
// one space on each side where the prompt has text, and when there is no
// PR no stray space is left.
func TestReadmeExamplesWorkWhenPasted(t *testing.T) {
	n := 0
	for _, blk := range readmeBlocks(t) {
		sh, code := blk[0], blk[1]
		if sh != "zsh" && sh != "bash" && sh != "fish" || strings.Contains(code, "p10k") {
			continue // powerlevel10k's block: TestP10k* (p10k_test.go)
		}
		n++
		t.Run(fmt.Sprintf("%d_%s", n, sh), func(t *testing.T) {
			w := shellWorld(t, sh, "git")
			// As installed: prchip on PATH.
			os.Symlink(prchipBin, filepath.Join(w.bin, "prchip"))
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			rc := filepath.Join(w.home, "pasted."+sh)
			os.WriteFile(rc, []byte(code), 0o644)
			tm := onTerminal(t, w, sh)
			tm.enter("source " + rc)
			tm.press("Enter")
			// The chip stands as a word of its own: a space before it, and
			// after it the end of the line (RPROMPT) or one space.
			want := regexp.MustCompile(`(^|\s)#42( \S|$)`)
			tm.waitFor("the chip", func(s string) bool { return want.MatchString(strings.TrimRight(lastLine(s), " ")) })
			line := lastLine(tm.screen())
			if strings.Count(line, "#42") != 1 {
				t.Fatalf("the chip shows %d times: %q", strings.Count(line, "#42"), line)
			}
			if left, _, _ := strings.Cut(line, "#42"); strings.TrimSpace(left) != "" && strings.Contains(strings.TrimLeft(left, " "), "  ") && !strings.HasSuffix(left, "   ") {
				t.Fatalf("two spaces before the chip: %q", line)
			}
			// No PR on this branch: nothing of the chip is left, not even
			// its space.
			tm.enter("git checkout -q -b nopr")
			tm.waitFor("the prompt without a chip", func(s string) bool {
				l := lastLine(s)
				return !strings.Contains(l, "#42") && !strings.Contains(l, "checkout")
			})
			if l := strings.TrimRight(lastLine(tm.screen()), " "); strings.Contains(l, "  ") {
				t.Fatalf("a stray space without a PR: %q", l)
			}
		})
	}
	if n < 4 {
		t.Fatalf("only %d shell examples found in the README's Quick start", n)
	}
}

// The README's starship block is what `prchip init starship` prints, and
// its format leaves nothing, not even a space, when there is no PR: the
// whole format is one conditional group. init's fallback block is
// disabled (it runs a process per prompt) and leaves nothing either.
func TestReadmeStarshipBlockIsInit(t *testing.T) {
	var readme string
	for _, blk := range readmeBlocks(t) {
		if blk[0] == "toml" {
			readme = blk[1]
		}
	}
	w := newWorld(t)
	out := w.run(w.repo, "init", "starship").stdout
	type module struct {
		Variable, Command, Format, Style string
		When, Disabled                   bool
		RequireRepo                      bool `toml:"require_repo"`
	}
	var a, b struct {
		EnvVar map[string]module `toml:"env_var"`
		Custom map[string]module `toml:"custom"`
	}
	if _, err := toml.Decode(readme, &a); err != nil {
		t.Fatalf("README block: %v\n%s", err, readme)
	}
	if _, err := toml.Decode(out, &b); err != nil {
		t.Fatalf("init starship: %v\n%s", err, out)
	}
	if ra, rb := a.EnvVar["PRCHIP"], b.EnvVar["PRCHIP"]; ra != rb || ra.Variable != "PRCHIP" {
		t.Fatalf("README block %+v\ninit prints %+v", ra, rb)
	}
	conditional := regexp.MustCompile(`^\(\[\$(env_value|output)\]\(\$style\) \)$`)
	for _, f := range []string{b.EnvVar["PRCHIP"].Format, b.Custom["prchip"].Format} {
		if !conditional.MatchString(f) {
			t.Fatalf("format %q leaves text when the chip is empty", f)
		}
	}
	if c := b.Custom["prchip"]; !strings.Contains(c.Command, "prompt --shell plain") || !c.RequireRepo || !c.Disabled {
		t.Fatalf("fallback block %+v", c)
	}
}
