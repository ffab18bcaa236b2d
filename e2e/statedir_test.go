package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"

	"github.com/prchip/prchip/internal/testenv"
)

// other is the user id that plays another user (nobody).
const other = 65534

// tree describes everything under dir (itself included, not following
// links): what a write, a chmod or a new entry would change.
func tree(dir string) string {
	var lines []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			lines = append(lines, p+" "+err.Error())
			return nil
		}
		st := info.Sys().(*syscall.Stat_t)
		lines = append(lines, fmt.Sprintf("%s %v uid=%d ino=%d size=%d mtime=%d", p, info.Mode(), st.Uid, st.Ino, info.Size(), info.ModTime().UnixNano()))
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// renderAndWorkerAnswer runs a render and a worker's invalidating answer,
// neither of which may stall or print.
func (w *world) renderAndWorkerAnswer(t *testing.T) {
	t.Helper()
	if p := w.run(w.repo, "prompt", "--shell", "zsh"); p.code != 0 || p.stderr != "" || p.took > 2*time.Second {
		t.Fatalf("prompt: exit %d after %v: %q", p.code, p.took, p.stderr)
	}
	wc := startWorker(t, w, "zsh", os.Getpid())
	start := time.Now()
	wc.ask(w.repo, true, nil)
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the worker's invalidating answer took %v", took)
	}
}

// everyCommand runs what writes the state: refresh, invalidate, a render
// that is due a refresh, and a worker's invalidating request. None may
// hang; it returns refresh's result and the requests GitHub had after it.
func (w *world) everyCommand(t *testing.T) (result, int64) {
	t.Helper()
	r := w.run(w.repo, "refresh")
	requests := w.prRequests()
	if inv := w.run(w.repo, "invalidate"); inv.code != 0 || inv.took > 2*time.Second {
		t.Fatalf("invalidate: exit %d after %v: %s", inv.code, inv.took, inv.stderr)
	}
	w.renderAndWorkerAnswer(t)
	w.settle()
	return r, requests
}

// The state directory is the user's (SPEC 5): prchip writes nothing
// through a link, in another user's directory or in one others can write,
// never changes their modes (no chmod through a link), starts no refresh
// there, and `status` says what is wrong and what to do.
func TestStateDirectoryIsTheUsers(t *testing.T) {
	cases := []struct {
		name, want string
		root       bool
		// make prepares the state directory dir and returns the directory
		// that must stay as it is.
		make func(w *world, dir string) string
	}{
		{"symlink", "is a symbolic link", false, func(w *world, dir string) string {
			target := filepath.Join(w.home, "elsewhere")
			os.Mkdir(target, 0o755)
			os.Chmod(target, 0o755)
			os.Symlink(target, dir)
			return target
		}},
		{"another user's", "belongs to uid 65534", true, func(w *world, dir string) string {
			os.Mkdir(dir, 0o700)
			os.Chown(dir, other, other)
			return dir
		}},
		{"writable by others", "can be written by others", false, func(w *world, dir string) string {
			os.Mkdir(dir, 0o777)
			os.Chmod(dir, 0o777)
			return dir
		}},
		{"locks is a symlink", "locks is a symbolic link", false, func(w *world, dir string) string {
			target := filepath.Join(w.home, "elsewhere")
			os.Mkdir(target, 0o755)
			os.Mkdir(dir, 0o700)
			os.Symlink(target, filepath.Join(dir, "locks"))
			return target
		}},
		{"workers is another user's", "workers belongs to uid 65534", true, func(w *world, dir string) string {
			os.Mkdir(dir, 0o700)
			workers := filepath.Join(dir, "workers")
			os.Mkdir(workers, 0o700)
			os.Chown(workers, other, other)
			return workers
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.root {
				testenv.NeedRoot(t)
			}
			w := newWorld(t)
			w.srv.SetPR("feature", fakegithub.PR{Number: 5})
			dir := filepath.Dir(w.statePath())
			os.MkdirAll(filepath.Dir(dir), 0o700)
			kept := c.make(w, dir)
			before := tree(kept)
			r, requests := w.everyCommand(t)
			if after := tree(kept); after != before {
				t.Fatalf("prchip changed %s:\nbefore:\n%s\nafter:\n%s", kept, before, after)
			}
			// Only the state directory stops the state being written; what is
			// wrong below it, status tells.
			if written := strings.Contains(c.name, " is "); !written && (r.code == 0 || !strings.Contains(r.stderr, c.want)) {
				t.Fatalf("refresh did not report the state directory: exit %d: %s", r.code, r.stderr)
			}
			if n := w.prRequests(); n != requests && !strings.Contains(c.name, "workers") {
				t.Fatalf("%d requests to GitHub after refresh's %d: the render started refreshes where it cannot lock or record", n, requests)
			}
			s := w.status(w.repo)
			if !strings.Contains(strings.Join(s.Problems, "\n"), c.want) {
				t.Fatalf("status problems %q, want one saying %q", s.Problems, c.want)
			}
			if s.StateFile != w.statePath() {
				t.Fatalf("state_file %q, want %q", s.StateFile, w.statePath())
			}
		})
	}
}

