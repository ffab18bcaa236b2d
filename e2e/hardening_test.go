package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
	"github.com/prchip/prchip/internal/testenv"
)

// fifoIDs are the FIFOs process pid holds open, by device and inode.
func fifoIDs(pid int) map[[2]uint64]string {
	ids := map[[2]uint64]string{}
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		var st syscall.Stat_t
		if syscall.Stat(filepath.Join(dir, e.Name()), &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
			continue
		}
		target, _ := os.Readlink(filepath.Join(dir, e.Name()))
		ids[[2]uint64{uint64(st.Dev), st.Ino}] = target
	}
	return ids
}

// The commands bash starts from its prompt inherit every descriptor it
// holds (bash cannot mark one close-on-exec): they must hold none of its
// worker's channel, which would let them read its requests (tokens) and
// write requests of their own.
func TestBashChildrenHoldNoWorkerChannel(t *testing.T) {
	w := shellWorld(t, "bash")
	w.srv.SetPR("feature", fakegithub.PR{Number: 42})
	w.refresh(w.repo, 0)
	tm := onTerminal(t, w, "bash")
	tm.enter(fmt.Sprintf(workerSetups["bash"], prchipBin))
	tm.promptShows("bash", "#42")
	shellPID := tm.panePID()
	worker := waitWorker(t, shellPID, 0)
	tm.enter("echo asked")
	tm.promptShows("bash", "#42")
	tm.enter("sleep 300 &")
	var sleeps []proc
	deadline := time.Now().Add(5 * time.Second)
	for len(sleeps) == 0 && time.Now().Before(deadline) {
		sleeps = liveProcesses(func(p proc) bool { return string(p.cmdline) == "sleep\x00300\x00" && p.cwd == w.repo })
		time.Sleep(50 * time.Millisecond)
	}
	if len(sleeps) == 0 {
		t.Fatal("the command did not start")
	}
	t.Cleanup(func() { syscall.Kill(sleeps[0].pid, syscall.SIGKILL) })
	channel := fifoIDs(worker)
	if len(channel) < 2 {
		t.Fatalf("the worker holds %d FIFOs, want its two: the test shows nothing", len(channel))
	}
	for id, target := range fifoIDs(sleeps[0].pid) {
		if name, ok := channel[id]; ok {
			t.Errorf("a command started from the prompt holds the worker's FIFO %s (as %s)", name, target)
		}
	}
	tm.promptShows("bash", "#42")
}

// A process of another user started from a root shell's prompt (su,
// runuser and setpriv hand on what they inherit) tries to send the
// worker a request whose PATH names a gh of its own, through every
// descriptor it inherited and by the FIFOs' names: the worker, which runs
// as root, must never run that gh. zsh keeps its descriptors
// close-on-exec; bash holds none while a command runs, and the FIFOs are
// private to the shell's user.
func TestOtherUserCannotDriveTheWorker(t *testing.T) {
	testenv.NeedRoot(t)
	setpriv := need(t, "setpriv")
	bash := need(t, "bash")
	timeout := need(t, "timeout")
	for _, sh := range []string{"zsh", "bash"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh)
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			evil := filepath.Join(w.home, "evil")
			mark := filepath.Join(w.home, "evil-gh-ran")
			os.MkdirAll(evil, 0o755)
			writeFile(t, filepath.Join(evil, "gh"), "#!/bin/sh\n: > "+mark+"\n")
			os.Chmod(filepath.Join(evil, "gh"), 0o755)
			tm := onTerminal(t, w, sh)
			tm.enter(fmt.Sprintf(workerSetups[sh], prchipBin))
			tm.promptShows(sh, "#42")
			worker := waitWorker(t, tm.panePID(), 0)
			tm.enter("echo asked")
			tm.promptShows(sh, "#42")
			// The request a hook would write (the environment the process
			// inherited, which a reader of the channel would see in the
			// shell's own requests anyway), with invalidate set, so the
			// worker starts a refresh, and the other user's PATH; sent to
			// every FIFO descriptor inherited and to the FIFOs by name.
			script := `send() {
  printf '%s\0' prchip1 991 "$REPO" 1
  while IFS= read -r -d '' kv; do case $kv in PATH=*) ;; *) printf '%s\0' "$kv" ;; esac; done < /proc/self/environ
  printf '%s\0' "PATH=$EVIL" ''
}
for f in /proc/self/fd/*; do n=${f##*/}
  if [ "$n" -gt 2 ] && [ -p "$f" ]; then send 1>&"$n" && echo "WROTE-fd-$n"; fi
done
for p in "$@"; do [ -n "$p" ] && TIMEOUT 2 BASH -c "$(declare -f send); send > \"\$1\"" _ "$p" 2>/dev/null && echo "WROTE-$p"; done
echo "ATTEMPTS-DONE"`
			script = strings.NewReplacer("TIMEOUT", timeout, "BASH", bash).Replace(script)
			// Where the other user can read it (the test's directories are
			// root's alone).
			shared, err := os.MkdirTemp("", "prchip-attack-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(shared) })
			os.Chmod(shared, 0o755)
			attack := writeFile(t, filepath.Join(shared, "attack.sh"), script)
			names := `"${_prchip_wdir-}/req" "${_prchip_dir-}/req"`
			tm.enter(fmt.Sprintf("REPO=%s EVIL=%s %s --reuid=65534 --regid=65534 --clear-groups %s %s %s",
				w.repo, evil, setpriv, bash, attack, names))
			tm.waitFor("the attempts", func(s string) bool { return strings.Contains(s, "\nATTEMPTS-DONE") })
			time.Sleep(time.Second) // a request that got through starts a refresh at once
			w.settle()
			if _, err := os.Stat(mark); err == nil {
				t.Fatalf("the worker ran the other user's gh; screen:\n%s", tm.screen())
			}
			if strings.Contains(tm.screen(), "\nWROTE") {
				t.Errorf("the other user could write to the worker's channel:\n%s", tm.screen())
			}
			if !alive(worker) {
				t.Fatal("the worker is gone: the test shows nothing")
			}
			// The channel still works for the shell itself.
			tm.enter("echo still")
			tm.promptShows(sh, "#42")
		})
	}
}

