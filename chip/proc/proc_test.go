package proc

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fake")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func alive(pid int) bool {
	st, ok := ReadStat(pid)
	return ok && st.State != 'Z'
}

func TestRunGrandchildHoldingStdout(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	// The child exits at once; its background grandchild keeps stdout open.
	p := script(t, `sleep 30 & echo $! > '`+pidFile+`'; echo '{"number":1}'; exit 0`)
	start := time.Now()
	r := Run(context.Background(), Command{Path: p, Timeout: 5 * time.Second, Env: os.Environ()})
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("run waited %v for the grandchild", d)
	}
	if r.ExitCode != 0 || !strings.Contains(string(r.Stdout), `"number":1`) {
		t.Fatalf("exit %d stdout %q", r.ExitCode, r.Stdout)
	}
	b, _ := os.ReadFile(pidFile)
	pid := atoi(strings.TrimSpace(string(b)))
	time.Sleep(50 * time.Millisecond)
	if pid > 0 && alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("grandchild %d outlived the run", pid)
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func TestRunTimeoutKillsGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	p := script(t, `trap '' TERM; sleep 30 & echo $! > '`+pidFile+`'; sleep 30`)
	start := time.Now()
	r := Run(context.Background(), Command{Path: p, Timeout: 300 * time.Millisecond, Env: os.Environ()})
	if d := time.Since(start); d > 1300*time.Millisecond {
		t.Fatalf("timeout took %v", d)
	}
	if !r.TimedOut {
		t.Fatal("not marked timed out")
	}
	b, _ := os.ReadFile(pidFile)
	time.Sleep(50 * time.Millisecond)
	if pid := atoi(strings.TrimSpace(string(b))); pid > 0 && alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("grandchild %d survived the timeout", pid)
	}
}

func TestRunBoundedCapture(t *testing.T) {
	// Stderr past its limit is dropped; the run goes on to its exit.
	p := script(t, `head -c 300000 /dev/zero >&2; echo out; exit 1`)
	r := Run(context.Background(), Command{Path: p, Timeout: 5 * time.Second, Env: os.Environ()})
	if len(r.Stderr) != MaxStderr || string(r.Stdout) != "out\n" || r.ExitCode != 1 || r.TimedOut || r.Overflowed {
		t.Fatalf("stderr %d bytes, stdout %q, exit %d, timed out %v, overflowed %v", len(r.Stderr), r.Stdout, r.ExitCode, r.TimedOut, r.Overflowed)
	}
	// Stdout past its limit stops the run at once: a gh that never stops
	// printing is not waited for until the timeout.
	p = script(t, `yes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`)
	r = Run(context.Background(), Command{Path: p, Timeout: time.Minute, Env: os.Environ()})
	if !r.Overflowed || r.TimedOut || len(r.Stdout) != MaxStdout || r.Duration > 30*time.Second {
		t.Fatalf("overflowed %v, timed out %v, %d bytes, after %v", r.Overflowed, r.TimedOut, len(r.Stdout), r.Duration)
	}
}

// How the leader ended: its exit code, or -1 and Signaled when a signal
// ended it.
func TestRunExitStatus(t *testing.T) {
	for _, c := range []struct {
		body     string
		code     int
		signaled bool
	}{
		{"exit 0", 0, false},
		{"exit 3", 3, false},
		{"kill -TERM $$", -1, true},
	} {
		r := Run(context.Background(), Command{Path: script(t, c.body), Timeout: 5 * time.Second, Env: os.Environ()})
		if r.ExitCode != c.code || r.Signaled != c.signaled || r.TimedOut || r.StartErr != nil {
			t.Errorf("%s: exit %d, signaled %v, timed out %v, start error %v", c.body, r.ExitCode, r.Signaled, r.TimedOut, r.StartErr)
		}
	}
}

func TestRunStdinIsDevNull(t *testing.T) {
	p := script(t, `cat; echo done`)
	r := Run(context.Background(), Command{Path: p, Timeout: 2 * time.Second, Env: os.Environ()})
	if r.TimedOut || strings.TrimSpace(string(r.Stdout)) != "done" {
		t.Fatalf("timed out %v stdout %q", r.TimedOut, r.Stdout)
	}
}

func TestGhEnv(t *testing.T) {
	in := []string{"PATH=/bin", "GH_TOKEN=t", "GH_HOST=h", "GH_FORCE_TTY=1", "CLICOLOR_FORCE=1", "GH_DEBUG=api", "DEBUG=1",
		"NO_COLOR=", "GH_PAGER=less", "HTTPS_PROXY=p", "GH_ENTERPRISE_TOKEN=e", "GITHUB_TOKEN=g", "GH_CONFIG_DIR=c", "NO_PROXY=n"}
	out := strings.Join(GhEnv(in), "\n") + "\n"
	for _, keep := range []string{"GH_TOKEN=t", "GH_HOST=h", "HTTPS_PROXY=p", "GH_ENTERPRISE_TOKEN=e", "GITHUB_TOKEN=g", "GH_CONFIG_DIR=c", "NO_PROXY=n",
		"GH_PROMPT_DISABLED=1", "GH_NO_UPDATE_NOTIFIER=1", "NO_COLOR=1", "GH_PAGER=cat"} {
		if !strings.Contains(out, keep+"\n") {
			t.Errorf("missing %s", keep)
		}
	}
	for _, gone := range []string{"GH_FORCE_TTY", "CLICOLOR_FORCE", "GH_DEBUG", "DEBUG=", "GH_PAGER=less", "NO_COLOR=\n"} {
		if strings.Contains(out, gone) {
			t.Errorf("kept %s", gone)
		}
	}
}
