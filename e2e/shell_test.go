package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/prchip/prchip/internal/fakegithub"
	"github.com/prchip/prchip/internal/testenv"
)

// shellWorld is a world whose PATH also has the shells and a few tools.
func shellWorld(t *testing.T, shells ...string) *world {
	w := newWorld(t)
	for _, name := range append(shells, "sleep", "cat", "touch", "ls", "env", "mktemp", "mkfifo", "rm") {
		p := need(t, name)
		os.Symlink(p, filepath.Join(w.bin, name))
	}
	return w
}

// interactive runs shell as an interactive shell reading script from a
// pipe: it runs its prompt hooks and prints each expanded prompt to
// stderr, as at a terminal. It returns stdout and stderr.
func (w *world) interactive(shell, dir, script string) (string, string) {
	w.t.Helper()
	var args []string
	switch shell {
	case "zsh":
		args = []string{"-f", "-i"}
	case "bash":
		args = []string{"--norc", "--noprofile", "-i"}
	case "fish":
		args = []string{"--no-config", "-i"}
	}
	c := exec.Command(shell, args...)
	c.Dir = dir
	// A wide screen: readline shows only the end of a prompt longer than
	// the screen, which would cut the chip.
	c.Env = append(w.env(), "TERM=dumb", "PS1=$ ", "COLUMNS=2000", "LINES=50")
	c.Stdin = strings.NewReader(script)
	var o, e bytes.Buffer
	c.Stdout, c.Stderr = &o, &e
	done := make(chan error, 1)
	if err := c.Start(); err != nil {
		w.t.Fatal(err)
	}
	go func() { done <- c.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		c.Process.Kill()
		w.t.Fatalf("%s did not finish\nstdout: %s\nstderr: %s", shell, o.String(), e.String())
	}
	return o.String(), e.String()
}

// settle waits until no background refresh of this world is running.
func (w *world) settle() {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if !w.refreshRunning() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	w.t.Fatal("background refresh still running after 10 s")
}

// refreshRunning reports whether a background refresh of prchip is alive.
func (w *world) refreshRunning() bool {
	return len(liveProcesses(func(p proc) bool {
		return bytes.HasPrefix(p.cmdline, []byte(prchipBin+"\x00__refresh\x00"+w.home))
	})) > 0
}

// hook scripts per shell: load the snippet twice, set a prompt that
// references the chip by name, and add the user's own hook after ours,
// which records the $? it sees.
var shellSetup = map[string]string{
	"zsh": `eval "$(` + "%[1]s" + ` init zsh)"
eval "$(` + "%[1]s" + ` init zsh)"
PROMPT='<${PRCHIP}>%%# '
user_hook() { echo "USER_SAW=$?" }
precmd_functions+=(user_hook)
n=0; for f in $precmd_functions; do [[ $f == _prchip_precmd ]] && ((n++)); done; echo "HOOKS=$n"
`,
	"bash": `eval "$(` + "%[1]s" + ` init bash)"
eval "$(` + "%[1]s" + ` init bash)"
PS1='<${PRCHIP}>\$ '
PROMPT_COMMAND="${PROMPT_COMMAND};"'echo "USER_SAW=$?"'
pc=${PROMPT_COMMAND//_prchip_hook/@}; pc=${pc//[!@]/}; echo "HOOKS=${#pc}"
`,
	"fish": `%[1]s init fish | source
%[1]s init fish | source
function fish_prompt; printf '<%%s>$ ' "$PRCHIP"; end
function user_hook --on-event fish_prompt; echo "USER_SAW=$status"; end
echo "HOOKS="(count (functions -a | string match '_prchip_prompt'))
`,
}

// promptTimeline is the sequence of chips shown in rendered prompts.
var promptRE = regexp.MustCompile(`<([^>]*)>`)

