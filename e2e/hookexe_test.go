package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

// The hooks call prchip by the path `prchip init` recorded. In real zsh,
// bash and fish, init runs from a copy of the binary, which is then moved
// away, deleted, or upgraded (the versioned directory replaced by a new
// one) mid-session. With a prchip on PATH the chip keeps showing, drawn by
// that binary: the PR that appears after `git status` needs a live prchip,
// and in zsh and bash the shell's worker then runs the binary from PATH
// (the old one's has ended). With none on PATH the prompt is drawn, empty
// and without a word, `prchip status` run by a full path says why, and
// loading the hook again from where prchip is now brings the chip back.
func TestHooksSurviveAMovedBinary(t *testing.T) {
	for _, sh := range []string{"zsh", "bash", "fish"} {
		for _, change := range []string{"moved", "deleted", "upgraded"} {
			for _, onPath := range []bool{true, false} {
				name := sh + "/" + change + "/prchip on PATH"
				if !onPath {
					name = sh + "/" + change + "/none on PATH"
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					hookSurvives(t, sh, change, onPath)
				})
			}
		}
	}
}

func hookSurvives(t *testing.T, sh, change string, onPath bool) {
	w := shellWorld(t, sh, "mv", "cp", "ln", "mkdir", "date")
	w.srv.SetPR("feature", fakegithub.PR{Number: 42})
	w.refresh(w.repo, 0)
	// Only a live prchip can show #43: it takes `git status` (an
	// invalidation) and a refresh after the binary is gone.
	w.srv.SetPR("feature", fakegithub.PR{Number: 43})

	dir := func(name string) string {
		d := filepath.Join(w.home, name)
		os.MkdirAll(d, 0o755)
		return d
	}
	v1 := filepath.Join(dir("v1"), "prchip")
	copyFile(t, prchipBin, v1)
	v2 := filepath.Join(dir("v2"), "prchip")
	onPathDir := dir("onpath")
	fallback := filepath.Join(onPathDir, "prchip")
	w.extra["PATH"] = w.bin + ":" + onPathDir
	var do string
	switch change {
	case "moved":
		do = "mv " + v1 + " " + filepath.Join(dir("moved"), "prchip")
	case "deleted":
		do = "rm " + v1
	case "upgraded":
		// A package manager's upgrade: the old version's directory goes,
		// the new one's comes, and the link on PATH follows it.
		do = "rm -r " + filepath.Dir(v1) + "; cp " + prchipBin + " " + v2
		if onPath {
			do += "; ln -s " + v2 + " " + fallback
		}
	}
	if onPath && change != "upgraded" {
		copyFile(t, prchipBin, fallback)
	}

	prompts := func(n int) string {
		line := "sleep 0.25\n"
		if sh == "fish" {
			// fish reading a pipe draws no prompt: emit the event and print
			// the prompt, on stderr as zsh and bash print theirs.
			line = "emit fish_prompt; fish_prompt >&2; echo >&2\nsleep 0.25\n"
		}
		return strings.Repeat(line, n)
	}
	gitStatus := "git status >/dev/null\n"
	if sh == "fish" {
		gitStatus = "git status >/dev/null; emit fish_preexec 'git status'\n"
	}
	setup := fmt.Sprintf(shellSetup[sh], v1)
	if sh == "fish" {
		setup = strings.Replace(setup, "printf '<%s>$ '", "printf '<%s>$ ' >&2", 1)
	}
	pidFile, ready := filepath.Join(w.home, "shell.pid"), filepath.Join(w.home, "ready")
	if sh != "fish" {
		setup += "echo $$ > " + pidFile + "\n"
	}
	script := setup + prompts(3) + do + "\necho CHANGED >&2\n" + gitStatus
	if onPath {
		script += prompts(12)
		script += "prchip status\n"
	} else {
		script += prompts(6) + prchipBin + " status\n"
		reload := fmt.Sprintf(`eval "$(%s init %s)"`, prchipBin, sh)
		if sh == "fish" {
			reload = prchipBin + " init fish | source"
		}
		script += "echo RELOADED >&2\n" + reload + "\n" + prompts(12)
	}
	var watch *workerWatch
	if sh != "fish" && onPath {
		script += "touch " + ready + "\nsleep 1\n"
		watch = watchWorkers(pidFile, ready)
	}

	stdout, stderr := w.interactive(sh, w.repo, script)
	if watch != nil {
		watch.stop()
	}
	before, after, ok := strings.Cut(stderr, "CHANGED\n")
	if !ok {
		t.Fatalf("the change was not made\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	after, reloaded, _ := strings.Cut(after, "RELOADED\n")
	report := fmt.Sprintf("\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	if c := chipsIn(before); len(c) == 0 || c[len(c)-1] != "#42" {
		t.Fatalf("before the change the prompts showed %q, want #42 last%s", c, report)
	}
	for _, bad := range []string{"o such file", "not found", "Unknown command", "rror", "denied", "prchip:"} {
		if strings.Contains(stderr, bad) {
			t.Fatalf("the shell printed %q%s", bad, report)
		}
	}
	chips := chipsIn(after)
	hook := "runs " + v1 + ", which is gone"
	if onPath {
		for _, c := range chips {
			if c == "" {
				t.Fatalf("the chip vanished: prompts %q after the change%s", chips, report)
			}
		}
		if len(chips) == 0 || chips[len(chips)-1] != "#43" {
			t.Fatalf("prompts %q after the change, want #43 last (drawn by %s)%s", chips, fallback, report)
		}
		if want := hook + "; it falls back to prchip on PATH (" + fallback + ")"; !strings.Contains(stdout, want) {
			t.Fatalf("status does not say %q%s", want, report)
		}
	} else {
		// Every prompt drawn (six, and in zsh and bash those after the
		// other commands), empty once the old binary's worker is gone.
		if len(chips) < 6 || chips[len(chips)-1] != "" {
			t.Fatalf("prompts %q after the change, want 6 or more drawn, empty at the end%s", chips, report)
		}
		if want := hook + ", and there is no prchip on PATH: the chip is off in this shell"; !strings.Contains(stdout, want) {
			t.Fatalf("status does not say %q%s", want, report)
		}
		if c := chipsIn(reloaded); len(c) == 0 || c[len(c)-1] != "#43" {
			t.Fatalf("after loading the hook from %s the prompts showed %q, want #43 last%s", prchipBin, c, report)
		}
	}
	if watch != nil {
		// The worker of the binary that went answered once more and ended;
		// every worker after it runs the binary from PATH (under load a
		// slow worker is replaced, by another from PATH).
		want := fallback
		if change == "upgraded" {
			want = v2
		}
		old := map[string]bool{v1: true, v1 + " (deleted)": true, filepath.Join(w.home, "moved", "prchip"): true}
		fromPath := false
		for _, exe := range watch.seen {
			fromPath = fromPath || exe == want
			if exe != want && !old[exe] {
				t.Fatalf("the shell's workers ran %v, want %s after %s%s", watch.seen, want, v1, report)
			}
		}
		if !fromPath {
			t.Fatalf("no worker ran %s (workers: %v)%s", want, watch.seen, report)
		}
		for _, exe := range watch.atEnd {
			if old[exe] {
				t.Fatalf("a worker of the old binary still runs: %q%s", exe, report)
			}
		}
	}
}

// workerWatch records the binaries a shell's workers run, while it runs.
type workerWatch struct {
	done  chan struct{}
	ended chan struct{}
	seen  map[int]string // worker pid: its binary ("... (deleted)" for a deleted one)
	atEnd []string       // the binaries of the workers alive when the shell wrote ready
}

// watchWorkers watches the workers of the shell whose pid pidFile names
// (once it does), until stop; ready is a file the shell creates near its end.
func watchWorkers(pidFile, ready string) *workerWatch {
	ww := &workerWatch{done: make(chan struct{}), ended: make(chan struct{}), seen: map[int]string{}}
	go func() {
		defer close(ww.ended)
		pid, atEnd := 0, false
		for {
			select {
			case <-ww.done:
				return
			case <-time.After(10 * time.Millisecond):
			}
			if pid == 0 {
				b, _ := os.ReadFile(pidFile)
				pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
				continue
			}
			_, err := os.Stat(ready)
			for _, p := range workersOf(pid) {
				exe, rerr := os.Readlink(fmt.Sprintf("/proc/%d/exe", p))
				if rerr != nil {
					continue
				}
				if _, ok := ww.seen[p]; !ok {
					ww.seen[p] = exe
				}
				if err == nil && !atEnd {
					ww.atEnd = append(ww.atEnd, exe)
				}
			}
			atEnd = atEnd || err == nil
		}
	}()
	return ww
}

func (ww *workerWatch) stop() {
	close(ww.done)
	<-ww.ended
}

// With . and an empty entry first on PATH and the recorded binary gone,
// the hooks fall back to the first prchip in an absolute PATH directory,
// never to one the repository holds (the prompt would run it on cd).
func TestHookFallbackSkipsRelativePath(t *testing.T) {
	for _, sh := range []string{"zsh", "bash", "fish"} {
		t.Run(sh, func(t *testing.T) {
			t.Parallel()
			w := shellWorld(t, sh)
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.refresh(w.repo, 0)
			planted := filepath.Join(w.home, "planted-ran")
			os.WriteFile(filepath.Join(w.repo, "prchip"), []byte("#!/bin/sh\ntouch "+planted+"\necho '#666'\n"), 0o755)
			v1 := filepath.Join(w.home, "v1", "prchip")
			os.MkdirAll(filepath.Dir(v1), 0o755)
			copyFile(t, prchipBin, v1)
			onPath := filepath.Join(w.home, "onpath")
			os.MkdirAll(onPath, 0o755)
			copyFile(t, prchipBin, filepath.Join(onPath, "prchip"))
			w.extra["PATH"] = ".::" + w.bin + ":" + onPath
			prompt := "sleep 0.2\n"
			if sh == "fish" {
				prompt = "emit fish_prompt; fish_prompt; echo\n"
			}
			script := fmt.Sprintf(shellSetup[sh], v1) + prompt + "rm " + v1 + "\n" + strings.Repeat(prompt, 6)
			stdout, stderr := w.interactive(sh, w.repo, script)
			if _, err := os.Stat(planted); err == nil {
				t.Fatalf("the hook ran the repository's prchip\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
			if c := chipsIn(stdout + stderr); len(c) == 0 || c[len(c)-1] != "#42" {
				t.Fatalf("prompts %q, want #42 from %s last\nstdout:\n%s\nstderr:\n%s", c, onPath, stdout, stderr)
			}
		})
	}
}
