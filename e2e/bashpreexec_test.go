package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

// bash with bash-preexec (as atuin and others load it; the file is
// vendored unchanged in testdata) on a real terminal: prompts start no
// process (counted in a pid namespace of the shell's own: its last pid
// stays put over ten prompts, where reading `history 1` would fork at
// each), a `git` command line still invalidates, through the worker
// alone, and the user's preexec function and $? survive.
func TestBashPreexecNoForkPerPrompt(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("a pid namespace needs root")
	}
	unshare := need(t, "unshare")
	bp, err := filepath.Abs(filepath.Join("testdata", "bash-preexec", "bash-preexec.sh"))
	if err != nil {
		t.Fatal(err)
	}
	w := shellWorld(t, "bash", "git")
	w.srv.SetPR("feature", fakegithub.PR{Number: 42})
	// Fresh for the whole count: no refresh (or probe) falls due among the
	// ten prompts however slow the machine.
	w.config(`refresh_interval = "1h"` + "\n")
	w.refresh(w.repo, 0)
	// sh stays pid 1 of the namespace (a shell of pid 1 gets no worker).
	tm := onTerminalIn(t, w, "bash", unshare, "--pid", "--fork", "--mount-proc", "sh", "-c", `"$@"; :`, "sh")
	tm.enter("source " + bp + `; user_pre() { echo "USERPRE[$1]"; }; preexec_functions+=(user_pre)`)
	tm.enter(fmt.Sprintf(`eval "$(%s init bash)"; PS1='<${PRCHIP}>$?\$ '`, prchipBin))
	hasWorker := regexp.MustCompile(`\nWORKER=[1-9]`)
	for i := 0; !hasWorker.MatchString(tm.screen()); i++ {
		if i == 20 {
			t.Fatalf("no worker:\n%s", tm.screen())
		}
		tm.enter(`echo "WORKER=$_prchip_wpid"`)
		time.Sleep(300 * time.Millisecond)
	}

	// The pid counter, read with builtins, three times: twice in a row
	// (what one command line costs: bash-preexec itself reads `history 1`
	// for each), then after ten prompts, which must add nothing to that.
	counter := func(name string) int {
		tm.enter(`read -r n < /proc/sys/kernel/ns_last_pid; echo "` + name + `=$n"`)
		tm.waitFor(name, func(s string) bool { return strings.Contains(s, "\n"+name+"=") })
		n, _ := strconv.Atoi(between(tm.screen(), "\n"+name+"=", "\n"))
		return n
	}
	a, b := counter("FIRST"), counter("SECOND")
	for range 10 {
		tm.press("Enter")
	}
	c := counter("THIRD")
	// The old hook forked once a prompt (10 here). A worker that misses a
	// prompt's budget on a loaded machine gets that prompt one one-shot
	// render (a process): up to two of those are timing, not a fork per
	// prompt.
	if a == 0 || c-b > b-a+2 {
		t.Fatalf("ten prompts started %d processes (last pids %d, %d, %d):\n%s", c-b-(b-a), a, b, c, tm.screen())
	}

	tm.enter("_prchip_exe=/nonexistent/prchip") // only the worker can draw the chip now
	w.srv.SetPR("feature", fakegithub.PR{Number: 43})
	tm.enter("git status >/dev/null; false")
	tm.promptShows("bash", "#43")
	if n := w.status(w.repo).refreshes(); n < 1 {
		t.Fatalf("git status asked for no probe or refresh (count %d)", n)
	}
	s := tm.screen()
	if !strings.Contains(s, "\nUSERPRE[git status >/dev/null; false]\n") {
		t.Errorf("the user's preexec function did not run:\n%s", s)
	}
	if !regexp.MustCompile(`false\n(USERPRE.*\n)?<#4[23]>1[#$]`).MatchString(s) {
		t.Errorf("the prompt after false does not show its status:\n%s", s)
	}
	tm.noNotices()
	// The shell ends, and with it its worker, which removes its record:
	// killed with the namespace instead, it would leave it behind.
	pane := tm.panePID()
	tm.enter("exit")
	waitGone(t, pane, 10*time.Second, "the terminal's namespace")
}