func chipsIn(s string) []string {
	var out []string
	for _, m := range promptRE.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

func TestShellsShowThePR(t *testing.T) {
	for _, sh := range []string{"zsh", "bash", "fish"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh)
			w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "answer"})
			script := fmt.Sprintf(shellSetup[sh], prchipBin) +
				strings.Repeat("sleep 0.3\n", 10) + "false\necho done\n"
			if sh == "fish" {
				// fish reading a pipe draws no prompt: emit the event and
				// print the prompt the way fish does before each command.
				script = fmt.Sprintf(shellSetup[sh], prchipBin) +
					strings.Repeat("emit fish_prompt; fish_prompt; echo\nsleep 0.3\n", 10) +
					"emit fish_prompt; fish_prompt; echo\nfalse; emit fish_prompt\necho done\n"
			}
			stdout, stderr := w.interactive(sh, w.repo, script)
			all := stdout + stderr
			chips := chipsIn(all)
			if len(chips) < 2 || chips[len(chips)-1] != "#42" {
				t.Fatalf("prompts showed %q\nstdout:\n%s\nstderr:\n%s", chips, stdout, stderr)
			}
			if !strings.Contains(stdout, "HOOKS=1") {
				t.Errorf("hooks installed more than once:\n%s", stdout)
			}
			if !strings.Contains(stdout, "USER_SAW=1") {
				t.Errorf("the user's hook did not see $? = 1 after false:\n%s", stdout)
			}
			if strings.Contains(stderr, "prchip") && strings.Contains(stderr, "rror") {
				t.Errorf("errors on stderr:\n%s", stderr)
			}
			w.settle()
			if n := w.prRequests(); n < 1 || n > 2 {
				t.Errorf("server saw %d requests", n)
			}
		})
	}
}

// A hostile branch name and hostile text from a chip reach the prompt as
// inert text: nothing runs, no escape byte, no prompt colour.
func TestShellsHostileText(t *testing.T) {
	branch := "x$(touch${IFS}pwned1)`touch${IFS}pwned2`%F{red}%{x%}$((1+1))"
	title := "t $(touch pwned3) `touch pwned4` %F{red}red \\[\\e[31m\\] \x1b]0;owned\x07 \x1b[31mred \u202e \x9b31m"
	for _, sh := range []string{"zsh", "bash", "fish"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh)
			w.git(w.repo, "checkout", "-q", "-b", branch)
			// Pushed with -u: the hostile name is what prchip asks gh for.
			w.git(w.repo, "config", "branch."+branch+".remote", "origin")
			w.git(w.repo, "config", "branch."+branch+".merge", "refs/heads/"+branch)
			os.WriteFile(filepath.Join(w.home, "title"), []byte(title), 0o644)
			os.MkdirAll(filepath.Dir(w.configPath()), 0o700)
			os.WriteFile(w.configPath(), []byte(`
[chips.branch]
command = "git rev-parse --abbrev-ref HEAD"
[chips.title]
command = "cat '`+filepath.Join(w.home, "title")+`'"
`), 0o600)
			w.srv.SetPR(branch, fakegithub.PR{Number: 5, Title: title})
			w.refresh(w.repo, 0)
			// From the third line on only the worker can draw the chip: the
			// one-shot path is pointed at nothing.
			script := fmt.Sprintf(shellSetup[sh], prchipBin) + "echo one\necho two\n_prchip_exe=/nonexistent/prchip\necho three\necho four\n"
			if sh == "fish" {
				script = fmt.Sprintf(shellSetup[sh], prchipBin) + "emit fish_prompt; fish_prompt; echo\nemit fish_prompt; fish_prompt; echo\n"
			}
			stdout, stderr := w.interactive(sh, w.repo, script)
			all := stdout + stderr
			for _, f := range []string{"pwned1", "pwned2", "pwned3", "pwned4"} {
				if _, err := os.Stat(filepath.Join(w.repo, f)); err == nil {
					t.Errorf("%s was created: text ran as code", f)
				}
			}
			if strings.ContainsAny(all, "\x1b\x07\u202e\u009b") {
				t.Errorf("control or bidi characters reached the terminal: %q", all)
			}
			chips := chipsIn(all)
			if len(chips) == 0 || !strings.HasPrefix(chips[len(chips)-1], "#5 ") {
				t.Fatalf("prompts %q\nstderr: %s", chips, stderr)
			}
			last := chips[len(chips)-1]
			// The branch name is shown as text (in zsh its % survived
			// prompt expansion only because it was doubled); zsh and bash
			// show look-alikes for \, $ and backtick.
			want := branch
			if sh != "fish" {
				want = strings.NewReplacer("$", "\uff04", "`", "\u02cb").Replace(branch)
			}
			if !strings.Contains(last, want) {
				t.Errorf("branch text not shown literally:\n got %q\nwant %q", last, want)
			}
		})
	}
}

