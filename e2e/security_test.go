package e2e

import (
	"bytes"
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

// Tokens planted in gh's stderr, in a remote URL, in a PR title and in
// GH_TOKEN never reach prchip's output or files.
func TestTokensNeverLeak(t *testing.T) {
	const (
		envToken    = "ghp_ENVTOKEN0123456789abcdefghijklmnopqr"
		remoteToken = "ghp_REMOTETOKEN0123456789abcdefghijklmn"
		titleToken  = "github_pat_TITLETOKEN0123456789_abcdefghijklmnop"
		stderrToken = "gho_STDERRTOKEN0123456789abcdefghijklmn"
		chipToken   = "ghs_CHIPTOKEN0123456789abcdefghijklmnop"
	)
	secrets := []string{envToken, remoteToken, titleToken, stderrToken, chipToken, "s3cr3t-password-value"}
	w := shellWorld(t, "zsh", "bash", "fish")
	w.extra["GH_TOKEN"] = envToken
	repo := w.newRepo("leaky", "feature", "https://x-access-token:"+remoteToken+"@"+fakegithub.Host+"/octo/demo.git")
	userRepo := w.newRepo("leaky2", "feature", "https://me:s3cr3t-password-value@"+fakegithub.Host+"/octo/demo.git")
	w.srv.SetPR("feature", fakegithub.PR{Number: 13, Title: "leak " + titleToken + " here"})
	os.MkdirAll(filepath.Dir(w.configPath()), 0o700)
	os.WriteFile(w.configPath(), []byte("[chips.secret]\ncommand = \"echo token="+chipToken+"\"\n"), 0o600)

	var out bytes.Buffer
	record := func(r result) { out.WriteString(r.stdout + r.stderr) }
	for _, dir := range []string{repo, userRepo} {
		record(w.refresh(dir, 0))
		for _, args := range [][]string{
			{"prompt"}, {"prompt", "--shell", "zsh"}, {"prompt", "--shell", "bash"}, {"prompt", "--shell", "fish"},
			{"status"}, {"status", "--json"}, {"refresh", "--force"}, {"invalidate"}, {"init", "zsh"},
			{"init", "bash"}, {"init", "fish"}, {"init", "starship"}, {"version"}, {"completion", "zsh"},
		} {
			record(w.run(dir, args...))
		}
	}
	// gh itself printing a token on stderr (a fake gh: the real one does not).
	fake := filepath.Join(w.home, "fakebin")
	os.MkdirAll(fake, 0o755)
	os.WriteFile(filepath.Join(fake, "gh"), []byte("#!/bin/sh\necho 'HTTP 502: bad gateway, Authorization: token "+stderrToken+"' >&2\nexit 1\n"), 0o755)
	os.Symlink(filepath.Join(w.bin, "git"), filepath.Join(fake, "git"))
	w.extra["PATH"] = fake + ":" + w.bin
	record(w.refresh(repo, 1))
	record(w.run(repo, "status", "--json"))
	record(w.run(repo, "status"))
	delete(w.extra, "PATH")
	w.settle()

	if !strings.Contains(out.String(), "#13") || !strings.Contains(out.String(), "[REDACTED]") {
		t.Fatalf("the commands did not run as expected:\n%s", out.String())
	}
	for _, s := range secrets {
		if strings.Contains(out.String(), s) {
			t.Errorf("output contains %s", s)
		}
	}
	for _, dir := range []string{filepath.Join(w.home, "state")} {
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err != nil || !info.Mode().IsRegular() {
				return nil
			}
			b, _ := os.ReadFile(p)
			for _, s := range secrets {
				if bytes.Contains(b, []byte(s)) {
					t.Errorf("%s contains %s", p, s)
				}
			}
			return nil
		})
	}
}

// kill -9 at random moments while writing: the state file always parses
// (or reads as empty) and temporary files do not pile up.
func TestKillWritersAtRandom(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 2})
	w.refresh(w.repo, 0)
	// Many repositories make each write take a while.
	for i := range 40 {
		r := w.newRepo(fmt.Sprintf("r%02d", i), "main", "")
		w.run(r, "invalidate")
	}
	dir := filepath.Dir(w.statePath())
	midWrite := 0
	for i := range 300 {
		c := exec.Command(prchipBin, "invalidate")
		c.Dir = w.repo
		c.Env = w.env()
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill from before the process starts to after it has written.
		time.Sleep(time.Duration(i%60) * 200 * time.Microsecond)
		c.Process.Signal(syscall.SIGKILL)
		c.Wait()
		if ents, _ := os.ReadDir(dir); len(ents) > 0 {
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), ".prchip-state-") {
					midWrite++
					break
				}
			}
		}
		s := w.status(w.repo)
		for _, p := range s.Problems {
			t.Fatalf("after kill %d the state file is broken: %s", i, p)
		}
	}
	t.Logf("%d of 300 kills left a temporary file (killed mid-write)", midWrite)
	// A live writer removes what killed writers left behind.
	w.run(w.repo, "invalidate")
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".prchip-state-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	if s := w.status(w.repo); s.InvalidationCount < 1 || s.Repo == nil {
		t.Fatalf("state lost: %+v", s)
	}
}

