package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

// workerSetups load the snippet and show the chip in <>, on one line.
var workerSetups = map[string]string{
	"zsh":  `eval "$(%[1]s init zsh)"; PROMPT='<${PRCHIP}>%%# '`,
	"bash": `eval "$(%[1]s init bash)"; PS1='<${PRCHIP}>\$ '`,
	"fish": `%[1]s init fish | source; function fish_prompt; printf '<%%s>$ ' $PRCHIP; end`,
}

// assign is the command line that sets a global shell variable.
func assign(sh, name, value string) string {
	if sh == "fish" {
		return "set -g " + name + " " + fishQuote(value)
	}
	return name + "=" + value
}

// panePID is the pid of the shell on the terminal (0 once it is gone).
func (tm *terminal) panePID() int {
	out, _ := exec.Command(tm.tmux, "-S", tm.sock, "display-message", "-p", "#{pane_pid}").Output()
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return pid
}

// workersOf lists the live workers that follow shell pid.
func workersOf(pid int) []int {
	var out []int
	for _, p := range liveProcesses(func(p proc) bool {
		return bytes.Contains(p.cmdline, []byte("\x00worker\x00")) &&
			bytes.Contains(p.cmdline, []byte("\x00--pid\x00"+strconv.Itoa(pid)+"\x00"))
	}) {
		out = append(out, p.pid)
	}
	return out
}

