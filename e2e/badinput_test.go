package e2e

import (
	"os"
	"path/filepath"
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
// names the problem, the next write repairs it.
func TestBadStateFiles(t *testing.T) {
	cases := []struct {
		name, want string
		make       func(p string)
	}{
		{"corrupt", "not a prchip state file", func(p string) { os.WriteFile(p, []byte("\x00\x01garbage\n"), 0o600) }},
		{"truncated", "truncated", func(p string) { os.WriteFile(p, []byte("prchip-state 1\nG\t{\"valid"), 0o600) }},
		{"foreign", "not a prchip state file", func(p string) { os.WriteFile(p, []byte("[section]\nkey=1\n"), 0o600) }},
		{"FIFO", "not a regular file", func(p string) { syscall.Mkfifo(p, 0o600) }},
		{"directory", "directory", func(p string) { os.MkdirAll(filepath.Join(p, "x"), 0o700) }},
		{"bad JSON record", "unreadable", func(p string) {
			os.WriteFile(p, []byte("prchip-state 1\nG\t{not json\n"), 0o600)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.srv.SetPR("feature", fakegithub.PR{Number: 11})
			os.MkdirAll(filepath.Dir(w.statePath()), 0o700)
			c.make(w.statePath())
			for _, args := range [][]string{{"prompt", "--shell", "zsh"}, {"status"}, {"status", "--json"}, {"invalidate"}, {"reset"}} {
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