// A common precmd pattern pastes $PRCHIP into the prompt string inside
// double quotes; the title's $(…), backticks and ${…} must still stay text,
// and a '!' must stay a '!' under zsh's prompt_bang, pasted or referenced.
func TestPastedChipStaysText(t *testing.T) {
	title := "t $(touch pwned1) `touch pwned2` ${HOME} $((6*7)) \\$(touch pwned3) ! end"
	setups := map[string]string{
		"zsh pasted":          "setopt prompt_bang\npaste() { PROMPT=\"<$PRCHIP>%%# \" }\nprecmd_functions+=(paste)\n",
		"zsh referenced bang": "setopt prompt_bang\nPROMPT='<$PRCHIP>%%# '\n",
		"bash pasted":         "PROMPT_COMMAND=\"${PROMPT_COMMAND};\"'PS1=\"<$PRCHIP>\\$ \"'\n",
	}
	for name, setup := range setups {
		t.Run(name, func(t *testing.T) {
			sh, _, _ := strings.Cut(name, " ")
			w := shellWorld(t, sh)
			w.srv.SetPR("feature", fakegithub.PR{Number: 5, Title: title})
			os.MkdirAll(filepath.Dir(w.configPath()), 0o700)
			os.WriteFile(w.configPath(), []byte("format = \"#{number} {title}\"\ntitle_width = 200\n"), 0o600)
			w.refresh(w.repo, 0)
			init := fmt.Sprintf(`eval "$(%s init %s)"`+"\n", prchipBin, sh)
			script := init + strings.ReplaceAll(setup, "%%", "%") + "echo one\necho two\necho three\n"
			stdout, stderr := w.interactive(sh, w.repo, script)
			for _, f := range []string{"pwned1", "pwned2", "pwned3"} {
				if _, err := os.Stat(filepath.Join(w.repo, f)); err == nil {
					t.Errorf("%s was created: text ran as code", f)
				}
			}
			chips := chipsIn(stderr)
			if len(chips) < 3 {
				t.Fatalf("prompts %q\nstdout: %s\nstderr: %s", chips, stdout, stderr)
			}
			want := "#5 " + strings.NewReplacer("$", "\uff04", "`", "\u02cb", "\\", "\u2216").Replace(title)
			for _, c := range chips[1:] {
				if c != want {
					t.Errorf("prompt shows\n %q\nwant\n %q", c, want)
				}
			}
		})
	}
}

// After git checkout the next prompts show the new branch's PR, never the old one.
func TestShellsCheckoutSwitchesPR(t *testing.T) {
	for _, sh := range []string{"zsh", "bash"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh)
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.srv.SetPR("other", fakegithub.PR{Number: 7})
			w.git(w.repo, "branch", "other")
			w.git(w.repo, "config", "branch.other.remote", "origin")
			w.git(w.repo, "config", "branch.other.merge", "refs/heads/other")
			script := fmt.Sprintf(shellSetup[sh], prchipBin) +
				strings.Repeat("sleep 0.3\n", 8) + "echo before\ngit checkout -q other\n" + strings.Repeat("sleep 0.3\n", 10) + "echo after\n"
			_, stderr := w.interactive(sh, w.repo, script)
			chips := chipsIn(stderr)
			seen42, after := false, false
			for _, c := range chips {
				switch c {
				case "#42":
					if after {
						t.Fatalf("old PR shown after checkout: %q", chips)
					}
					seen42 = true
				case "#7":
					after = true
				}
			}
			if !seen42 || !after || chips[len(chips)-1] != "#7" {
				t.Fatalf("prompts %q", chips)
			}
		})
	}
}

// 50 renders at once with stale state start exactly one gh.
func TestFiftyRendersOneRequest(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 1})
	var wg sync.WaitGroup
	errs := make(chan string, 50)
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := w.run(w.repo, "prompt", "--shell", "zsh"); r.code != 0 || r.stderr != "" {
				errs <- fmt.Sprintf("exit %d %q", r.code, r.stderr)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	w.settle()
	if n := w.prRequests(); n != 1 {
		t.Fatalf("server saw %d requests, want 1", n)
	}
	if r := w.run(w.repo, "prompt", "--no-refresh"); r.stdout != "#1" {
		t.Fatalf("after the refresh the chip is %q", r.stdout)
	}
}

// While gh hangs, renders return and no second refresh starts.
func TestRendersWhileServerHangs(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 1})
	w.refresh(w.repo, 0)
	w.srv.SetMode(fakegithub.Hang)
	w.run(w.repo, "invalidate") // stale: the next render refreshes
	first := w.run(w.repo, "prompt", "--shell", "bash")
	if first.code != 0 || first.stdout != "#1" {
		t.Fatalf("first render: %d %q", first.code, first.stdout)
	}
	deadline := time.Now().Add(3 * time.Second)
	for w.prRequests() < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if w.prRequests() != 2 {
		t.Fatalf("the background refresh did not reach the server (%d)", w.prRequests())
	}
	for i := range 10 {
		r := w.run(w.repo, "prompt", "--shell", "bash")
		if r.code != 0 || r.took > 2*time.Second {
			t.Fatalf("render %d: exit %d after %v", i, r.code, r.took)
		}
	}
	if n := w.prRequests(); n != 2 {
		t.Fatalf("a second refresh started while one ran: %d requests", n)
	}
	w.settle()
	s := w.status(w.repo)
	if s.category() != "timeout" {
		t.Fatalf("after the hang: %s/%s", s.class(), s.category())
	}
}