// waitWorker waits until shell pid has exactly one worker other than not,
// and returns it.
func waitWorker(t *testing.T, pid, not int) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ws := workersOf(pid)
		if len(ws) == 1 && ws[0] != not {
			return ws[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("shell %d has workers %v, want one other than %d", pid, ws, not)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func waitGone(t *testing.T, pid int, d time.Duration, what string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) still runs after %v", what, pid, d)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// alive: the process exists and is not a zombie.
func alive(pid int) bool {
	return len(liveProcesses(func(p proc) bool { return p.pid == pid })) > 0
}

// promptShows waits until the prompt being edited starts with <chip>,
// pressing Enter every second in bash, which cannot redraw by itself.
func (tm *terminal) promptShows(sh, chip string) {
	tm.t.Helper()
	want := "<" + chip + ">"
	deadline := time.Now().Add(15 * time.Second)
	last := time.Now()
	for !strings.HasPrefix(lastLine(tm.screen()), want) {
		if time.Now().After(deadline) {
			tm.t.Fatalf("the prompt never showed %s; screen:\n%s", want, tm.screen())
		}
		if sh == "bash" && time.Since(last) > time.Second {
			tm.press("Enter")
			last = time.Now()
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// noNotices fails when the shell printed a job notice or an error.
func (tm *terminal) noNotices() {
	tm.t.Helper()
	s := tm.screen()
	for _, bad := range []string{"[1]", "Done", "done", "has ended", "running jobs", "rror", "not found", "prchip:"} {
		if strings.Contains(s, bad) {
			tm.t.Fatalf("the terminal shows %q:\n%s", bad, s)
		}
	}
}

// In real zsh and bash on a terminal, the chip comes from the worker: with
// the one-shot path broken (the hook's executable pointed at nothing), a
// new PR still appears after `git status`, which the worker turns into an
// invalidation without a process; zsh redraws by itself. Killed with
// SIGKILL or stopped with SIGSTOP, the worker is replaced, and the chip
// stays. No job notice is ever printed.
func TestWorkerInShells(t *testing.T) {
	for _, sh := range []string{"zsh", "bash", "fish"} {
		t.Run(sh, func(t *testing.T) {
			t.Parallel()
			w := shellWorld(t, sh)
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			tm := onTerminal(t, w, sh)
			tm.enter(fmt.Sprintf(workerSetups[sh], prchipBin))
			tm.promptShows(sh, "#42")
			shellPID := tm.panePID()
			first := waitWorker(t, shellPID, 0)

			tm.enter(assign(sh, "_prchip_exe", "/nonexistent/prchip"))
			w.settle()
			w.srv.SetPR("feature", fakegithub.PR{Number: 43})
			before := w.prRequests()
			tm.enter("git status >/dev/null")
			tm.promptShows(sh, "#43")
			if n := w.status(w.repo).refreshes(); n < 1 {
				t.Fatalf("git status did not invalidate through the worker (count %d)", n)
			}
			if w.prRequests() <= before {
				t.Fatal("no refresh after git status")
			}
			if ws := workersOf(shellPID); len(ws) != 1 || ws[0] != first {
				t.Fatalf("workers %v, want the first one %d throughout", ws, first)
			}

			tm.enter(assign(sh, "_prchip_exe", prchipBin))
			// fish never waits for an answer: it sees at a prompt whether
			// the previous request was answered, and lets a worker miss one
			// (one-shot) before it replaces it. Every prompt shows the chip.
			late := map[string]int{"fish": 2}[sh]
			syscall.Kill(first, syscall.SIGKILL)
			for i := range 1 + late {
				tm.enter(fmt.Sprintf("echo killed%d", i))
				tm.waitFor("the prompt after SIGKILL", func(s string) bool {
					return strings.Contains(s, fmt.Sprintf("killed%d\n<#43>", i))
				})
			}
			second := waitWorker(t, shellPID, first)

			syscall.Kill(second, syscall.SIGSTOP)
			start := time.Now()
			for i := range 1 + late {
				tm.enter(fmt.Sprintf("echo stopped%d", i))
				tm.waitFor("the prompt after SIGSTOP", func(s string) bool {
					return strings.Contains(s, fmt.Sprintf("stopped%d\n<#43>", i))
				})
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("the prompt took %v with a stopped worker", d)
			}
			waitGone(t, second, 5*time.Second, "the stopped worker")
			waitWorker(t, shellPID, second)
			tm.noNotices()
		})
	}
}

// The shell ends (here with a background job, which in zsh holds copies
// of the worker's descriptors): its worker ends within seconds.
func TestWorkerEndsWithItsShell(t *testing.T) {
	hold := map[string]string{
		// zsh's descriptors are close-on-exec, so the job is given copies;
		// bash holds none while a command runs (and its worker holds both
		// FIFOs itself), so only the shell's end can tell.
		"bash": "sleep 300 & disown",
		"zsh":  "sleep 300 3<&$_prchip_req 4<&$_prchip_resp &!",
		// fish's worker holds a pidfd of its shell.
		"fish": "sleep 300 & disown",
	}
	for _, sh := range []string{"zsh", "bash", "fish"} {
		t.Run(sh, func(t *testing.T) {
			t.Parallel()
			w := shellWorld(t, sh)
			tm := onTerminal(t, w, sh)
			tm.enter(fmt.Sprintf(workerSetups[sh], prchipBin))
			tm.enter("echo second")
			shellPID := tm.panePID()
			worker := waitWorker(t, shellPID, 0)
			tm.enter(hold[sh])
			var sleeps []proc
			deadline := time.Now().Add(5 * time.Second)
			for len(sleeps) == 0 && time.Now().Before(deadline) {
				sleeps = liveProcesses(func(p proc) bool { return bytes.Equal(p.cmdline, []byte("sleep\x00300\x00")) && p.cwd == w.repo })
				time.Sleep(50 * time.Millisecond)
			}
			if len(sleeps) == 0 {
				t.Fatal("the background job did not start")
			}
			t.Cleanup(func() { syscall.Kill(sleeps[0].pid, syscall.SIGKILL) })
			fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", sleeps[0].pid))
			if sh == "zsh" && len(fds) < 5 {
				t.Fatalf("the job holds only %d descriptors: the test shows nothing", len(fds))
			}
			tm.enter("exit")
			waitGone(t, shellPID, 5*time.Second, "the shell")
			waitGone(t, worker, 5*time.Second, "the worker of a shell that ended")
			if !alive(sleeps[0].pid) {
				t.Fatal("the background job died too: the test shows nothing")
			}
		})
	}
}

// A worker idle for worker_idle ends; the next prompt shows the chip and
// starts a new one. A replaced prchip binary leaves no worker of the old
// binary behind after a few prompts.
func TestWorkerIdleAndUpgrade(t *testing.T) {
	for _, sh := range []string{"zsh", "bash", "fish"} {
		t.Run(sh, func(t *testing.T) {
			t.Parallel()
			w := shellWorld(t, sh)
			w.config("worker_idle = \"2s\"\n")
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			bin := filepath.Join(w.home, "app", "prchip")
			os.MkdirAll(filepath.Dir(bin), 0o755)
			copyFile(t, prchipBin, bin)
			tm := onTerminal(t, w, sh)
			tm.enter(fmt.Sprintf(workerSetups[sh], bin))
			tm.enter("echo second")
			shellPID := tm.panePID()
			first := waitWorker(t, shellPID, 0)
			waitGone(t, first, 8*time.Second, "an idle worker")
			tm.enter("echo after-idle")
			tm.promptShows(sh, "#42")
			second := waitWorker(t, shellPID, first)

			copyFile(t, prchipBin, bin+".new")
			if err := os.Rename(bin+".new", bin); err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				tm.enter(fmt.Sprintf("echo upgraded%d", i))
				time.Sleep(300 * time.Millisecond)
			}
			tm.promptShows(sh, "#42")
			waitGone(t, second, 5*time.Second, "the old binary's worker")
			third := waitWorker(t, shellPID, second)
			if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", third)); exe != bin {
				t.Fatalf("the new worker runs %q, want %s", exe, bin)
			}
			tm.noNotices()
		})
	}
}

// A token exported in the shell reaches the worker at the next prompt and
// lifts the suppression an auth failure caused; the one-shot path is
// broken meanwhile, so only the worker can show it.
func TestWorkerTokenLiftsSuppression(t *testing.T) {
	for _, sh := range []string{"zsh", "bash", "fish"} {
		t.Run(sh, func(t *testing.T) {
			t.Parallel()
			w := shellWorld(t, sh)
			w.srv.SetMode(fakegithub.BadCreds)
			w.refresh(w.repo, 4)
			tm := onTerminal(t, w, sh)
			tm.enter(fmt.Sprintf(workerSetups[sh], prchipBin))
			tm.enter(assign(sh, "_prchip_exe", "/nonexistent/prchip"))
			waitWorker(t, tm.panePID(), 0)
			if s := w.status(w.repo); s.Validation != "suppressed" {
				t.Fatalf("validation %s, want suppressed", s.Validation)
			}
			w.srv.SetMode(fakegithub.OK)
			w.srv.SetPR("feature", fakegithub.PR{Number: 9})
			tm.enter("export GH_TOKEN=a-new-token")
			tm.promptShows(sh, "#9")
			w.extra["GH_TOKEN"] = "a-new-token"
			if s := w.status(w.repo); s.Validation != "validated" {
				t.Fatalf("validation %s after the new token", s.Validation)
			}
		})
	}
}

// Ten shells with workers enter one repository with stale state at once,
// while ten one-shot renders run there too: exactly one request reaches
// GitHub.
func TestTenShellsOneRequest(t *testing.T) {
	w := shellWorld(t, "zsh", "bash")
	w.srv.SetPR("feature", fakegithub.PR{Number: 5})
	w.srv.SetDelay(500 * time.Millisecond)
	var tms []*terminal
	for i := range 10 {
		sh := []string{"zsh", "bash"}[i%2]
		tm := onTerminal(t, w, sh)
		tm.enter("cd " + w.home)
		tm.enter(fmt.Sprintf(workerSetups[sh], prchipBin))
		tm.enter("echo ready")
		tms = append(tms, tm)
	}
	for _, tm := range tms {
		waitWorker(t, tm.panePID(), 0)
	}
	var wg sync.WaitGroup
	for _, tm := range tms {
		wg.Add(2)
		go func() { defer wg.Done(); tm.enter("cd " + w.repo) }()
		go func() { defer wg.Done(); w.run(w.repo, "prompt", "--shell", "bash") }()
	}
	wg.Wait()
	for i, tm := range tms {
		tm.waitFor(fmt.Sprintf("terminal %d in the repository", i), func(s string) bool {
			return strings.Contains(s, "cd "+w.repo+"\n<")
		})
	}
	w.settle()
	if n := w.prRequests(); n != 1 {
		t.Fatalf("ten shells caused %d requests, want 1", n)
	}
	for _, tm := range tms {
		tm.press("Enter")
		tm.promptShows("bash", "#5")
	}
}

// The hooks and the worker survive what shells do: subshells, command
// substitution, loading the snippet again, set -u, the user's own
// coprocess; the same worker answers throughout, and `exec` of a new zsh
// ends the old shell's worker.
func TestWorkerSurvivesShellLife(t *testing.T) {
	scripts := map[string]string{
		"zsh": `setopt no_unset
echo "W1=$_prchip_wpid"
x=$(echo sub); ( echo "in a subshell" ); echo "x=$x"
eval "$(%[1]s init zsh)"
coproc cat
print -p ping; read -r -p reply; echo "COPROC=$reply"
echo "W2=$_prchip_wpid"
echo "$_prchip_wpid" > old-worker
exec zsh -f -i
sleep 1; [[ -e /proc/$(<old-worker) ]] || echo OLD_GONE
`,
		"bash": `set -u
echo "W1=$_prchip_wpid"
x=$(echo sub); ( echo "in a subshell" ); echo "x=$x"
eval "$(%[1]s init bash)"
coproc cat
echo ping >&"${COPROC[1]}"; read -r reply <&"${COPROC[0]}"; echo "COPROC=$reply"
echo "W2=$_prchip_wpid"
`,
	}
	for _, sh := range []string{"zsh", "bash"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh)
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			script := fmt.Sprintf(shellSetup[sh], prchipBin) + "echo warm\n" + fmt.Sprintf(scripts[sh], prchipBin)
			stdout, stderr := w.interactive(sh, w.repo, script)
			w1 := between(stdout, "W1=", "\n")
			if w1 == "" || w1 == "0" || w1 != between(stdout, "W2=", "\n") {
				t.Fatalf("the worker changed or never started (W1=%q W2=%q)\nstdout:\n%s\nstderr:\n%s", w1, between(stdout, "W2=", "\n"), stdout, stderr)
			}
			for _, want := range []string{"x=sub", "in a subshell", "COPROC=ping"} {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if sh == "zsh" && !strings.Contains(stdout, "OLD_GONE") {
				t.Errorf("the worker of the shell replaced by exec still runs:\n%s", stdout)
			}
			for _, bad := range []string{"prchip:", "unbound variable", "parameter not set", "not found", "ad file descriptor", "o such file"} {
				if strings.Contains(stderr, bad) {
					t.Errorf("stderr has %q:\n%s", bad, stderr)
				}
			}
			if chips := chipsIn(stderr); len(chips) == 0 || chips[len(chips)-1] != "#42" {
				t.Errorf("prompts %q", chips)
			}
		})
	}
}

func between(s, from, to string) string {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, to)
	return v
}