// git configuration exported after the shell started (as direnv does)
// travels with each request: another user's repository, made safe by a
// safe.directory in GIT_CONFIG_COUNT, shows in the worker's answer as in
// the one-shot render's, and not once the variables are gone.
func TestWorkerFollowsGitConfigInTheEnvironment(t *testing.T) {
	testenv.NeedRoot(t)
	for _, sh := range []string{"zsh", "bash", "fish"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh)
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			if out, err := exec.Command("chown", "-R", "65534", w.repo).CombinedOutput(); err != nil {
				t.Fatalf("chown: %v %s", err, out)
			}
			safe := map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory", "GIT_CONFIG_VALUE_0": w.repo}
			for k, v := range safe {
				w.extra[k] = v
			}
			w.refresh(w.repo, 0)
			oneShot := w.run(w.repo, "prompt", "--shell", sh, "--no-refresh").stdout
			if oneShot != "#42" {
				t.Fatalf("the one-shot render with safe.directory shows %q: the test's premise is wrong", oneShot)
			}
			for k := range safe {
				delete(w.extra, k)
			}
			if got := w.run(w.repo, "prompt", "--shell", sh, "--no-refresh").stdout; got != "" {
				t.Fatalf("without safe.directory the one-shot render shows %q", got)
			}
			tm := onTerminal(t, w, sh)
			tm.enter(fmt.Sprintf(workerSetups[sh], prchipBin))
			waitWorker(t, tm.panePID(), 0)
			tm.enter(assign(sh, "_prchip_exe", "/nonexistent/prchip")) // only the worker can draw the chip now
			tm.enter("echo before")
			tm.promptShows(sh, "")
			if sh == "fish" {
				// fish's hook collects the variables again when one is set.
				tm.enter(fmt.Sprintf("set -gx GIT_CONFIG_KEY_0 safe.directory; set -gx GIT_CONFIG_VALUE_0 %s; set -gx GIT_CONFIG_COUNT 1", w.repo))
			} else {
				tm.enter(fmt.Sprintf("export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0=%s", w.repo))
			}
			tm.promptShows(sh, oneShot)
			if sh == "fish" {
				tm.enter("set -e GIT_CONFIG_VALUE_0")
			} else {
				tm.enter("unset GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0")
			}
			tm.promptShows(sh, "")
		})
	}
}