// redrawSetups load the snippet on one line and show the chip in <>.
var redrawSetups = map[string]string{
	"zsh":  `eval "$(` + "%[1]s" + ` init zsh)"; PROMPT='<${PRCHIP}>%%# '`,
	"fish": `%[1]s init fish | source; function fish_prompt; printf '<%%s>$ ' $PRCHIP; end`,
}

// terminal is a shell with its line editor on a real terminal (tmux).
type terminal struct {
	t          *testing.T
	tmux, sock string
}

var terminals atomic.Int64

// onTerminal starts sh in w.repo on a tmux terminal of its own; it is
// killed when the test ends.
func onTerminal(t *testing.T, w *world, sh string) *terminal {
	return onTerminalIn(t, w, sh)
}

// onTerminalIn is onTerminal with the shell started through wrap (a
// command and its arguments, such as unshare's).
func onTerminalIn(t *testing.T, w *world, sh string, wrap ...string) *terminal {
	// A socket of its own: a terminal killed at the end of one subtest may
	// still be going away when the next one starts in the same world.
	sock := filepath.Join(w.home, fmt.Sprintf("tmux%d.sock", terminals.Add(1)))
	tm := &terminal{t: t, tmux: need(t, "tmux"), sock: sock}
	args := append(wrap, "env", "-i")
	args = append(args, w.env()...)
	args = append(args, "TERM=xterm", need(t, sh))
	switch sh {
	case "zsh":
		args = append(args, "-f")
	case "bash":
		args = append(args, "--norc", "--noprofile")
	default:
		args = append(args, "--no-config")
	}
	start := append([]string{"-S", tm.sock, "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "20", "-c", w.repo}, args...)
	if out, err := exec.Command(tm.tmux, start...).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() {
		pid := tm.panePID()
		exec.Command(tm.tmux, "-S", tm.sock, "kill-server").Run()
		// The shell's worker ends with it and removes its record: let it
		// before the test's directory goes.
		deadline := time.Now().Add(5 * time.Second)
		for len(workersOf(pid)) > 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	})
	tm.waitFor(sh, func(s string) bool { return strings.TrimSpace(s) != "" })
	return tm
}

func (tm *terminal) screen() string {
	out, _ := exec.Command(tm.tmux, "-S", tm.sock, "capture-pane", "-p").Output()
	return string(out)
}

// enter types line and presses Enter.
func (tm *terminal) enter(line string) {
	tm.typeText(line)
	tm.press("Enter")
}

// typeText types text without pressing Enter.
func (tm *terminal) typeText(text string) {
	exec.Command(tm.tmux, "-S", tm.sock, "send-keys", "-l", text).Run()
}

// press presses keys by tmux's names for them (Tab, Enter, C-u).
func (tm *terminal) press(keys ...string) {
	exec.Command(tm.tmux, append([]string{"-S", tm.sock, "send-keys"}, keys...)...).Run()
}

func (tm *terminal) waitFor(what string, ok func(string) bool) {
	tm.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := tm.screen()
		if ok(s) {
			return
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lastLine is the screen's last non-empty line: the prompt being edited.
func lastLine(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	return lines[len(lines)-1]
}

// In zsh and fish the prompt is redrawn when a background refresh ends,
// without a key press: real shells with line editors on a terminal (tmux).
func TestPromptRedrawsWhenRefreshEnds(t *testing.T) {
	for _, sh := range []string{"zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh, "date")
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			tm := onTerminal(t, w, sh)
			// One line, one Enter: the prompt after it starts empty (no
			// state yet) and must turn into the chip by itself.
			tm.enter(fmt.Sprintf(redrawSetups[sh], prchipBin))
			tm.waitFor("the redrawn chip", func(s string) bool { return strings.Contains(s, "<#42>") })
			if w.prRequests() != 1 {
				t.Errorf("server saw %d requests", w.prRequests())
			}
			if strings.Contains(tm.screen(), "has ended") {
				t.Errorf("the shell announced a background job:\n%s", tm.screen())
			}
		})
	}
}

// A refresh that ends after the user has left its repository or switched
// branches does not put the old chip on the prompt the user has now; back
// in the repository or on the branch, the chip is there.
func TestRedrawFollowsTheUser(t *testing.T) {
	moves := []struct{ name, away, back string }{
		{"cd", "cd {home}", "cd {repo}"},
		{"checkout", "git checkout -q -b other", "git checkout -q feature"},
	}
	for _, sh := range []string{"zsh", "fish"} {
		for _, m := range moves {
			t.Run(sh+"-"+m.name, func(t *testing.T) {
				t.Parallel() // mostly waiting for the slow server
				w := shellWorld(t, sh, "date")
				w.srv.SetPR("feature", fakegithub.PR{Number: 42})
				w.srv.SetDelay(2 * time.Second)
				tm := onTerminal(t, w, sh)
				tm.enter(fmt.Sprintf(redrawSetups[sh], prchipBin))
				tm.waitFor("the refresh to start", func(string) bool { return w.refreshRunning() })
				places := strings.NewReplacer("{home}", w.home, "{repo}", w.repo)
				tm.enter(places.Replace(m.away))
				tm.waitFor("the prompt after "+m.name, func(s string) bool {
					return strings.Count(s, "<>") >= 2 && strings.HasPrefix(lastLine(s), "<>")
				})
				w.settle()
				// A redraw, if any, follows the end of a refresh at once.
				deadline := time.Now().Add(2 * time.Second)
				for time.Now().Before(deadline) {
					if l := lastLine(tm.screen()); !strings.HasPrefix(l, "<>") {
						t.Fatalf("after %s the prompt became %q; screen:\n%s", m.name, l, tm.screen())
					}
					time.Sleep(50 * time.Millisecond)
				}
				tm.enter(places.Replace(m.back))
				tm.waitFor("the chip back", func(s string) bool { return strings.HasPrefix(lastLine(s), "<#42>") })
			})
		}
	}
}

// When a refresh cannot record its result (here another process holds the
// state file's write lock, as a stuck writer would), every render wants
// another one. The redraw after a refresh may start at most one more per
// prompt: an idle prompt does not keep asking GitHub.
func TestRedrawNeverLoops(t *testing.T) {
	for _, sh := range []string{"zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			t.Parallel()
			w := shellWorld(t, sh, "date")
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			dir := filepath.Join(w.home, "state", "prchip")
			os.MkdirAll(dir, 0o700)
			lock, err := os.OpenFile(filepath.Join(dir, "state.lock"), os.O_RDWR|os.O_CREATE, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			defer lock.Close()
			if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
				t.Fatal(err)
			}
			tm := onTerminal(t, w, sh)
			tm.enter(fmt.Sprintf(redrawSetups[sh], prchipBin))
			tm.waitFor("the first refresh", func(string) bool { return w.prRequests() >= 1 })
			time.Sleep(10 * time.Second) // idle at the prompt: three store lock waits
			if n := w.prRequests(); n > 2 {
				t.Fatalf("the server saw %d requests from one idle prompt, want at most 2", n)
			}
		})
	}
}

