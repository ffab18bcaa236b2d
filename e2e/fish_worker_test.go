package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

// A refresh that ends while fish waits at its prompt reaches the screen
// through the worker's signal and a repaint, which keeps what the user
// has on the command line: typed text and the vi mode (here normal mode:
// the A after the repaint appends, as a command, not as text), and a
// pasted multi-line command (bracketed paste), which then runs whole.
func TestFishRepaintKeepsTheCommandLine(t *testing.T) {
	cases := []struct {
		name, setup string
		edit        func(tm *terminal)
		onScreen    string // on the prompt's line once the chip is there
		finish      func(tm *terminal)
		output      []string
	}{
		{
			name: "vi",
			// Set first: without a config, fish has no handler for
			// the variable, which the function otherwise leaves it to.
			setup:    "set -g fish_key_bindings fish_vi_key_bindings; fish_vi_key_bindings",
			edit:     func(tm *terminal) { tm.typeText("echo typed"); tm.press("Escape") },
			onScreen: "[N] <#42>$ echo typed",
			finish:   func(tm *terminal) { tm.typeText("AX"); tm.press("Enter") },
			output:   []string{"\ntypedX\n"},
		},
		{
			name: "paste",
			// As fish's own interactive set-up does (no config here).
			setup: `function _bp_on --on-event fish_prompt; printf '\e[?2004h'; end; function _bp_off --on-event fish_preexec; printf '\e[?2004l'; end`,
			edit: func(tm *terminal) {
				tm.do("set-buffer", "echo pasteA\necho pasteB")
				tm.do("paste-buffer", "-p")
			},
			onScreen: "<#42>$ echo pasteA",
			finish:   func(tm *terminal) { tm.press("Enter") },
			output:   []string{"\npasteA\n", "\npasteB\n"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := shellWorld(t, "fish", "date")
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.srv.SetDelay(3 * time.Second)
			tm := onTerminal(t, w, "fish")
			tm.enter(c.setup + "; " + fmt.Sprintf(workerSetups["fish"], prchipBin))
			tm.waitFor("the refresh to start", func(string) bool { return w.refreshRunning() })
			waitWorker(t, tm.panePID(), 0)
			c.edit(tm)
			tm.waitFor("the chip with the command line kept", func(s string) bool { return strings.Contains(s, c.onScreen) })
			if strings.Contains(c.name, "paste") {
				tm.waitFor("the second pasted line", func(s string) bool { return strings.Contains(s, "echo pasteB") })
			}
			c.finish(tm)
			tm.waitFor("the command's output", func(s string) bool {
				for _, o := range c.output {
					if !strings.Contains(s, o) {
						return false
					}
				}
				return true
			})
			tm.noNotices()
		})
	}
}

// do runs a tmux command on the terminal's server.
func (tm *terminal) do(args ...string) {
	tm.t.Helper()
	if out, err := exec.Command(tm.tmux, append([]string{"-S", tm.sock}, args...)...).CombinedOutput(); err != nil {
		tm.t.Fatalf("tmux %v: %v %s", args, err, out)
	}
}

// Ten fish shells with workers enter one repository with stale state at
// once: exactly one request reaches GitHub, and every prompt shows the
// chip when the refresh ends, without a key pressed.
func TestTenFishShellsOneRequest(t *testing.T) {
	w := shellWorld(t, "fish")
	w.srv.SetPR("feature", fakegithub.PR{Number: 5})
	w.srv.SetDelay(500 * time.Millisecond)
	var tms []*terminal
	for range 10 {
		tm := onTerminal(t, w, "fish")
		tm.enter("cd " + w.home)
		tm.enter(fmt.Sprintf(workerSetups["fish"], prchipBin))
		tm.enter("echo ready")
		tms = append(tms, tm)
	}
	for _, tm := range tms {
		waitWorker(t, tm.panePID(), 0)
		tm.enter("echo answered") // the worker has answered a request: the next one is its
	}
	var wg sync.WaitGroup
	for _, tm := range tms {
		wg.Add(1)
		go func() { defer wg.Done(); tm.enter("cd " + w.repo) }()
	}
	wg.Wait()
	for i, tm := range tms {
		// The command line as the screen keeps it may end in the
		// autosuggestion fish drew while the shell was busy ("demo/"):
		// what counts is the prompt after it.
		tm.waitFor(fmt.Sprintf("terminal %d's chip", i), func(s string) bool {
			return strings.Contains(s, "cd "+w.repo) && lastLine(s) == "<#5>$"
		})
	}
	w.settle()
	if n := w.prRequests(); n != 1 {
		t.Fatalf("ten fish shells caused %d requests, want 1", n)
	}
	// Every prompt since came from the worker: none ran the one-shot.
	for _, tm := range tms {
		if n := len(workersOf(tm.panePID())); n != 1 {
			t.Fatalf("shell %d has %d workers", tm.panePID(), n)
		}
	}
}

// fish runs exec while its worker follows a refresh: the process is then
// another program, which handles SIGURG here (a shell's trap), and must
// get no signal when the refresh ends; the worker ends, and its directory
// goes.
func TestFishExecWhileRefreshing(t *testing.T) {
	w := shellWorld(t, "fish", "sh")
	w.srv.SetPR("feature", fakegithub.PR{Number: 42})
	w.srv.SetDelay(2 * time.Second)
	tm := onTerminal(t, w, "fish")
	tm.enter(fmt.Sprintf(workerSetups["fish"], prchipBin))
	tm.waitFor("the refresh to start", func(string) bool { return w.refreshRunning() })
	pid := tm.panePID()
	worker := waitWorker(t, pid, 0)
	// On a tmpfs: the world's XDG_RUNTIME_DIR when it is one, else /dev/shm.
	dirs, _ := filepath.Glob("/dev/shm/prchip-fish.*")
	more, _ := filepath.Glob(filepath.Join(w.home, "run", "prchip-fish.*"))
	dirs = append(dirs, more...)
	var mine string
	for _, d := range dirs {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", worker)); err == nil && strings.Contains(string(b), "\x00"+d+"\x00") {
			mine = d
		}
	}
	if mine == "" {
		t.Fatalf("no directory of worker %d among %v", worker, dirs)
	}
	got := filepath.Join(w.home, "got")
	tm.enter(`exec sh -c 'trap "echo signalled >> ` + got + `" URG; echo TRAPPED; while :; do sleep 0.05; done'`)
	tm.waitFor("the program exec'd", func(s string) bool { return strings.Contains(s, "\nTRAPPED") })
	w.settle()
	waitGone(t, worker, 15*time.Second, "the worker of a fish that ran exec")
	if _, err := os.Stat(got); err == nil {
		t.Fatal("the worker signalled the program fish exec'd")
	}
	if _, err := os.Stat(mine); err == nil {
		t.Fatalf("the worker's directory %s is still there", mine)
	}
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if !alive(pid) || strings.TrimSpace(string(comm)) != "sh" {
		t.Fatalf("the program fish exec'd is gone (pane pid %d, comm %q)", pid, comm)
	}
	syscall.Kill(pid, syscall.SIGKILL)
}