// status, run in a shell (also inside a command substitution), names that
// shell's worker: its pid, binary and idle time; run elsewhere, none.
func TestStatusNamesTheShellsWorker(t *testing.T) {
	for _, sh := range []string{"zsh", "bash"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh)
			script := fmt.Sprintf(shellSetup[sh], prchipBin) + "echo warm\n" +
				"echo \"WORKERPID=$_prchip_wpid\"\n" +
				prchipBin + " status --json > direct.json\n" +
				"x=$(" + prchipBin + " status --json); echo \"$x\" > subst.json\n" +
				"sleep 2.2; " + prchipBin + " status > human.txt 2>&1\n"
			stdout, stderr := w.interactive(sh, w.repo, script)
			pid := between(stdout, "WORKERPID=", "\n")
			if pid == "" || pid == "0" {
				t.Fatalf("no worker\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
			for _, f := range []string{"direct.json", "subst.json"} {
				b, err := os.ReadFile(filepath.Join(w.repo, f))
				if err != nil {
					t.Fatal(err)
				}
				var s struct {
					Worker *struct {
						PID    int    `json:"pid"`
						Binary string `json:"binary"`
						IdleS  *int   `json:"idle_s"`
					} `json:"worker"`
				}
				if err := json.Unmarshal(b, &s); err != nil {
					t.Fatalf("%s: %v\n%s", f, err, b)
				}
				if s.Worker == nil || strconv.Itoa(s.Worker.PID) != pid || s.Worker.Binary != prchipBin || s.Worker.IdleS == nil {
					t.Fatalf("%s: worker %+v, want pid %s binary %s\n%s", f, s.Worker, pid, prchipBin, b)
				}
			}
			human, _ := os.ReadFile(filepath.Join(w.repo, "human.txt"))
			if !regexp.MustCompile(`(?m)^worker: +pid ` + pid + `, ` + regexp.QuoteMeta(prchipBin) + `, idle [2-9]s$`).Match(human) {
				t.Errorf("human status, after 2 s at a command:\n%s", human)
			}
		})
	}
	w := newWorld(t)
	if s := w.status(w.repo); s.Raw["worker"] != nil {
		t.Fatalf("outside a shell with a worker: worker %v", s.Raw["worker"])
	}
}