// The hooks call prchip by the path it was run by when that is this binary
// (a package manager's stable link survives upgrades; the versioned file
// behind it does not), else by the binary's own path.
func TestInitNamesTheStableLink(t *testing.T) {
	w := newWorld(t)
	links := filepath.Join(w.home, "links")
	os.MkdirAll(links, 0o755)
	link := filepath.Join(links, "prchip")
	if err := os.Symlink(prchipBin, link); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(w.home, "other")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "prchip"), []byte("#!/bin/sh\n"), 0o755)
	cases := []struct {
		name, path, arg0, pathVar, want string
	}{
		{"by name on PATH", link, "prchip", links, link},
		{"by the link's path", link, link, w.bin, link},
		{"another prchip first on PATH", prchipBin, "prchip", other, prchipBin},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// bash's snippet, whose text is not quoted again (zsh's body is
			// one $'...' word).
			cmd := exec.Command(c.path, "init", "bash")
			cmd.Args[0] = c.arg0
			cmd.Env = append(w.env(), "PATH="+c.pathVar+":"+w.bin)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), "_prchip_exe='"+c.want+"'") {
				t.Fatalf("want the hooks to call %s:\n%s", c.want, out)
			}
		})
	}
}

// A prchip removed under a running fish (an upgrade, an uninstall) leaves
// the prompt quiet: fish would report the missing command on every prompt.
func TestFishHookWithoutBinary(t *testing.T) {
	w := shellWorld(t, "fish")
	w.srv.SetPR("feature", fakegithub.PR{Number: 1})
	w.refresh(w.repo, 0)
	script := fmt.Sprintf(shellSetup["fish"], prchipBin) +
		"emit fish_prompt; echo \"<$PRCHIP>\" >&2\n" +
		"set -g _prchip_exe " + filepath.Join(w.home, "gone", "prchip") + "\n" +
		"emit fish_preexec 'git status'; emit fish_prompt; echo \"<$PRCHIP>\" >&2\n"
	_, stderr := w.interactive("fish", w.repo, script)
	if chips := chipsIn(stderr); len(chips) != 2 || chips[0] != "#1" || chips[1] != "" {
		t.Fatalf("chips %q, want #1 then nothing\n%s", chips, stderr)
	}
	if strings.Contains(stderr, "Unknown command") || strings.Contains(stderr, "gone") {
		t.Fatalf("fish reported the missing binary:\n%s", stderr)
	}
}

