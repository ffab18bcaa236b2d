package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

func (w *world) statePath() string { return filepath.Join(w.home, "state", "prchip", "state") }
func (w *world) configPath() string {
	return filepath.Join(w.home, "config", "prchip", "config.toml")
}

// Every command copes with a broken state file: quick, no panic, status
// names the problem, the next write repairs it. (The prompt runs with
// --no-refresh: its background refresh would repair the file before status
// could see the problem.)
func TestBadStateFiles(t *testing.T) {
	cases := []struct {
		name, want string
		make       func(p string)
	}{
		{"corrupt", "not a prchip state file", func(p string) { os.WriteFile(p, []byte("\x00\x01garbage\n"), 0o600) }},
		{"truncated", "truncated", func(p string) { os.WriteFile(p, []byte("prchip-state 2\nG\t{\"valid"), 0o600) }},
		{"foreign", "not a prchip state file", func(p string) { os.WriteFile(p, []byte("[section]\nkey=1\n"), 0o600) }},
		{"FIFO", "not a regular file", func(p string) { syscall.Mkfifo(p, 0o600) }},
		{"directory", "directory", func(p string) { os.MkdirAll(filepath.Join(p, "x"), 0o700) }},
		{"bad JSON record", "unreadable", func(p string) {
			os.WriteFile(p, []byte("prchip-state 2\nG\t{not json\n"), 0o600)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.srv.SetPR("feature", fakegithub.PR{Number: 11})
			os.MkdirAll(filepath.Dir(w.statePath()), 0o700)
			c.make(w.statePath())
			for _, args := range [][]string{{"prompt", "--shell", "zsh", "--no-refresh"}, {"status"}, {"status", "--json"}, {"invalidate"}, {"reset"}} {
				r := w.run(w.repo, args...)
				if r.took > 3*time.Second || strings.Contains(r.stderr, "panic") || r.code != 0 {
					t.Fatalf("%v: exit %d in %v: %s", args, r.code, r.took, r.stderr)
				}
				if args[0] == "prompt" && (r.stdout != "" || r.stderr != "") {
					t.Fatalf("prompt printed %q %q", r.stdout, r.stderr)
				}
				// invalidate and reset write, which repairs: break it again.
				if args[0] == "invalidate" || args[0] == "reset" {
					os.RemoveAll(w.statePath())
					c.make(w.statePath())
				}
			}
			s := w.status(w.repo)
			found := false
			for _, p := range s.Problems {
				found = found || strings.Contains(p, c.want)
			}
			if !found {
				t.Fatalf("status problems %v do not mention %q", s.Problems, c.want)
			}
			w.refresh(w.repo, 0)
			s = w.status(w.repo)
			if len(s.Problems) != 0 || s.Chip != "#11" {
				t.Fatalf("not repaired: problems %v chip %q", s.Problems, s.Chip)
			}
		})
	}
}