// holdLock runs flock(1) as uid on path and returns once it holds the
// lock; the holder lives until the test ends.
func holdLock(t *testing.T, path string, uid int) {
	t.Helper()
	c := exec.Command(need(t, "flock"), path, "-c", "echo locked; exec sleep 600")
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	out, _ := c.StdoutPipe()
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		c.Wait()
	})
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "locked\n" {
		t.Fatalf("flock %s as uid %d: %q %s", path, uid, line, stderr.String())
	}
}

// XDG_STATE_HOME at a directory everyone can write (a /tmp): whether
// "prchip" there is missing or another user's (who holds its lock),
// prchip keeps its state in a private fallback, writes nothing in the
// shared directory, waits for no lock there, and `status` shows the state
// file it uses and why.
func TestSharedStateHome(t *testing.T) {
	testenv.NeedRoot(t)
	for _, attacker := range []bool{false, true} {
		t.Run(map[bool]string{false: "prchip missing", true: "another user's prchip"}[attacker], func(t *testing.T) {
			w := newWorld(t)
			w.srv.SetPR("feature", fakegithub.PR{Number: 6})
			// A /tmp: root's, mode 1777, reachable by everyone.
			for d := w.home; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
				os.Chmod(d, 0o755)
			}
			shared := filepath.Join(w.home, "tmp")
			os.Mkdir(shared, 0o777)
			os.Chmod(shared, 0o777|os.ModeSticky)
			w.extra["XDG_STATE_HOME"] = shared
			if attacker {
				theirs := filepath.Join(shared, "prchip")
				os.Mkdir(theirs, 0o777)
				os.Chmod(theirs, 0o777)
				os.Chown(theirs, other, other)
				lock := filepath.Join(theirs, "state.lock")
				os.WriteFile(lock, nil, 0o666)
				os.Chown(lock, other, other)
				holdLock(t, lock, other)
			}
			before := tree(shared)
			if r := w.run(w.repo, "refresh"); r.code != 0 || r.took > 2*time.Second {
				t.Fatalf("refresh: exit %d after %v: %s", r.code, r.took, r.stderr)
			}
			w.everyCommand(t)
			if after := tree(shared); after != before {
				t.Fatalf("prchip wrote in the shared directory:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			fallback := filepath.Join(w.home, ".local", "state", "prchip", "state")
			s := w.status(w.repo)
			if s.StateFile != fallback || s.Chip != "#6" {
				t.Fatalf("state_file %q chip %q, want %q and #6", s.StateFile, s.Chip, fallback)
			}
			if !strings.Contains(strings.Join(s.Problems, "\n"), "XDG_STATE_HOME ("+shared+") can be written by everyone") {
				t.Fatalf("status does not say why the state is elsewhere: %q", s.Problems)
			}
			if st, err := os.Stat(filepath.Dir(fallback)); err != nil || st.Mode().Perm() != 0o700 {
				t.Fatalf("fallback directory: %v %v", st.Mode(), err)
			}
			if r := w.run(w.repo, "prompt", "--shell", "zsh"); r.stdout != "#6" {
				t.Fatalf("prompt %q", r.stdout)
			}
		})
	}
}

// A lock holder that writes nothing (a stopped process, another user's)
// never stalls the hook's invalidate, the prompt or the worker for
// seconds: they give up quickly and say so, and write nothing in the state
// file, keeping what they changed in the spare; once it lets go, writes go
// through again and take the spare in.
func TestHeldStateLockNeverStalls(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 7})
	w.refresh(w.repo, 0)
	n := w.status(w.repo).InvalidationCount
	before, _ := os.ReadFile(w.statePath())
	f, err := os.OpenFile(w.statePath()+".lock", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	inv := w.run(w.repo, "invalidate")
	if inv.code != 0 || inv.took > 2*time.Second || !strings.Contains(inv.stderr, "state lock") {
		t.Fatalf("invalidate under a held lock: exit %d after %v: %q", inv.code, inv.took, inv.stderr)
	}
	w.renderAndWorkerAnswer(t)
	w.settle()
	if b, _ := os.ReadFile(w.statePath()); !bytes.Equal(b, before) {
		t.Fatal("the state file was written under a held lock")
	}
	// The hook's and the worker's invalidations, kept in the spare.
	if got := w.status(w.repo).InvalidationCount; got != n+2 {
		t.Fatalf("invalidation count %d under a held lock, want %d", got, n+2)
	}
	f.Close()
	if r := w.run(w.repo, "invalidate"); r.code != 0 || r.stderr != "" {
		t.Fatalf("invalidate once the lock is free: %d %q", r.code, r.stderr)
	}
	if s := w.status(w.repo); s.InvalidationCount != n+3 || len(s.Problems) != 0 {
		t.Fatalf("invalidation count %d once the lock is free, want %d; problems %q", s.InvalidationCount, n+3, s.Problems)
	}
}