// The generated completions work in the real shells: Tab after
// `prchip in`, `prchip init ` and `prchip prompt --shell ` offers the
// commands, integrations and shells (through prchip's __complete, found on
// PATH as a user's would be). bash's use bash-completion, as every
// cobra-style bash completion does.
func TestCompletionsInShells(t *testing.T) {
	lines := []struct {
		typed string
		want  []string
	}{
		{"prchip in", []string{"init", "invalidate"}},
		{"prchip init ", []string{"zsh", "bash", "fish", "starship"}},
		{"prchip prompt --shell ", []string{"zsh", "bash", "fish", "plain"}},
	}
	w := shellWorld(t, "fish")
	if err := os.Symlink(prchipBin, filepath.Join(w.bin, "prchip")); err != nil {
		t.Fatal(err)
	}
	t.Run("fish", func(t *testing.T) {
		script := "prchip completion fish | source\n"
		for _, l := range lines {
			script += "complete -C " + fishQuote(l.typed) + "; echo ==\n"
		}
		out, _ := w.interactive("fish", w.repo, script)
		got := strings.Split(out, "==")
		for i, l := range lines {
			for _, want := range l.want {
				if i >= len(got) || !regexp.MustCompile(`(?m)^`+want+`(\t|$)`).MatchString(got[i]) {
					t.Errorf("%q offers no %q:\n%s", l.typed, want, out)
				}
			}
		}
	})
	setups := map[string]string{
		"bash": "source " + testenv.NeedFile(t, "/usr/share/bash-completion/bash_completion") + "; source <(prchip completion bash)",
		"zsh":  "autoload -Uz compinit && compinit -u && source <(prchip completion zsh)",
	}
	for _, sh := range []string{"bash", "zsh"} {
		t.Run(sh, func(t *testing.T) {
			os.Symlink(need(t, sh), filepath.Join(w.bin, sh))
			tm := onTerminal(t, w, sh)
			tm.enter(setups[sh])
			for _, l := range lines {
				tm.press("C-u", "C-l")
				tm.waitFor("a clear screen", func(s string) bool { return !strings.Contains(s, "prchip") })
				tm.typeText(l.typed)
				tm.press("Tab")
				if sh == "bash" {
					tm.press("Tab") // bash lists candidates on the second Tab
				}
				tm.waitFor(fmt.Sprintf("the candidates for %q", l.typed), func(s string) bool {
					for _, want := range l.want {
						if !regexp.MustCompile(`(^|\s)` + want + `(\s|$)`).MatchString(s) {
							return false
						}
					}
					return true
				})
			}
		})
	}
}

// Every snippet parses in its shell, and the starship block is TOML with a
// custom module that calls the render path with plain output.
func TestInitSnippets(t *testing.T) {
	w := newWorld(t)
	for sh, check := range map[string][]string{
		"zsh":  {"-n"},
		"bash": {"-n"},
		"fish": {"-n"},
	} {
		r := w.run(w.repo, "init", sh)
		if r.code != 0 || !strings.Contains(r.stdout, prchipBin) {
			t.Fatalf("init %s: %d %q", sh, r.code, r.stderr)
		}
		c := exec.Command(need(t, sh), append(check, "-c", r.stdout)...)
		if sh == "fish" {
			c = exec.Command(need(t, sh), "-n")
			c.Stdin = strings.NewReader(r.stdout)
		}
		if out, err := c.CombinedOutput(); err != nil {
			t.Errorf("%s -n rejects the snippet: %v\n%s", sh, err, out)
		}
	}
	r := w.run(w.repo, "init", "starship")
	var cfg struct {
		Custom map[string]struct {
			Command     string
			When        any
			RequireRepo bool `toml:"require_repo"`
			Shell       []string
			Format      string
		}
	}
	if _, err := toml.Decode(r.stdout, &cfg); err != nil {
		t.Fatalf("starship block is not TOML: %v\n%s", err, r.stdout)
	}
	m, ok := cfg.Custom["prchip"]
	if !ok || !strings.HasSuffix(m.Command, "prompt --shell plain") || m.When != true || !m.RequireRepo {
		t.Fatalf("custom.prchip = %+v", m)
	}
}

