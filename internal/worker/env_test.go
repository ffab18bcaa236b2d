package worker

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/sanitize"
	"github.com/prchip/prchip/shellhooks"
)

// The worker answers each request in that request's environment and never
// in its own, which no request changes: three answers in a row, in three
// repositories, with GH_TOKEN "tok-a", "tok-b" and unset in the request
// (the worker's own being another), each start the background refresh
// (this test binary, as `prchip __refresh`, TestMain: render.Refresh), whose gh sees the
// token of the request that started it and not the descriptor variable
// the refresh was handed its lock by; the state goes where the request's
// XDG_STATE_HOME says. A gh script on PATH records what gh was given.
func TestWorkerAnswersInTheRequestsEnvironment(t *testing.T) {
	base := t.TempDir()
	bin := filepath.Join(base, "bin")
	os.MkdirAll(bin, 0o755)
	log := filepath.Join(base, "gh.log")
	script := "#!/bin/sh\nprintf '%s|%s\\n' \"${GH_TOKEN-unset}\" \"${PRCHIP_LOCK_FD-}\" >> " + log + "\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	const own = "worker-own-token-0123"
	t.Setenv("GH_TOKEN", own)
	processPath, processState := os.Getenv("PATH"), os.Getenv("XDG_STATE_HOME")

	var out bytes.Buffer
	w := &Worker{opts: Options{Shell: sanitize.Zsh, ShellPID: os.Getpid(), Env: env.Process(), Request: testRequest}, escape: sanitize.Zsh,
		out: &out, done: make(chan struct{}, 1), idle: time.Hour}
	cases := []struct {
		name, token string // token "": GH_TOKEN not in the request
		want        string // what gh saw
	}{
		{"a", "tok-a-0123456789", "tok-a-0123456789|"},
		{"b", "tok-b-0123456789", "tok-b-0123456789|"},
		{"unset", "", "unset|"},
	}
	var want []string
	for i, c := range cases {
		repoDir := filepath.Join(base, "repo-"+c.name)
		os.MkdirAll(filepath.Join(repoDir, ".git"), 0o755)
		os.WriteFile(filepath.Join(repoDir, ".git", "HEAD"), []byte("ref: refs/heads/feature\n"), 0o644)
		os.WriteFile(filepath.Join(repoDir, ".git", "config"), []byte("[remote \"origin\"]\n\turl = https://github.com/o/"+c.name+".git\n"+
			"[branch \"feature\"]\n\tremote = origin\n\tmerge = refs/heads/feature\n"), 0o644)
		home := filepath.Join(base, "home-"+c.name)
		vars := map[string]string{
			"PATH": bin + ":/usr/bin:/bin", "HOME": home,
			"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "XDG_STATE_HOME": filepath.Join(home, "state"),
			"GH_CONFIG_DIR": filepath.Join(home, "gh"),
		}
		if c.token != "" {
			vars["GH_TOKEN"] = c.token
		}
		r := shellhooks.Request{ID: string(rune('1' + i)), Dir: repoDir, Env: vars}
		if !w.answer(r) {
			t.Fatalf("%s: the answer was not written", c.name)
		}
		if !strings.HasPrefix(out.String(), r.ID+" ") {
			t.Fatalf("%s: answer %q", c.name, out.String())
		}
		out.Reset()
		select {
		case <-w.done: // the refresh this answer started ended (follow)
		case <-time.After(2 * time.Minute):
			t.Fatalf("%s: no refresh ended", c.name)
		}
		if got := os.Getenv("GH_TOKEN"); got != own || os.Getenv("PATH") != processPath || os.Getenv("XDG_STATE_HOME") != processState {
			t.Fatalf("%s: the worker's own environment changed: GH_TOKEN %q", c.name, got)
		}
		if _, err := os.Stat(filepath.Join(home, "state", "prchip")); err != nil {
			t.Errorf("%s: no state under the request's XDG_STATE_HOME: %v", c.name, err)
		}
		want = append(want, c.want)
		b, _ := os.ReadFile(log)
		if got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("%s: gh was given (GH_TOKEN|PRCHIP_LOCK_FD) %q, want %q", c.name, got, want)
		}
	}
}
