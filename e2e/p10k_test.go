package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

// p10kDir is powerlevel10k's own code, vendored (MIT; see its LICENSE and
// README there): the theme and its internal/ scripts, without gitstatus.
const p10kDir = "../testdata/powerlevel10k"

// readmeP10kRecipe is the README's powerlevel10k block, as users paste it.
func readmeP10kRecipe(t *testing.T) string {
	t.Helper()
	for _, b := range readmeBlocks(t) {
		if b[0] == "zsh" && strings.Contains(b[1], "p10k") {
			return b[1]
		}
	}
	t.Fatal("README has no powerlevel10k block")
	return ""
}

// p10kVariant is one way people run powerlevel10k.
type p10kVariant struct {
	name string
	// instant turns p10k's instant prompt on (its preamble heads
	// ~/.zshrc).
	instant bool
	// options are set in ~/.zshrc before the theme loads: p10k writes its
	// prompt for them.
	options string
}

var p10kVariants = []p10kVariant{
	{name: "plain"},
	{name: "instant_prompt", instant: true},
	{name: "instant_prompt_ksh_arrays", instant: true, options: "setopt ksh_arrays\n"},
}

// p10kHome installs powerlevel10k in w's home as its README says (a copy
// of the theme, a ~/.p10k.zsh, the theme sourced from ~/.zshrc) with the
// README's prchip segment after it. The configuration is written, not
// made by the wizard; gitstatus is off (its daemon is not vendored).
func p10kHome(t *testing.T, w *world, v p10kVariant) {
	t.Helper()
	theme := filepath.Join(w.home, "powerlevel10k")
	if err := os.CopyFS(theme, os.DirFS(p10kDir)); err != nil {
		t.Fatalf("copy powerlevel10k: %v", err)
	}
	mode := "off"
	if v.instant {
		mode = "quiet"
	}
	writeFile(t, filepath.Join(w.home, ".p10k.zsh"), `POWERLEVEL9K_DISABLE_CONFIGURATION_WIZARD=true
POWERLEVEL9K_DISABLE_GITSTATUS=true
POWERLEVEL9K_MODE=ascii
POWERLEVEL9K_LEFT_PROMPT_ELEMENTS=(dir)
POWERLEVEL9K_RIGHT_PROMPT_ELEMENTS=()
POWERLEVEL9K_INSTANT_PROMPT=`+mode+`
`)
	var rc strings.Builder
	if v.instant {
		// p10k's own preamble, as its wizard writes it.
		rc.WriteString(`if [[ -r "${XDG_CACHE_HOME:-$HOME/.cache}/p10k-instant-prompt-${(%):-%n}.zsh" ]]; then
  source "${XDG_CACHE_HOME:-$HOME/.cache}/p10k-instant-prompt-${(%):-%n}.zsh"
fi
# For the test: whether p10k's instant prompt was on screen.
typeset -g test_instant=${+__p9k_instant_prompt_active}
`)
	}
	rc.WriteString(v.options + "source ~/powerlevel10k/powerlevel10k.zsh-theme\nsource ~/.p10k.zsh\n")
	rc.WriteString(readmeP10kRecipe(t))
	writeFile(t, filepath.Join(w.home, ".zshrc"), rc.String())
}