func TestBadConfig(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"invalid TOML", "mode = \"auto\"\ntimeout = = 1\n", "config.toml:2"},
		{"unknown key", "mode = \"auto\"\n\nshow_title = true\n", `config.toml:3: key "show_title": unknown key`},
		{"bad value", "timeout = \"soon\"\n", `config.toml:1: key "timeout"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.srv.SetPR("feature", fakegithub.PR{Number: 12})
			os.MkdirAll(filepath.Dir(w.configPath()), 0o700)
			os.WriteFile(w.configPath(), []byte(c.body), 0o600)
			r := w.refresh(w.repo, 0)
			if !strings.Contains(r.stderr, c.want) {
				t.Errorf("refresh stderr %q lacks %q", r.stderr, c.want)
			}
			p := w.run(w.repo, "prompt", "--no-refresh")
			if p.stdout != "#12" || p.stderr != "" {
				t.Errorf("prompt %q %q", p.stdout, p.stderr)
			}
			s := w.status(w.repo)
			if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], c.want) {
				t.Fatalf("problems %v", s.Problems)
			}
			h := w.run(w.repo, "status")
			if !strings.Contains(h.stdout, c.want) {
				t.Errorf("human status lacks the problem:\n%s", h.stdout)
			}
		})
	}
	t.Run("unreadable", func(t *testing.T) {
		w := newWorld(t)
		os.MkdirAll(w.configPath(), 0o700) // a directory where the file should be
		s := w.status(w.repo)
		if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "config.toml") {
			t.Fatalf("problems %v", s.Problems)
		}
		if r := w.run(w.repo, "prompt"); r.code != 0 || r.stderr != "" {
			t.Fatalf("prompt %d %q", r.code, r.stderr)
		}
	})
}

// TestConfigMistakeKeepsTheRest: a line that is not TOML (an unquoted
// string) costs only its own key: the prompt, rendered by the real gh's
// answer, uses the rest of the file, and status explains the line.
func TestConfigMistakeKeepsTheRest(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 12})
	os.MkdirAll(filepath.Dir(w.configPath()), 0o700)
	os.WriteFile(w.configPath(), []byte("preset = nerd\nformat = \"PR #{number}\"\n"), 0o600)
	want := `config.toml:1: key "preset": strings need quotes: write preset = "nerd"`
	if r := w.refresh(w.repo, 0); !strings.Contains(r.stderr, want) {
		t.Errorf("refresh stderr %q lacks %q", r.stderr, want)
	}
	if p := w.run(w.repo, "prompt", "--no-refresh"); p.stdout != "PR #12" || p.stderr != "" {
		t.Errorf("prompt %q %q, want the file's format", p.stdout, p.stderr)
	}
	if s := w.status(w.repo); len(s.Problems) != 1 || !strings.Contains(s.Problems[0], want) {
		t.Errorf("problems %v", s.Problems)
	}
}

func TestUsageErrors(t *testing.T) {
	w := newWorld(t)
	for _, args := range [][]string{{"refresh", "--bogus"}, {"status", "extra"}, {"init"}, {"init", "tcsh"}, {"nosuchcommand"}, {"reset", "--all", "x"}} {
		r := w.run(w.repo, args...)
		if r.code != 2 || r.stderr == "" {
			t.Errorf("%v: exit %d stderr %q", args, r.code, r.stderr)
		}
	}
	// The prompt never complains, whatever it is given.
	for _, args := range [][]string{{"prompt", "--bogus"}, {"prompt", "--shell", "tcsh"}, {"prompt", "--shell"}} {
		r := w.run(w.repo, args...)
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%v: exit %d stderr %q", args, r.code, r.stderr)
		}
	}
	if r := w.run(w.repo, "version"); r.code != 0 || !strings.HasPrefix(r.stdout, "prchip ") {
		t.Errorf("version: %d %q", r.code, r.stdout)
	}
}

// The render path survives a hostile or broken environment: exit 0,
// quickly, printing the chip or nothing, never an error.
func TestRenderBadEnvironments(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 3})
	w.refresh(w.repo, 0)
	check := func(t *testing.T, r result, allowed ...string) {
		t.Helper()
		if r.code != 0 || r.stderr != "" || r.took > 3*time.Second {
			t.Fatalf("exit %d after %v, stderr %q", r.code, r.took, r.stderr)
		}
		for _, a := range allowed {
			if r.stdout == a {
				return
			}
		}
		t.Fatalf("printed %q, want one of %q", r.stdout, allowed)
	}
	t.Run("deleted working directory", func(t *testing.T) {
		gone := filepath.Join(w.repo, "gone")
		os.Mkdir(gone, 0o755)
		c := exec.Command("/bin/sh", "-c", `cd "$1" && "$3" "$1" && exec "$2" prompt --shell zsh`, "sh", gone, prchipBin, need(t, "rmdir"))
		c.Env = w.env()
		var o, e strings.Builder
		c.Stdout, c.Stderr = &o, &e
		start := time.Now()
		err := c.Run()
		check(t, result{stdout: o.String(), stderr: e.String(), code: exitCode(err), took: time.Since(start)}, "", "#3")
	})
	t.Run("HEAD is a FIFO", func(t *testing.T) {
		r := w.newRepo("fifo", "main", "https://"+fakegithub.Host+"/o/r.git")
		os.Remove(filepath.Join(r, ".git", "HEAD"))
		syscall.Mkfifo(filepath.Join(r, ".git", "HEAD"), 0o644)
		check(t, w.run(r, "prompt", "--shell", "bash"), "")
	})
	t.Run(".git file pointing nowhere", func(t *testing.T) {
		r := filepath.Join(w.home, "dangling")
		os.MkdirAll(r, 0o755)
		os.WriteFile(filepath.Join(r, ".git"), []byte("gitdir: /nonexistent/x\n"), 0o644)
		check(t, w.run(r, "prompt"), "")
	})
	t.Run("unreadable .git", func(t *testing.T) {
		if os.Geteuid() == 0 {
			// root reads anything: make HEAD a directory instead.
			r := w.newRepo("unreadable", "main", "")
			os.Remove(filepath.Join(r, ".git", "HEAD"))
			os.Mkdir(filepath.Join(r, ".git", "HEAD"), 0o000)
			check(t, w.run(r, "prompt"), "")
			return
		}
		r := w.newRepo("unreadable", "main", "")
		os.Chmod(filepath.Join(r, ".git"), 0o000)
		defer os.Chmod(filepath.Join(r, ".git"), 0o755)
		check(t, w.run(r, "prompt"), "")
	})
	t.Run("300-byte branch name", func(t *testing.T) {
		long := "feature/" + strings.Repeat("x", 200) + "/" + strings.Repeat("é", 46)
		if len(long) < 300 {
			t.Fatalf("branch is only %d bytes", len(long))
		}
		r := w.newRepo("long", long, "https://"+fakegithub.Host+"/o/r.git")
		w.srv.SetPR(long, fakegithub.PR{Number: 30})
		w.refresh(r, 0)
		check(t, w.run(r, "prompt", "--shell", "zsh"), "#30")
		if s := w.status(r); s.Repo == nil || s.Repo.Branch != long {
			t.Fatalf("branch %v", s.Repo)
		}
	})
	t.Run("HOME unset", func(t *testing.T) {
		w.extra["HOME"] = "\x00"
		defer delete(w.extra, "HOME")
		check(t, w.run(w.repo, "prompt", "--shell", "fish"), "#3")
	})
	t.Run("HOME and XDG unset", func(t *testing.T) {
		for _, k := range []string{"HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"} {
			w.extra[k] = "\x00"
			defer delete(w.extra, k)
		}
		check(t, w.run(w.repo, "prompt", "--no-refresh"), "")
	})
	t.Run("state home not writable", func(t *testing.T) {
		// Under /proc nothing can be created, even by root.
		w.extra["XDG_STATE_HOME"] = "/proc/prchip-cannot-exist"
		defer delete(w.extra, "XDG_STATE_HOME")
		check(t, w.run(w.repo, "prompt", "--shell", "zsh"), "")
		r := w.run(w.repo, "refresh")
		if r.code == 0 || !strings.Contains(r.stderr, "state") {
			t.Fatalf("refresh hid the write failure: %d %q %q", r.code, r.stdout, r.stderr)
		}
	})
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// A warm render writes nothing: the state file and the lock directory are
// untouched.
func TestWarmRenderWritesNothing(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 8})
	w.refresh(w.repo, 0)
	snapshot := func() string {
		var b strings.Builder
		filepath.Walk(filepath.Dir(w.statePath()), func(p string, info os.FileInfo, err error) error {
			if err == nil {
				fmt.Fprintf(&b, "%s %d %d\n", p, info.Size(), info.ModTime().UnixNano())
			}
			return nil
		})
		return b.String()
	}
	before := snapshot()
	time.Sleep(20 * time.Millisecond)
	for range 5 {
		if r := w.run(w.repo, "prompt", "--shell", "zsh"); r.stdout != "#8" {
			t.Fatalf("chip %q", r.stdout)
		}
	}
	if after := snapshot(); after != before {
		t.Fatalf("a warm render changed the state directory:\n%s\n%s", before, after)
	}
}

// The full-disk sequence: while the state file cannot be written (here a
// file-size limit fails every write of it with EFBIG, as a full disk fails
// it with ENOSPC, and root alike) and GitHub fails, refreshes still back
// off: the store keeps what it changed in a spare in the runtime
// directory, which is smaller than the state file, so a burst of prompts
// (separate processes, as one-shot renders are) starts one gh run, not
// one each, and status says when the next one comes. Once the disk is
// fixed a successful `prchip refresh` takes the spare in, and nothing of
// the backoff outlives it: a change of .git/config refreshes at the next
// prompt.
func TestUnwritableStateStillBacksOff(t *testing.T) {
	prlimit := need(t, "prlimit")
	// planted: the first runtime directories exist already, made by
	// another user (as root the test can make them so): the next is used.
	for _, planted := range []bool{false, true} {
		t.Run(fmt.Sprintf("planted=%v", planted), func(t *testing.T) {
			if planted && os.Geteuid() != 0 {
				t.Skip("needs root to make another user's directories")
			}
			w := newWorld(t)
			w.srv.SetPR("feature", fakegithub.PR{Number: 31})
			w.srv.SetMode(fakegithub.BadGateway)
			run, tmp := filepath.Join(w.home, "run"), filepath.Join(w.home, "tmp")
			os.Mkdir(run, 0o700)
			os.Mkdir(tmp, 0o777)
			w.extra["XDG_RUNTIME_DIR"], w.extra["TMPDIR"] = run, tmp
			used := filepath.Join(run, "prchip")
			if planted {
				for _, d := range []string{used, filepath.Join(tmp, fmt.Sprintf("prchip-%d", os.Geteuid()))} {
					os.Mkdir(d, 0o777)
					os.Chmod(d, 0o777)
					os.Chown(d, 65534, 65534)
				}
				used = filepath.Join(w.home, "cache", "prchip")
			}
			// Other repositories' records make the state file larger
			// than the limit, which the spare (this one's) stays below.
			var others bytes.Buffer
			others.WriteString("prchip-state 2\n")
			for i := range 40 {
				fmt.Fprintf(&others, "R\t%032x\t1800000000\t{\"root\":\"/src/other-%d%s\"}\n", i, i, strings.Repeat("x", 150))
			}
			os.MkdirAll(filepath.Dir(w.statePath()), 0o700)
			if err := os.WriteFile(w.statePath(), others.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			const limit = 4096
			for range 10 {
				c := exec.Command(prlimit, fmt.Sprintf("--fsize=%d", limit), "--", prchipBin, "prompt")
				c.Dir, c.Env = w.repo, w.env()
				if out, err := c.CombinedOutput(); err != nil || len(out) > 0 {
					t.Fatalf("prompt: %v %q", err, out)
				}
				w.settle()
			}
			// Every request counts: the one made is the lookup's first
			// question (whether the repository is a fork), refused.
			if n := w.srv.Requests(); n != 1 {
				t.Errorf("%d gh runs for 10 prompts while the state cannot be written, want 1", n)
			}
			if b, _ := os.ReadFile(w.statePath()); !bytes.Equal(b, others.Bytes()) {
				t.Fatal("the state file was written after all: the test proves nothing")
			}
			// The spare is the user's alone, in a private directory.
			spares, _ := filepath.Glob(filepath.Join(used, "state-????????????????"))
			sparePath := filepath.Join(used, "state-")
			if len(spares) == 1 {
				sparePath = spares[0]
			}
			spare, err := os.ReadFile(sparePath)
			if st, serr := os.Stat(used); err != nil || serr != nil || st.Mode().Perm() != 0o700 || len(spare) >= limit {
				t.Errorf("spare in %s: %d bytes, %v %v %v", used, len(spare), st, err, serr)
			}
			// status says when the next refresh comes, and where the
			// state is kept meanwhile.
			s := w.status(w.repo)
			if s.NextAttemptAt == nil || !s.NextAttemptAt.After(time.Now()) || s.category() != "github_unavailable" {
				t.Errorf("status: next attempt %v, category %s", s.NextAttemptAt, s.category())
			}
			if human := w.run(w.repo, "status").stdout; !regexp.MustCompile(`next refresh: +at the first prompt after`).MatchString(human) ||
				!strings.Contains(human, sparePath) {
				t.Errorf("status does not say when or where:\n%s", human)
			}
			// The disk is fixed, GitHub answers, and a refresh succeeds.
			w.srv.SetMode(fakegithub.OK)
			if r := w.refresh(w.repo, 0); !strings.Contains(r.stdout, "#31") {
				t.Fatalf("refresh: %s", r.stdout)
			}
			if _, err := os.Stat(sparePath); err == nil {
				t.Error("the spare outlived a successful refresh")
			}
			// What decides the PR changes: the next prompt asks GitHub.
			w.git(w.repo, "config", "remote.origin.gh-resolved", "base")
			before := w.srv.Requests()
			if r := w.run(w.repo, "prompt"); r.stdout != "#31" {
				t.Errorf("prompt: %q", r.stdout)
			}
			w.settle()
			if n := w.srv.Requests(); n == before {
				t.Fatal("a change of .git/config after a successful refresh started no refresh: backoff outlived it")
			}
		})
	}
}