// A zsh started from a shell that runs starship inherits STARSHIP_SHELL
// but draws its own prompt: the chip stays escaped for zsh, so a title's
// %-sequences show as text, not as colour or the user's name.
func TestInheritedStarshipShellKeepsEscaping(t *testing.T) {
	w := shellWorld(t, "zsh")
	title := "100% %F{red}done%f by %n"
	w.config("format = \"#{number} {title}\"\n")
	w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: title})
	w.refresh(w.repo, 0)
	w.extra["STARSHIP_SHELL"] = "zsh"
	tm := onTerminal(t, w, "zsh")
	tm.enter(fmt.Sprintf(workerSetups["zsh"], prchipBin))
	tm.press("Enter")
	tm.press("Enter") // the worker's answers
	tm.promptShows("zsh", "#42 "+title)
	styled, _ := exec.Command(tm.tmux, "-S", tm.sock, "capture-pane", "-p", "-e").Output()
	if strings.Contains(string(styled), "\x1b[31m") {
		t.Fatalf("the title's %%F{red} coloured the prompt:\n%q", styled)
	}
}

// A new GH_TOKEN exported in one shell while others keep the old one: the
// two auth setups each keep their result, and prompts in both, taking
// turns, ask GitHub once per setup (the first refresh under each), not at
// every prompt.
func TestTwoTokensKeepTheirResults(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 42})
	var afterFirstTwo int64
	for i := range 12 {
		w.extra["GH_TOKEN"] = []string{"old-token", "new-token"}[i%2]
		w.run(w.repo, "prompt", "--shell", "bash")
		w.settle()
		if i == 1 {
			afterFirstTwo = w.srv.Requests()
		}
	}
	if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != "#42" {
		t.Fatalf("the chip is %q", got)
	}
	if afterFirstTwo == 0 {
		t.Fatal("no request at all: the test shows nothing")
	}
	if n := w.srv.Requests(); n != afterFirstTwo {
		t.Fatalf("the 10 prompts after each token's first asked GitHub %d more times, want none", n-afterFirstTwo)
	}
}

// The hooks print nothing under settings users have in their rc files,
// and their functions are theirs whatever aliases are defined before the
// hook is loaded: zsh's warn_nested_var, digits in bash's IFS, aliases
// for local and print (zsh defines them with aliases off, as gitstatus
// does), fish functions named after builtins. Each prompt still shows the
// chip (in zsh and bash through the worker).
func TestHooksQuietUnderUserSettings(t *testing.T) {
	cases := []struct{ sh, setting string }{
		{"zsh", "setopt warn_nested_var"},
		{"zsh", "alias local='echo ALIASED' print='echo ALIASED'"},
		{"bash", "IFS=0123456789"},
		{"bash", "alias local='echo ALIASED' printf='echo ALIASED'"},
		{"fish", "for f in contains disown; function $f; echo ALIASED; end; end"},
	}
	setups := map[string]string{
		"zsh":  workerSetups["zsh"],
		"bash": workerSetups["bash"],
		"fish": `%[1]s init fish | source; function fish_prompt; builtin printf '<%%s>$ ' $PRCHIP; end`,
	}
	for _, c := range cases {
		t.Run(c.sh+" "+c.setting, func(t *testing.T) {
			w := shellWorld(t, c.sh, "date")
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			tm := onTerminal(t, w, c.sh)
			tm.enter(c.setting)
			tm.enter(fmt.Sprintf(setups[c.sh], prchipBin))
			tm.enter("git status >/dev/null")
			tm.enter("false")
			tm.enter("echo end")
			tm.waitFor("the last prompt", func(s string) bool { return strings.Contains(s, "echo end\nend\n<") })
			tm.promptShows(c.sh, "#42")
			// What came after the line that loads the hook (the setting
			// typed holds some of the words).
			s := tm.screen()
			_, s, _ = strings.Cut(s, " init "+c.sh)
			_, s, _ = strings.Cut(s, "\n")
			for _, bad := range []string{"nested", "numeric", "ALIASED", "_prchip", "rror", "not found"} {
				if strings.Contains(s, bad) {
					t.Fatalf("the terminal shows %q:\n%s", bad, s)
				}
			}
			// git status asks for a probe (or a full refresh where no
			// probe stands in): one of the two, once.
			if n := w.status(w.repo).refreshes(); n != 1 {
				t.Errorf("probe requests and invalidations %d after git status, want 1", n)
			}
			if ws := workersOf(tm.panePID()); c.sh != "fish" && len(ws) != 1 {
				t.Errorf("workers %v, want one", ws)
			}
		})
	}
}