// onP10kTerminal starts a login-less zsh that reads ~/.zshrc (not the
// system's rc files, which differ between machines) on a tmux terminal of
// its own, in w.repo, and waits for its first prompt: the line ending in
// the dir segment's text. Nothing is typed.
func onP10kTerminal(t *testing.T, w *world) *terminal {
	t.Helper()
	sock := filepath.Join(w.home, fmt.Sprintf("tmux%d.sock", terminals.Add(1)))
	tm := &terminal{t: t, tmux: need(t, "tmux"), sock: sock}
	args := append([]string{"-S", tm.sock, "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "20", "-c", w.repo, "env", "-i"}, w.env()...)
	args = append(args, "TERM=xterm-256color", need(t, "zsh"), "-d")
	if out, err := exec.Command(tm.tmux, args...).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() {
		pid := tm.panePID()
		exec.Command(tm.tmux, "-S", tm.sock, "kill-server").Run()
		deadline := time.Now().Add(5 * time.Second)
		for len(workersOf(pid)) > 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	})
	tm.waitFor("the first prompt", func(s string) bool { return strings.Contains(s, "demo") })
	return tm
}

// eachP10k runs test in each variant, in a world with powerlevel10k
// installed and prchip on PATH. With the instant prompt, a first terminal
// is opened and closed: it writes the instant prompt that the next
// terminal shows while ~/.zshrc runs, as after any earlier session.
func eachP10k(t *testing.T, test func(t *testing.T, w *world, newTerminal func() *terminal)) {
	for _, v := range p10kVariants {
		t.Run(v.name, func(t *testing.T) {
			w := shellWorld(t, "zsh", "git", "mkdir", "uname")
			os.Symlink(prchipBin, filepath.Join(w.bin, "prchip")) // as installed: on PATH
			p10kHome(t, w, v)
			if v.instant {
				cache := filepath.Join(w.home, "cache", "p10k-instant-prompt-"+currentUser(t)+".zsh")
				first := onP10kTerminal(t, w)
				first.waitFor("p10k's instant prompt cache", func(string) bool {
					_, err := os.Stat(cache)
					return err == nil
				})
				pid := first.panePID()
				first.press("C-d")
				// What that session learnt is forgotten: each test sets
				// up what the new terminal knows.
				w.settle()
				first.waitFor("the first shell's worker to end", func(string) bool { return len(workersOf(pid)) == 0 })
				if r := w.run(w.repo, "reset", "--all"); r.code != 0 {
					t.Fatalf("reset: %s", r.stderr)
				}
			}
			var opened []*terminal
			test(t, w, func() *terminal {
				tm := onP10kTerminal(t, w)
				opened = append(opened, tm)
				return tm
			})
			// The variant ran as named: the terminal the test used showed
			// p10k's instant prompt first.
			if v.instant {
				for _, tm := range opened {
					tm.enter("print -r -- instant=$test_instant")
					tm.waitFor("instant=1", func(s string) bool { return strings.Contains(s, "\ninstant=1") })
				}
			}
		})
	}
}

// currentUser is the name p10k gives its instant prompt cache (%n).
func currentUser(t *testing.T) string {
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	return u.Username
}

// (a) A new terminal whose chip is already known shows it at its first
// prompt, with nothing typed: the segment reads $PRCHIP when zsh draws the
// prompt, after prchip's precmd hook, which p10k's runs before at the
// first prompt. On a branch without a PR the segment is gone, not drawn
// empty.
func TestP10kFirstPromptShowsKnownChip(t *testing.T) {
	eachP10k(t, func(t *testing.T, w *world, newTerminal func() *terminal) {
		w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "known"})
		w.refresh(w.repo, 0)
		before := w.srv.Requests()
		tm := newTerminal()
		tm.waitFor("the chip at the first prompt", func(s string) bool { return strings.Contains(lastLine(s), "#42") })
		p10kDrawn(t, tm)
		if n := w.srv.Requests() - before; n != 0 {
			t.Errorf("server saw %d requests for a fresh chip", n)
		}
		// No PR: no segment, not even an empty one in the chip's colour.
		tm.enter("git checkout -q -b nopr")
		tm.waitFor("the prompt without the chip", func(s string) bool {
			l := lastLine(s)
			return !strings.Contains(l, "#42") && !strings.Contains(l, "checkout")
		})
		w.settle()
		styled, _ := exec.Command(tm.tmux, "-S", tm.sock, "capture-pane", "-p", "-e").Output()
		if l := lastLine(string(styled)); strings.Contains(l, "38;5;208") {
			t.Errorf("an empty chip segment is drawn: %q", l)
		}
	})
}

