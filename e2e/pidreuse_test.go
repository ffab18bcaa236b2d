package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// reuseDriver runs as pid 1 of a pid namespace of its own, where the next
// pid can be chosen (ns_last_pid). fish starts the hook's waiter and ends
// while the waiter waits for a refresh; its pid is then given to a process
// that records the waiter's signal (SIGURG; SIGUSR1 before). Then the
// refresh is let end, and so the wait.
const reuseDriver = `cd "$REPO"
fish --no-config -c "$FISH_SCRIPT"
p=$(cat "$HOME/fish-pid")
grep -l -a -P 'prompt\x00--shell\x00fish\x00--wait' /proc/[0-9]*/cmdline >/dev/null 2>&1 && echo WAITING
i=0
while :; do
  echo $((p - 1)) > /proc/sys/kernel/ns_last_pid
  sh -c 'trap "echo signalled >> \"$0\"" USR1 URG; while :; do sleep 0.05; done' "$HOME/got" &
  [ "$!" = "$p" ] && break
  kill $!
  i=$((i + 1))
  [ $i -lt 100 ] || exit 3
done
echo "REUSED $p"
: > "$HOME/gate"
sleep 2
[ -e "$HOME/got" ] && echo SIGNALLED
kill $!
`

// A waiter (`prompt --wait --signal-parent`, fish's before its worker)
// tells its shell when a refresh ends, and never a process
// that has the shell's pid since: the shell ends while the waiter waits and
// its pid goes to a new process, which gets no signal when the wait ends.
func TestFishWaiterNeverSignalsAReusedPid(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("a pid namespace needs root")
	}
	unshare := need(t, "unshare")
	w := shellWorld(t, "fish", "grep")
	// gh waits for the gate, so the refresh holds its lock until then.
	gh := filepath.Join(w.bin, "gh")
	os.Remove(gh)
	os.WriteFile(gh, []byte(`#!/bin/sh
: > "$HOME/gh-started"
while [ ! -e "$HOME/gate" ]; do sleep 0.05; done
echo '{"number":7,"title":"t","state":"OPEN","isDraft":false,"url":"https://github.localhost/o/r/pull/7"}'
`), 0o755)
	w.config("timeout = \"20s\"\n")
	refresh := exec.Command(prchipBin, "refresh")
	refresh.Dir, refresh.Env = w.repo, w.env()
	if err := refresh.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.WriteFile(filepath.Join(w.home, "gate"), nil, 0o644)
		refresh.Wait()
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(w.home, "gh-started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the refresh did not start gh")
		}
		time.Sleep(20 * time.Millisecond)
	}

	// The waiter line fish's hook ran before its worker (#25), which
	// `prompt --signal-parent` still serves.
	waiter := "command $_prchip_run prompt --shell fish --wait --signal-parent >/dev/null 2>&1 &"
	script := "set -g _prchip_exe " + prchipBin + "\nset -g _prchip_run " + prchipBin + "\n" + waiter + "\ndisown 2>/dev/null\necho $fish_pid > $HOME/fish-pid\n"
	c := exec.Command(unshare, "--pid", "--fork", "--mount-proc", "sh", "-c", reuseDriver)
	c.Env = append(w.env(), "REPO="+w.repo, "FISH_SCRIPT="+script)
	out, err := c.CombinedOutput()
	if err != nil && !strings.Contains(string(out), "REUSED") {
		if os.Getenv("CI") == "true" {
			t.Fatalf("a pid namespace: %v\n%s", err, out)
		}
		t.Skipf("no pid namespace here: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "WAITING") || !strings.Contains(string(out), "REUSED") {
		t.Fatalf("the waiter was not waiting when its shell ended, or the pid was not reused:\n%s", out)
	}
	if strings.Contains(string(out), "SIGNALLED") {
		t.Fatalf("the waiter signalled the process that had its shell's pid since:\n%s", out)
	}
}