// In fish too, status run in the shell (and in a command substitution)
// names the shell's worker, with the pid fish started it as.
func TestStatusNamesFishWorker(t *testing.T) {
	w := shellWorld(t, "fish")
	tm := onTerminal(t, w, "fish")
	tm.enter(fmt.Sprintf(workerSetups["fish"], prchipBin))
	worker := waitWorker(t, tm.panePID(), 0)
	tm.enter("echo WORKERPID=$_prchip_wpid; " + prchipBin + " status --json > direct.json; set x (" + prchipBin + " status --json); printf '%s\\n' $x > subst.json; echo DONE")
	tm.waitFor("status", func(s string) bool { return strings.Contains(s, "\nDONE") })
	if !strings.Contains(tm.screen(), fmt.Sprintf("WORKERPID=%d\n", worker)) {
		t.Fatalf("the hook's worker pid is not %d:\n%s", worker, tm.screen())
	}
	for _, f := range []string{"direct.json", "subst.json"} {
		b, _ := os.ReadFile(filepath.Join(w.repo, f))
		var st struct {
			Worker *struct {
				PID    int    `json:"pid"`
				Binary string `json:"binary"`
			} `json:"worker"`
		}
		if err := json.Unmarshal(b, &st); err != nil || st.Worker == nil || st.Worker.PID != worker || st.Worker.Binary != prchipBin {
			t.Fatalf("%s: worker %+v (%v), want pid %d\n%s", f, st.Worker, err, worker, b)
		}
	}
}