// (b) A chip that arrives after a background refresh (a slow GitHub) is
// drawn by p10k without a key press: at the first prompt (the one-shot
// render's waiter) and at a later one (the worker's push), after a
// command line that ran git. p10k's whole prompt stays drawn, not its
// code, whatever options it was written for.
func TestP10kRedrawsWhenRefreshEnds(t *testing.T) {
	eachP10k(t, func(t *testing.T, w *world, newTerminal func() *terminal) {
		w.srv.SetPR("feature", fakegithub.PR{Number: 42})
		w.srv.SetDelay(2 * time.Second)
		before := w.srv.Requests()
		tm := newTerminal()
		if strings.Contains(tm.screen(), "#42") {
			t.Fatalf("the chip was known before the refresh:\n%s", tm.screen())
		}
		tm.waitFor("the refresh", func(string) bool { return w.srv.Requests() > before })
		tm.waitFor("the chip drawn without Enter", func(s string) bool { return strings.Contains(lastLine(s), "#42") })
		p10kDrawn(t, tm)

		w.srv.SetPR("feature", fakegithub.PR{Number: 43})
		before = w.srv.Requests()
		tm.enter("git status >/dev/null")
		tm.waitFor("the refresh after git", func(string) bool { return w.srv.Requests() > before })
		tm.waitFor("the new chip drawn without Enter", func(s string) bool { return strings.Contains(lastLine(s), "#43") })
		p10kDrawn(t, tm)
	})
}

// p10kDrawn fails when the screen shows p10k's prompt code (its ${...}
// expansions) instead of its prompt, or an error.
func p10kDrawn(t *testing.T, tm *terminal) {
	t.Helper()
	s := tm.screen()
	for _, bad := range []string{"_p9k", "${", "rror", "not found", "prchip:"} {
		if strings.Contains(s, bad) {
			t.Fatalf("the terminal shows %q:\n%s", bad, s)
		}
	}
}

// (c) A title with prompt sequences and command substitutions shows as
// text in p10k's segment, at the first prompt and when a redraw brings
// it: '%' is one '%', nothing runs, no colour or user name comes from the
// title.
func TestP10kHostileTitleIsText(t *testing.T) {
	titles := []string{
		"100% %F{red}red%f $(touch pwned) `touch pwned2` \"q\" %n",
		"50%% %{x%} ${HOME} $((6*7)) '$(touch pwned3)' %B%n",
	}
	// As in every zsh prompt, '$' and '`' show as look-alikes.
	shown := strings.NewReplacer("$", "\uff04", "`", "\u02cb")
	eachP10k(t, func(t *testing.T, w *world, newTerminal func() *terminal) {
		w.config("format = \"#{number} {title}\"\ntitle_width = 100\n")
		w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: titles[0]})
		w.refresh(w.repo, 0)
		tm := newTerminal()
		tm.waitFor("the chip", func(s string) bool { return strings.Contains(lastLine(s), "#42") })
		p10kShowsText(t, w, tm, "#42 "+shown.Replace(titles[0]))

		w.srv.SetPR("feature", fakegithub.PR{Number: 43, Title: titles[1]})
		w.srv.SetDelay(time.Second)
		tm.enter("git status >/dev/null")
		tm.waitFor("the redrawn chip", func(s string) bool { return strings.Contains(lastLine(s), "#43") })
		p10kShowsText(t, w, tm, "#43 "+shown.Replace(titles[1]))
	})
}

// p10kShowsText checks that the prompt line holds want as text, that no
// title's command ran and that the title set no colour (red) or weight
// (bold).
func p10kShowsText(t *testing.T, w *world, tm *terminal, want string) {
	t.Helper()
	if l := lastLine(tm.screen()); !strings.Contains(l, want) {
		t.Fatalf("the prompt shows\n%q\nwant it to hold\n%q", l, want)
	}
	p10kDrawn(t, tm)
	styled, _ := exec.Command(tm.tmux, "-S", tm.sock, "capture-pane", "-p", "-e").Output()
	for _, sgr := range []string{"\x1b[31m", "\x1b[1m"} {
		if strings.Contains(lastLine(string(styled)), sgr) {
			t.Errorf("the title styled the prompt (%q): %q", sgr, lastLine(string(styled)))
		}
	}
	for _, f := range []string{"pwned", "pwned2", "pwned3"} {
		if _, err := os.Stat(filepath.Join(w.repo, f)); err == nil {
			t.Errorf("the title ran: %s exists", f)
		}
	}
}
