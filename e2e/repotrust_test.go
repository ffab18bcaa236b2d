package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/fakegithub"
)

// recordGh puts a gh on the world's PATH that logs each run (its working
// directory and arguments) to the returned file, then execs the real gh.
func (w *world) recordGh() string {
	w.t.Helper()
	log := filepath.Join(w.home, "gh-runs.log")
	gh := filepath.Join(w.bin, "gh")
	os.Remove(gh)
	script := fmt.Sprintf("#!/bin/sh\necho \"$PWD $*\" >> %s\nexec %s \"$@\"\n", log, w.ghPath)
	if err := os.WriteFile(gh, []byte(script), 0o755); err != nil {
		w.t.Fatal(err)
	}
	return log
}

func ghRuns(log string) string {
	b, _ := os.ReadFile(log)
	return string(b)
}

// A repository that belongs to another user is one git refuses (dubious
// ownership, its safe.directory rule), so gh fails there: prchip runs no
// gh, the outcome is not applicable (validation unchanged), and status
// names the command that allows it, the one git itself advises. Running
// that command brings the chip back.
func TestDubiousOwnershipRunsNoGh(t *testing.T) {
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI runs as root: this test chowns to another user")
		}
		t.Skip("needs root to chown a repository to another user")
	}
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 42})
	log := w.recordGh()
	// A shell chip, which would run in the repository too.
	mark := filepath.Join(w.home, "shell-chip-ran")
	w.config("[chips.mark]\ncommand = \": > " + mark + "\"\n")
	if out, err := exec.Command("chown", "-R", "65534", w.repo).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v %s", err, out)
	}
	// The oracle: git refuses it, and says how to allow it.
	c := exec.Command("git", "rev-parse", "--git-dir")
	c.Dir, c.Env = w.repo, w.env()
	out, err := c.CombinedOutput()
	_, advice, _ := strings.Cut(string(out), "\tgit config")
	if err == nil || !strings.Contains(string(out), "dubious ownership") || advice == "" {
		t.Fatalf("git does not refuse the repository: %v\n%s", err, out)
	}
	command := "git config " + strings.TrimSpace(advice)

	r := w.refresh(w.repo, 0)
	if !strings.Contains(r.stdout, "unsafe_repository") {
		t.Errorf("refresh said %q", r.stdout)
	}
	if got := w.run(w.repo, "prompt").stdout; got != "" {
		t.Errorf("prompt printed %q", got)
	}
	w.settle()
	s := w.status(w.repo)
	if s.class() != "not_applicable" || s.category() != "unsafe_repository" || s.Validation != "unvalidated" {
		t.Fatalf("status: %s/%s, validation %s", s.class(), s.category(), s.Validation)
	}
	if len(s.RecoveryActions) == 0 || s.RecoveryActions[0] != command {
		t.Errorf("recovery actions %q, git advises %q", s.RecoveryActions, command)
	}
	human := w.run(w.repo, "status").stdout
	if !strings.Contains(human, "unsafe_repository") || !strings.Contains(human, command) || !strings.Contains(human, "dubious ownership") {
		t.Errorf("human status does not say why and how:\n%s", human)
	}
	if runs := ghRuns(log); runs != "" || w.srv.Requests() != 0 {
		t.Fatalf("gh ran in a repository git refuses (server saw %d requests):\n%s", w.srv.Requests(), runs)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("a shell chip ran in a repository git refuses")
	}

	// The advised command, as the user would type it, allows it.
	sh := exec.Command("sh", "-c", command)
	sh.Dir, sh.Env = w.repo, w.env()
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", command, err, out)
	}
	w.refresh(w.repo, 0)
	if got := w.run(w.repo, "prompt", "--no-refresh").stdout; !strings.HasPrefix(got, "#42") || ghRuns(log) == "" {
		t.Fatalf("after %s the chip is %q (gh runs: %q)", command, got, ghRuns(log))
	}
	if _, err := os.Stat(mark); err != nil {
		t.Fatalf("the shell chip never ran, so its absence above proves nothing: %v", err)
	}
}