// After git (or gh, gt) the repository is invalidated, after other
// commands it is not; in bash both with the DEBUG trap and, when the user
// has a DEBUG trap of their own, with history.
func TestShellsInvalidateAfterGit(t *testing.T) {
	variants := map[string]string{
		"zsh":            "",
		"bash":           "",
		"bash-user-trap": "trap 'true' DEBUG\n",
		"bash-array-pc":  "PROMPT_COMMAND=(true)\n",
		"fish":           "",
	}
	for name, pre := range variants {
		t.Run(name, func(t *testing.T) {
			sh, _, _ := strings.Cut(name, "-")
			w := shellWorld(t, sh)
			w.srv.SetPR("feature", fakegithub.PR{Number: 1})
			w.refresh(w.repo, 0)
			var script string
			if sh == "fish" {
				// fish reading a pipe fires neither event: emit them as fish does.
				script = fmt.Sprintf(shellSetup[sh], prchipBin) +
					"emit fish_preexec 'ls -l'; emit fish_prompt\n" +
					"emit fish_preexec 'git status'; emit fish_prompt\n" +
					"emit fish_preexec 'ls'; emit fish_prompt\n"
			} else {
				script = pre + fmt.Sprintf(shellSetup[sh], prchipBin) + "ls -l >/dev/null\ngit status >/dev/null\nls >/dev/null\necho end\n"
			}
			w.interactive(sh, w.repo, script)
			// git asks for a probe at once (the PR was found: a probe
			// stands in for it), not a full refresh.
			if s := w.status(w.repo); s.ProbeRequests != 1 || s.InvalidationCount != 0 {
				t.Fatalf("probe requests %d, invalidations %d after ls, git status, ls; want 1 and 0", s.ProbeRequests, s.InvalidationCount)
			}
			switch name {
			case "bash-user-trap":
				out, _ := w.interactive(sh, w.repo, pre+fmt.Sprintf(shellSetup[sh], prchipBin)+"trap -p DEBUG\n")
				if !strings.Contains(out, "trap -- 'true' DEBUG") {
					t.Fatalf("the user's DEBUG trap was replaced:\n%s", out)
				}
			case "bash-array-pc":
				out, _ := w.interactive(sh, w.repo, "PROMPT_COMMAND=(true 'echo two')\neval \"$("+prchipBin+" init bash)\"\ndeclare -p PROMPT_COMMAND\n")
				if !strings.Contains(out, `[0]="_prchip_hook" [1]="true" [2]="echo two"`) {
					t.Fatalf("PROMPT_COMMAND array not kept:\n%s", out)
				}
			}
		})
	}
}

// Every command of a line counts, not only its first: after VAR=value
// assignments and precommand words, through aliases, behind && ; and |.
// In bash also when the user's own DEBUG trap makes the hook read history.
func TestShellsInvalidateAfterAnyCommandOfLine(t *testing.T) {
	// invalidates: "probe" for a line with git only (a probe at once),
	// "full" for one with gh or gt (a full refresh at once, also when
	// git is on the line too).
	type line struct {
		line        string
		invalidates string
	}
	lines := []line{
		{"alias gs='git status'", ""},
		{"gs >/dev/null", "probe"},
		{"GIT_PAGER=cat git status >/dev/null", "probe"},
		{"true && git status >/dev/null", "probe"},
		{"command git status >/dev/null", "probe"},
		{"echo git >/dev/null", ""},
		{"ls; echo gh >/dev/null", ""},
		{"git status >/dev/null; gh --version >/dev/null", "full"},
	}
	fishLines := []line{
		{"ls -l", ""},
		{"true; and git status", "probe"},
		{"GIT_PAGER=cat git status", "probe"},
		{"command gh --version", "full"},
		{"echo git", ""},
		{"echo 'a; git'", ""},
		{"true && gt log", "full"},
		{"git status; gh --version", "full"},
	}
	for _, name := range []string{"zsh", "bash", "bash-user-trap", "bash-preexec", "fish"} {
		t.Run(name, func(t *testing.T) {
			sh, variant, _ := strings.Cut(name, "-")
			w := shellWorld(t, sh)
			w.srv.SetPR("feature", fakegithub.PR{Number: 1})
			w.refresh(w.repo, 0)
			script := fmt.Sprintf(shellSetup[sh], prchipBin)
			switch variant {
			case "user-trap":
				script = "trap 'true' DEBUG\n" + script
			case "preexec":
				// The real bash-preexec (testdata), loaded after prchip's
				// hook; __bp_delay_install lets it work with stdout a pipe,
				// and so its install is called here.
				bp, _ := filepath.Abs(filepath.Join("testdata", "bash-preexec", "bash-preexec.sh"))
				script += "__bp_delay_install=1; source " + bp + "; __bp_install_after_session_init\n"
			}
			want := map[string]int{}
			if sh == "fish" {
				for _, l := range fishLines {
					// A pause, as between lines typed: fish's worker
					// answers each request before the next prompt.
					script += fmt.Sprintf("emit fish_preexec %s; emit fish_prompt; sleep 0.2\n", fishQuote(l.line))
					want[l.invalidates]++
				}
			} else {
				for _, l := range lines {
					script += l.line + "\n"
					want[l.invalidates]++
				}
				script += "echo end\n"
			}
			_, stderr := w.interactive(sh, w.repo, script)
			if s := w.status(w.repo); s.ProbeRequests != want["probe"] || s.InvalidationCount != want["full"] {
				t.Fatalf("probe requests %d, invalidations %d, want %d and %d\nstderr: %s", s.ProbeRequests, s.InvalidationCount, want["probe"], want["full"], stderr)
			}
		})
	}
}

