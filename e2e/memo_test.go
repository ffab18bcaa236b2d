package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
	"github.com/prchip/prchip/shellhooks"
)

// memoShell is zsh or bash on a terminal with prchip's hook, in w.repo on branch
// feature (PR #42), whose worker keeps its memo; branch other (PR #43) is
// fresh in the state too, so that a prompt after a switch to it shows its
// chip at once.
type memoShell struct {
	*terminal
	w      *world
	shell  int    // the shell's pid
	worker int    // its worker's pid
	memo   string // the worker's memo file
	said   int    // markers used by say
}

func newMemoShell(t *testing.T, sh string) *memoShell {
	t.Helper()
	w := shellWorld(t, sh)
	// An hour: the memo stands however slow the machine.
	w.config("refresh_interval = \"1h\"\n")
	w.srv.SetPR("feature", fakegithub.PR{Number: 42})
	w.srv.SetPR("other", fakegithub.PR{Number: 43})
	w.git(w.repo, "checkout", "-q", "-b", "other")
	w.git(w.repo, "config", "branch.other.remote", "origin")
	w.git(w.repo, "config", "branch.other.merge", "refs/heads/other")
	w.refresh(w.repo, 0)
	w.git(w.repo, "checkout", "-q", "feature")
	w.refresh(w.repo, 0)
	ms := &memoShell{terminal: onTerminal(t, w, sh), w: w}
	ms.enter(fmt.Sprintf(workerSetups[sh], prchipBin))
	ms.promptShows(sh, "#42")
	ms.shell = ms.panePID()
	// The first prompts start the worker and ask it; the memo follows an
	// answer. The hook reads it once it has a key (_prchip_key: what the
	// last answered request was asked with), which the first answer of a
	// worker, asked before its hello named it, leaves empty. Prompts until
	// both are there (a worker that missed the budget on a slow machine
	// is replaced meanwhile).
	deadline := time.Now().Add(10 * time.Second)
	for {
		if key, _ := ms.say("${#_prchip_key}"); key != "0" {
			if ws := workersOf(ms.shell); len(ws) == 1 {
				ms.worker, ms.memo = ws[0], filepath.Join(fifosOf(ws[0]), shellhooks.MemoFile)
				if _, err := os.Stat(ms.memo); err == nil {
					break
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no memo and key after 10 s (workers %v); screen:\n%s", workersOf(ms.shell), ms.screen())
		}
	}
	if b, _ := os.ReadFile(ms.memo); !regexp.MustCompile(`^[0-9]{10} [0-9]+ #42\n$`).Match(b) {
		t.Fatalf("the memo holds %q, want the time, the worker's start time and #42", b)
	}
	return ms
}

// fifosOf is the FIFO directory worker pid was started with (its
// --fifos), "" when it is gone.
func fifosOf(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	args := strings.Split(string(b), "\x00")
	for i, a := range args {
		if a == "--fifos" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// say runs `echo` of words in the shell (no git, no gh: nothing the hook
// invalidates for) and returns what it printed and the chip of the prompt
// drawn after it. The words are expanded before that prompt's hook runs:
// `$_prchip_id` is the count of requests sent until then.
func (ms *memoShell) say(words string) (out, chip string) {
	ms.t.Helper()
	return ms.sayAfter("", words)
}

// sayAfter is say with cmd run first on the same command line.
func (ms *memoShell) sayAfter(cmd, words string) (out, chip string) {
	ms.t.Helper()
	ms.said++
	mark := fmt.Sprintf("SAID%d", ms.said)
	if cmd != "" {
		cmd += "; "
	}
	ms.enter(cmd + `echo "` + mark + ` ` + words + `"`)
	re := regexp.MustCompile(`(?m)^` + mark + ` (.*)\n<([^>]*)>`)
	var m []string
	ms.waitFor("the prompt after "+mark, func(s string) bool {
		m = re.FindStringSubmatch(s)
		return m != nil
	})
	return m[1], m[2]
}

// requests is the hook's count of requests sent to workers, as say sees it.
func (ms *memoShell) requests() int {
	ms.t.Helper()
	out, _ := ms.say("$_prchip_id")
	n, err := strconv.Atoi(out)
	if err != nil {
		ms.t.Fatalf("_prchip_id is %q", out)
	}
	return n
}

// promptUntilMemo draws prompts until the shell's worker (the same or a
// new one) keeps its memo, and takes that worker as ms's.
func (ms *memoShell) promptUntilMemo(why string) {
	ms.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		if ws := workersOf(ms.shell); len(ws) == 1 {
			memo := filepath.Join(fifosOf(ws[0]), shellhooks.MemoFile)
			if _, err := os.Stat(memo); err == nil {
				ms.worker, ms.memo = ws[0], memo
				return
			}
		}
		if time.Now().After(deadline) {
			ms.t.Fatalf("%s: no memo after 10 s of prompts (workers %v)", why, workersOf(ms.shell))
		}
		ms.say("waiting")
		time.Sleep(50 * time.Millisecond)
	}
}

// waitMemo waits until the memo file is there (or gone).
func (ms *memoShell) waitMemo(there bool, why string) {
	ms.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := os.Stat(ms.memo)
		if (err == nil) == there {
			return
		}
		if time.Now().After(deadline) {
			ms.t.Fatalf("%s: the memo %s is still %s after 10 s", why, ms.memo, map[bool]string{true: "missing", false: "there"}[there])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A branch switched outside the shell (no git command the hook could see)
// ends the memo at once: the worker, told by inotify, removes it with no
// request from the shell (its request count does not move), and the next
// prompt asks the worker, once, and shows the new branch's PR.
func TestMemoGoesWithAnOutsideChange(t *testing.T) {
	memoShells(t, testMemoGoesWithAnOutsideChange)
}

func testMemoGoesWithAnOutsideChange(t *testing.T, sh string) {
	ms := newMemoShell(t, sh)
	before := ms.requests()
	ms.w.git(ms.w.repo, "checkout", "-q", "other")
	ms.waitMemo(false, "after the switch, with the shell idle at its prompt")
	out, chip := ms.say("$_prchip_id")
	if out != strconv.Itoa(before) {
		t.Fatalf("the shell sent requests (id %d, then %s) before the prompt after the switch", before, out)
	}
	if chip != "#43" {
		t.Fatalf("the prompt after the switch shows %q, want #43", chip)
	}
	if n := ms.requests(); n != before+1 {
		t.Fatalf("the prompt after the switch sent %d requests, want 1", n-before)
	}
}

// A memo left by a worker that cannot remove it, killed (SIGKILL) or
// stopped (SIGSTOP), is not trusted: after an outside branch switch the
// next prompt shows the new branch's PR (the hook skipped the memo and
// the one-shot render drew it), and a new worker takes the old one's
// place. So too when the killed worker's pid has come to name another
// live process (here the hook's copy is pointed at one, as a reused pid
// would have it): a live process is not the worker.
//
// In zsh, which holds the worker's pipe, a killed worker is end-of-file
// at once and the hook forgets it (the killed and pid-reused cases pass
// on that alone); the stopped case is the /proc check's.
func TestMemoNeedsALiveWorker(t *testing.T) {
	memoShells(t, testMemoNeedsALiveWorker)
}

func testMemoNeedsALiveWorker(t *testing.T, sh string) {
	reuse := map[string]string{"bash": "sleep 300 & disown; _prchip_wpid=$!", "zsh": "sleep 300 &! _prchip_wpid=$!"}[sh]
	for _, c := range []struct {
		name   string
		sig    syscall.Signal
		state  byte   // the worker's state in /proc once signalled (0: gone)
		reused string // the shell's command that points the hook's pid elsewhere
	}{
		{"killed", syscall.SIGKILL, 0, ""},
		{"stopped", syscall.SIGSTOP, 'T', ""},
		{"pid reused", syscall.SIGKILL, 0, reuse},
	} {
		t.Run(c.name, func(t *testing.T) {
			ms := newMemoShell(t, sh)
			if c.sig == syscall.SIGSTOP {
				t.Cleanup(func() { syscall.Kill(ms.worker, syscall.SIGCONT) })
			}
			syscall.Kill(ms.worker, c.sig)
			if c.state == 0 {
				waitGone(t, ms.worker, 10*time.Second, "the killed worker")
			} else {
				waitState(t, ms.worker, c.state)
			}
			ms.w.git(ms.w.repo, "checkout", "-q", "other")
			// zsh holds the worker's pipe: its end is end-of-file at once,
			// and zle has the hook forget the worker and its directory,
			// memo and all, as soon as it looks (nothing is waited for).
			if sh != "zsh" || c.sig != syscall.SIGKILL {
				ms.waitMemo(true, "the memo went: the test would show nothing")
			}
			// The prompt after the line that points the hook's pid at the
			// other process is the one that must not trust the memo.
			out, chip := ms.sayAfter(c.reused, "$_prchip_wpid")
			if c.reused != "" {
				other, _ := strconv.Atoi(out)
				if other <= 0 || other == ms.worker || !alive(other) {
					t.Fatalf("the hook's worker pid is %q, want a live process", out)
				}
				t.Cleanup(func() { syscall.Kill(other, syscall.SIGKILL) })
			}
			if chip != "#43" {
				t.Fatalf("with the worker %s, the prompt after the switch shows %q, want #43", c.name, chip)
			}
			waitGone(t, ms.worker, 10*time.Second, "the "+c.name+" worker")
			waitWorker(t, ms.shell, ms.worker)
			if _, chip := ms.say("again"); chip != "#43" {
				t.Fatalf("the prompt after that shows %q, want #43", chip)
			}
		})
	}
}

// waitState waits until /proc shows process pid in state.
func waitState(t *testing.T, pid int, state byte) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) && stat[i+2] == state {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d: stat %q, want state %c", pid, stat, state)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// While the memo stands, prompts in a row send the worker no request
// (the hook's request count stays), and every one shows the chip.
func TestMemoAnswersWithoutARequest(t *testing.T) {
	memoShells(t, testMemoAnswersWithoutARequest)
}

func testMemoAnswersWithoutARequest(t *testing.T, sh string) {
	ms := newMemoShell(t, sh)
	before, chip := ms.say("$_prchip_id")
	from := fmt.Sprintf("\nSAID%d ", ms.said)
	if chip != "#42" {
		t.Fatalf("the prompt shows %q, want #42", chip)
	}
	for range 3 {
		ms.press("Enter")
	}
	after, _ := ms.say("$_prchip_id")
	to := fmt.Sprintf("\nSAID%d ", ms.said)
	if after != before {
		t.Fatalf("four prompts on the memo sent requests (id %s, then %s)", before, after)
	}
	// The prompts from the first say's output to the second's: its own
	// and the three Enters' (the second was typed at the last).
	s := ms.screen()
	i, j := strings.Index(s, from), strings.Index(s, to)
	if i < 0 || j < i {
		t.Fatalf("the screen lacks %q or %q:\n%s", from, to, s)
	}
	if chips := chipsIn(s[i:j]); strings.Join(chips, " ") != "#42 #42 #42 #42" {
		t.Fatalf("prompts %q, want four #42", chips)
	}
	if ws := workersOf(ms.shell); len(ws) != 1 || ws[0] != ms.worker {
		t.Fatalf("workers %v, want %d throughout", ws, ms.worker)
	}
	ms.waitMemo(true, "after prompts that changed nothing")
}

// The shell's $PWD is a symbolic link that is pointed at another
// repository from outside the shell (ln -sfn in another terminal): the
// worker keys its answer on the directory $PWD names (its identity), so it
// would answer the new one's PR; the memo, keyed on the $PWD string, must
// not go on showing the old one's.
func TestMemoFollowsARetargetedLink(t *testing.T) {
	memoShells(t, testMemoFollowsARetargetedLink)
}

func testMemoFollowsARetargetedLink(t *testing.T, sh string) {
	ms := newMemoShell(t, sh)
	wt := filepath.Join(t.TempDir(), "wt")
	ms.w.git(ms.w.repo, "worktree", "add", "-q", wt, "other")
	link := filepath.Join(t.TempDir(), "link")
	start := time.Now()
	if err := os.Symlink(ms.w.repo, link); err != nil {
		t.Fatal(err)
	}
	ms.w.refresh(wt, 0)
	// The chip of a directory first seen may wait for its refresh.
	for _, chip := ms.sayAfter("cd "+link, "in"); chip != "#42"; _, chip = ms.say("in") {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("in the link to the repository, the prompt shows %q after 10 s, want #42", chip)
		}
	}
	// A directory first seen may have started a refresh, after which the
	// worker keeps no memo until the next prompt: prompts until it does.
	ms.promptUntilMemo("after the prompt in the link")
	// Retargeted as ln -sfn does it: a new link renamed over the old.
	if err := os.Symlink(wt, link+".new"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(link+".new", link); err != nil {
		t.Fatal(err)
	}
	ms.waitMemo(false, "after the link was pointed at the other branch's worktree")
	for _, chip := ms.say("after"); chip != "#43"; _, chip = ms.say("after") {
		if chip == "#42" || time.Since(start) > 20*time.Second {
			t.Fatalf("after the link was pointed at the other branch's worktree, the prompt shows %q, want #43", chip)
		}
	}
}

// memoShells runs test in zsh and in bash.
func memoShells(t *testing.T, test func(t *testing.T, sh string)) {
	for _, sh := range []string{"zsh", "bash"} {
		t.Run(sh, func(t *testing.T) { test(t, sh) })
	}
}