// 8 processes × 50 invalidations in one repository: exactly 400.
func TestConcurrentInvalidations(t *testing.T) {
	w := newWorld(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if r := w.run(w.repo, "invalidate"); r.code != 0 || r.stderr != "" {
					t.Errorf("invalidate: %d %q", r.code, r.stderr)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := w.status(w.repo).InvalidationCount; n != 400 {
		t.Fatalf("invalidation count %d, want 400", n)
	}
}

// Odd things at the state path: never a hang, the render stays silent,
// status says what is wrong, the next write repairs.
func TestStatePathOddities(t *testing.T) {
	cases := []struct {
		name, want string
		make       func(w *world, p string)
	}{
		{"symlink elsewhere", "symbolic link", func(w *world, p string) {
			target := filepath.Join(w.home, "elsewhere")
			os.WriteFile(target, []byte("prchip-state 2\n"), 0o600)
			os.Symlink(target, p)
		}},
		{"100 MB file", "more than", func(w *world, p string) {
			f, _ := os.Create(p)
			f.Truncate(100 << 20)
			f.Close()
			os.Chmod(p, 0o600)
		}},
		{"mode 0666", "lets others write", func(w *world, p string) {
			os.WriteFile(p, []byte("prchip-state 2\n"), 0o600)
			os.Chmod(p, 0o666)
		}},
		{"newer version", "version 7", func(w *world, p string) {
			os.WriteFile(p, []byte("prchip-state 7\nwhatever the future holds\n"), 0o600)
		}},
		{"FIFO", "not a regular file", func(w *world, p string) { syscall.Mkfifo(p, 0o600) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.srv.SetPR("feature", fakegithub.PR{Number: 4})
			os.MkdirAll(filepath.Dir(w.statePath()), 0o700)
			c.make(w, w.statePath())
			if r := w.run(w.repo, "prompt", "--shell", "zsh", "--no-refresh"); r.code != 0 || r.stdout != "" || r.stderr != "" || r.took > 2*time.Second {
				t.Fatalf("prompt: %d %q %q %v", r.code, r.stdout, r.stderr, r.took)
			}
			s := w.status(w.repo)
			if len(s.Problems) == 0 || !strings.Contains(strings.Join(s.Problems, "\n"), c.want) {
				t.Fatalf("problems %v, want %q", s.Problems, c.want)
			}
			w.refresh(w.repo, 0)
			if s := w.status(w.repo); len(s.Problems) != 0 || s.Chip != "#4" {
				t.Fatalf("not repaired: %v %q", s.Problems, s.Chip)
			}
			if st, err := os.Lstat(w.statePath()); err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o600 {
				t.Fatalf("state file after repair: %v %v", st.Mode(), err)
			}
		})
	}
}

// mountOrSkip runs mount; outside CI a missing privilege skips the test.
func mountOrSkip(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("mount %v: %v %s", args, err, out)
		}
		t.Skipf("cannot mount (%v): %s", err, out)
	}
}

func umount(dir string) { exec.Command("umount", "-l", dir).Run() }

// A full disk and a read-only state directory: refresh reports the
// problem, the old state stays intact, and the render prints the chip the
// refresh found, which the store kept in the spare (on another file
// system); under a file-size limit, which no file escapes, the old chip.
func TestUnwritableState(t *testing.T) {
	need(t, "mount")
	for _, mode := range []string{"full disk", "read-only", "file-size limit", "small file-size limit"} {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t)
			w.srv.SetPR("feature", fakegithub.PR{Number: 21})
			dir := filepath.Dir(w.statePath())
			os.MkdirAll(dir, 0o700)
			switch mode {
			case "full disk":
				mountOrSkip(t, "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", dir)
				t.Cleanup(func() { umount(dir) })
			case "read-only":
				mountOrSkip(t, "--bind", dir, dir)
				t.Cleanup(func() { umount(dir) })
			}
			w.refresh(w.repo, 0)
			before, _ := os.ReadFile(w.statePath())
			w.srv.SetPR("feature", fakegithub.PR{Number: 22})
			var r result
			switch mode {
			case "full disk":
				f, _ := os.Create(filepath.Join(dir, "filler"))
				f.Write(make([]byte, 128<<10)) // fills the 64k tmpfs
				f.Close()
				r = w.run(w.repo, "refresh")
			case "read-only":
				mountOrSkip(t, "-o", "remount,bind,ro", dir)
				r = w.run(w.repo, "refresh")
			case "file-size limit", "small file-size limit":
				// 0, or one 512-byte block: less than the state file, so a
				// write would be cut short and then killed by SIGXFSZ.
				limit := map[string]string{"file-size limit": "0", "small file-size limit": "1"}[mode]
				c := exec.Command("/bin/sh", "-c", `ulimit -f `+limit+`; exec "$0" refresh`, prchipBin)
				c.Dir, c.Env = w.repo, w.env()
				var o, e strings.Builder
				c.Stdout, c.Stderr = &o, &e
				err := c.Run()
				r = result{stdout: o.String(), stderr: e.String(), code: exitCode(err)}
			}
			if r.code == 0 || !strings.Contains(r.stderr, "state") {
				t.Fatalf("refresh did not report the failed write: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
			}
			if strings.Contains(mode, "file-size") && !strings.Contains(r.stderr, "file-size limit") {
				t.Fatalf("the error does not name the limit: %q", r.stderr)
			}
			after, _ := os.ReadFile(w.statePath())
			if !bytes.Equal(before, after) {
				t.Fatal("the old state changed")
			}
			want := "#22"
			if strings.Contains(mode, "file-size") {
				want = "#21"
			}
			p := w.run(w.repo, "prompt", "--shell", "zsh")
			if p.code != 0 || p.stdout != want || p.stderr != "" {
				t.Fatalf("render: %d %q %q, want %q", p.code, p.stdout, p.stderr, want)
			}
			if s := w.status(w.repo); s.Chip != want {
				t.Fatalf("status chip %q, want %q", s.Chip, want)
			}
		})
	}
}

