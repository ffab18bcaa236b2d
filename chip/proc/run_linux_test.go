package proc

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/testenv"
)

// TestMain makes the test binary a subreaper, as the refresh process that
// runs gh and shell chips is.
func TestMain(m *testing.M) {
	BecomeSubreaper()
	testenv.Main(m)
}

// chain is a command 30 levels deep, each level started by the one above
// in a session of its own (setsid) and staying alive; the deepest level
// keeps starting more processes, in sessions of their own, while it is
// being killed. The top level waits until the chain is complete, then
// ends with end.
const chain = `n=${LEVEL:-0}
if [ "$n" -lt 30 ]; then
  LEVEL=$((n+1)) setsid "$0" &
else
  : > "$READY"
  while :; do setsid sleep 30 & sleep 0.01; done
fi
if [ "$n" -eq 0 ]; then
  while [ ! -e "$READY" ]; do sleep 0.01; done
  sleep 0.2
  %s
fi
sleep 30`

// marked lists the live processes whose environment holds mark.
func marked(mark string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		env, _ := os.ReadFile("/proc/" + e.Name() + "/environ")
		if !bytes.Contains(env, []byte(mark)) || !alive(atoi(e.Name())) {
			continue
		}
		cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		out = append(out, e.Name()+": "+strings.ReplaceAll(string(cmd), "\x00", " "))
	}
	return out
}

// When a run ends, by itself or by its timeout, none of its descendants
// is left, at any depth, alive or as a zombie of this process.
func TestRunLeavesNoDescendants(t *testing.T) {
	testenv.Need(t, "setsid")
	for _, c := range []struct {
		name, end string
		timeout   time.Duration
	}{
		{"exits", `echo '{"number":1}'; exit 0`, 20 * time.Second},
		{"times out", `sleep 30`, 1500 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			mark := "PRCHIP_CHAIN=" + strconv.FormatInt(time.Now().UnixNano(), 36)
			p := script(t, strings.Replace(chain, "%s", c.end, 1))
			env := append(os.Environ(), mark, "READY="+filepath.Join(dir, "ready"))
			r := Run(context.Background(), Command{Path: p, Timeout: c.timeout, Env: env})
			left := marked(mark)
			t.Cleanup(func() {
				for _, l := range marked(mark) {
					pid, _, _ := strings.Cut(l, ":")
					syscall.Kill(atoi(pid), syscall.SIGKILL)
				}
			})
			if _, err := os.Stat(filepath.Join(dir, "ready")); err != nil {
				t.Fatalf("the chain was not complete: %v (stderr %q)", err, r.Stderr)
			}
			if r.TimedOut != (c.end == "sleep 30") {
				t.Fatalf("timed out %v, exit %d, stdout %q", r.TimedOut, r.ExitCode, r.Stdout)
			}
			if len(left) > 0 {
				t.Fatalf("%d processes of the run are left:\n%s", len(left), strings.Join(left, "\n"))
			}
			for pid, st := range scan() {
				if st.PPID == os.Getpid() {
					t.Errorf("a child of this process is left: %d (state %c)", pid, st.State)
				}
			}
		})
	}
}

// Where endTree cannot reach a grandchild (here: Run in a process that
// adopts no orphans, and a grandchild in a session of its own), the pipe
// it holds open is abandoned (WaitDelay), and the run still reports the
// leader's exit and output.
func TestRunAbandonsPipeHeldOutOfReach(t *testing.T) {
	testenv.Need(t, "setsid")
	subreaper.Store(false)
	defer subreaper.Store(true)
	pidFile := filepath.Join(t.TempDir(), "pid")
	// The leader exits once the grandchild has left its process group.
	p := script(t, `setsid sh -c 'echo $$ > "$0"; exec sleep 3600' '`+pidFile+`' &
while [ ! -s '`+pidFile+`' ]; do sleep 0.01; done
echo '{"number":1}'; exit 0`)
	grandchild := func() int { b, _ := os.ReadFile(pidFile); return atoi(strings.TrimSpace(string(b))) }
	kill := func(pid int) {
		if pid > 0 { // 0 would be this test's own process group
			syscall.Kill(pid, syscall.SIGKILL)
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, 0, nil) // reparented to this subreaper
		}
	}
	// Should Run wait for the grandchild, it would wait an hour.
	watchdog := time.AfterFunc(15*time.Second, func() { kill(grandchild()) })
	r := Run(context.Background(), Command{Path: p, Timeout: 20 * time.Second, Env: os.Environ()})
	pid := grandchild()
	t.Cleanup(func() { kill(pid) })
	if !watchdog.Stop() || pid <= 0 || !alive(pid) {
		t.Fatalf("the run waited for the grandchild %d holding its pipe until it ended", pid)
	}
	if r.TimedOut || r.ExitCode != 0 || string(r.Stdout) != "{\"number\":1}\n" {
		t.Fatalf("timed out %v, exit %d, stdout %q", r.TimedOut, r.ExitCode, r.Stdout)
	}
}