// A worker that stops answering is ended, and only it: when the pid its
// hello gave names another process by then (here the hook's copy is
// pointed at an unrelated process, as a reused pid would have it), that
// process is left alone, and the shell still replaces the stuck worker.
// (That the stuck worker itself is ended: TestWorkerInShells.)
func TestStuckWorkerEndSparesReusedPid(t *testing.T) {
	background := map[string]string{"zsh": "sleep 300 &!", "bash": "sleep 300 & disown"}
	for _, sh := range []string{"zsh", "bash"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh)
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			script := fmt.Sprintf(shellSetup[sh], prchipBin) + "echo warm\n" +
				background[sh] + "\nother=$!\nreal=$_prchip_wpid\necho \"OTHER=$other REAL=$real\"\n" +
				"kill -STOP $real; _prchip_wpid=$other\necho stuck\necho next\necho \"NEW=$_prchip_wpid\"\n" +
				"kill -0 $other && echo OTHER_ALIVE\nkill -KILL $real $other\n"
			stdout, stderr := w.interactive(sh, w.repo, script)
			other, _ := strconv.Atoi(between(stdout, "OTHER=", " "))
			real, _ := strconv.Atoi(between(stdout, "REAL=", "\n"))
			t.Cleanup(func() {
				for _, pid := range []int{other, real} {
					if pid > 0 {
						syscall.Kill(pid, syscall.SIGKILL)
					}
				}
			})
			if other <= 0 || real <= 0 {
				t.Fatalf("no worker or no other process\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
			if !strings.Contains(stdout, "OTHER_ALIVE") {
				t.Errorf("the process that had the stuck worker's pid was killed\nstdout:\n%s", stdout)
			}
			if n, _ := strconv.Atoi(between(stdout, "NEW=", "\n")); n <= 0 || n == real || n == other {
				t.Errorf("the stuck worker was not replaced (worker %d, stuck %d, other %d)\nstdout:\n%s", n, real, other, stdout)
			}
			if chips := chipsIn(stderr); len(chips) == 0 || chips[len(chips)-1] != "#42" {
				t.Errorf("prompts %q", chips)
			}
		})
	}
}

// A shell running with errexit survives whatever its worker does: killed,
// stopped, ended after its idle time. An environment too large for the
// pipe never hangs the prompt, with the worker alive or gone.
func TestWorkerUnderErrexitAndHugeEnvironment(t *testing.T) {
	scripts := map[string]string{
		"zsh":  "setopt err_exit\n",
		"bash": "set -e\n",
	}
	huge := strings.Repeat("x", 100000)
	for _, sh := range []string{"zsh", "bash"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh, "kill")
			w.config("worker_idle = \"1s\"\n")
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			script := fmt.Sprintf(shellSetup[sh], prchipBin) + "echo warm\n" + scripts[sh] +
				"echo one\nkill -9 $_prchip_wpid\necho two\necho three\nkill -STOP $_prchip_wpid\necho four\necho five\n" +
				"sleep 1.5\necho six\n" +
				"export NO_PROXY=" + huge + " no_proxy=" + huge + "\necho seven\nsleep 1.5\necho eight\necho nine\n" +
				"echo SURVIVED\n"
			stdout, stderr := w.interactive(sh, w.repo, script)
			if !strings.Contains(stdout, "SURVIVED") {
				t.Fatalf("the shell did not get to the end\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
			if chips := chipsIn(stderr); len(chips) == 0 || chips[len(chips)-1] != "#42" {
				t.Errorf("prompts %q", chips)
			}
		})
	}
}