// fishQuote makes s one fish word.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// invalidate_on = [] turns invalidation off; the snippets still load (an
// empty case pattern once made bash and zsh refuse the whole snippet).
func TestShellsWithoutInvalidatingCommands(t *testing.T) {
	for _, sh := range []string{"zsh", "bash", "fish"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh)
			w.config("invalidate_on = []\n")
			w.srv.SetPR("feature", fakegithub.PR{Number: 1})
			w.refresh(w.repo, 0)
			script := fmt.Sprintf(shellSetup[sh], prchipBin)
			if sh == "fish" {
				// fish reading a pipe draws no prompt: print the variable.
				script += "emit fish_preexec 'git status'; emit fish_prompt; echo \"<$PRCHIP>\" >&2\n"
			} else {
				script += "git status >/dev/null\necho end\n"
			}
			_, stderr := w.interactive(sh, w.repo, script)
			if strings.Contains(stderr, "error") || strings.Contains(stderr, "unexpected") {
				t.Fatalf("the snippet did not load:\n%s", stderr)
			}
			if !strings.Contains(stderr, "<#1>") {
				t.Fatalf("no chip in the prompts:\n%s", stderr)
			}
			if n := w.status(w.repo).refreshes(); n != 0 {
				t.Fatalf("invalidation count %d with invalidate_on = [], want 0", n)
			}
		})
	}
}

// The hooks keep working, silently, under shell options users set in their
// rc files that change how a snippet's own code runs: unset variables as
// errors, unmatched globs as errors, case-insensitive matching, POSIX mode,
// ksh-style arrays, word splitting, zsh's warning for globals created in
// functions.
func TestHooksUnderUserShellOptions(t *testing.T) {
	for _, v := range []struct{ sh, options string }{
		{"bash", "set -u; shopt -s failglob nocasematch extglob"},
		{"bash", "set -o posix"},
		{"zsh", "setopt ksh_arrays sh_word_split no_unset warn_create_global"},
		{"zsh", "setopt extended_glob ksh_glob no_glob rc_expand_param no_multi_func_def"},
	} {
		t.Run(v.sh+" "+v.options, func(t *testing.T) {
			w := shellWorld(t, v.sh)
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			prompt := `PS1='<${PRCHIP}>\$ '`
			if v.sh == "zsh" {
				prompt = `PROMPT='<${PRCHIP}>%# '`
			}
			script := v.options + "\n" + `eval "$(` + prchipBin + ` init ` + v.sh + `)"` + "\n" + prompt + "\n" +
				"alias gs='git status'\ngit status >/dev/null\ngs >/dev/null\nls >/dev/null\necho done\n"
			stdout, stderr := w.interactive(v.sh, w.repo, script)
			if chips := chipsIn(stderr); len(chips) == 0 || chips[len(chips)-1] != "#42" {
				t.Errorf("prompts showed %q\n%s", chips, stderr)
			}
			for _, bad := range []string{"unbound variable", "no match", "bad substitution", "not found", "created globally", "syntax error", "_prchip"} {
				if strings.Contains(stdout+stderr, bad) {
					t.Errorf("the hook complained (%q):\n%s%s", bad, stdout, stderr)
				}
			}
			if s := w.status(w.repo); s.refreshes() != 2 {
				t.Errorf("invalidations %d and probe requests %d after git status, gs (alias) and ls; want 2 in all", s.InvalidationCount, s.ProbeRequests)
			}
		})
	}
}