// A legacy 40-hex token has no prefix to recognise: its exact value is
// redacted from everything shown or stored, and so is one split by a
// control character.
func TestExactTokenValuesNeverLeak(t *testing.T) {
	w := newWorld(t)
	legacy := "0123456789abcdef0123456789abcdef01234567"
	w.extra["GH_TOKEN"] = legacy
	split := "ghp_" + strings.Repeat("Z9", 10) + "\x01" + strings.Repeat("Y8", 8)
	w.config("[chips.leak]\ncommand = 'printf \"%s and %s\\\\n\" \"$GH_TOKEN\" \"$SPLIT\"'\n")
	w.extra["SPLIT"] = split
	w.srv.SetPR("feature", fakegithub.PR{Number: 1})
	var all strings.Builder
	for _, args := range [][]string{{"refresh"}, {"prompt", "--no-refresh"}, {"status"}, {"status", "--json"}} {
		r := w.run(w.repo, args...)
		all.WriteString(r.stdout + r.stderr)
	}
	filepath.Walk(filepath.Join(w.home, "state"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, _ := os.ReadFile(p)
			all.Write(b)
		}
		return nil
	})
	out := all.String()
	if !strings.Contains(out, "[REDACTED] and [REDACTED]") {
		t.Fatalf("the shell chip's value was not shown redacted:\n%s", out)
	}
	for _, secret := range []string{legacy, strings.Repeat("Z9", 10), strings.Repeat("Z9", 10) + strings.Repeat("Y8", 8)} {
		if strings.Contains(out, secret) {
			t.Fatalf("%q leaked:\n%s", secret, out)
		}
	}
}

// The tokens in gh's hosts.yml are exact values to redact, like the token
// variables': a legacy 40-hex token (no prefix to know it by) and a
// per-account one for another host, quoted by gh's error output (a fake
// gh: the real one does not), reach none of refresh's output, status,
// status --json or the state file.
func TestHostsTokensNeverLeak(t *testing.T) {
	w := newWorld(t)
	legacy := "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"
	other := "abcdefABCDEF0123456789"
	hosts := "github.localhost:\n    oauth_token: " + legacy + "\n    user: octo\n    git_protocol: https\n" +
		"ghe.example.com:\n    users:\n        octo:\n            oauth_token: \"" + other + "\"\n    user: octo\n"
	if err := os.WriteFile(filepath.Join(w.home, "ghconfig", "hosts.yml"), []byte(hosts), 0o600); err != nil {
		t.Fatal(err)
	}
	w.extra["GH_TOKEN"] = "\x00" // gh would take the token from hosts.yml
	fake := filepath.Join(w.home, "fakebin")
	os.MkdirAll(fake, 0o755)
	os.WriteFile(filepath.Join(fake, "gh"), []byte("#!/bin/sh\necho 'HTTP 502: upstream rejected "+legacy+" and "+other+"' >&2\nexit 1\n"), 0o755)
	os.Symlink(filepath.Join(w.bin, "git"), filepath.Join(fake, "git"))
	w.extra["PATH"] = fake + ":" + w.bin
	var all strings.Builder
	all.WriteString(w.refresh(w.repo, 1).stdout)
	for _, args := range [][]string{{"refresh"}, {"status"}, {"status", "--json"}, {"prompt", "--no-refresh"}} {
		r := w.run(w.repo, args...)
		all.WriteString(r.stdout + r.stderr)
	}
	filepath.Walk(filepath.Join(w.home, "state"), func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			all.Write(b)
		}
		return nil
	})
	out := all.String()
	if !strings.Contains(out, "upstream rejected [REDACTED] and [REDACTED]") {
		t.Fatalf("gh's error was not shown redacted:\n%s", out)
	}
	for _, secret := range []string{legacy, other} {
		if strings.Contains(out, secret) {
			t.Errorf("%s leaked:\n%s", secret, out)
		}
	}
}
