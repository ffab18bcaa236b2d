package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
	if runs := ghRuns(log); runs != "" || w.prRequests() != 0 {
		t.Fatalf("gh ran in a repository git refuses (server saw %d requests):\n%s", w.prRequests(), runs)
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

// ghSays is the real gh's answer in dir with the world's environment:
// the PR number `gh pr view` finds there, 0 for none.
func (w *world) ghSays(dir string) int {
	w.t.Helper()
	c := exec.Command(w.ghPath, "pr", "view", "--json", "number", "--jq", ".number")
	c.Dir, c.Env = dir, w.env()
	out, err := c.CombinedOutput()
	if err != nil {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		w.t.Fatalf("gh pr view: %q", out)
	}
	return n
}

// GIT_DIR (and GIT_WORK_TREE) name another repository than the directory's
// own: the chip shows what `gh pr view` shows in that environment, through
// `prchip refresh` and through the prompt's background refresh (which
// runs elsewhere, so relative names must be made absolute), and the
// directory's own repository never gets the other's PR.
func TestGitDirNamesTheRepository(t *testing.T) {
	cases := []struct {
		name, sub, gitDir, workTree string
		viaPrompt                   bool
	}{
		{name: "GIT_DIR from the top", gitDir: "../other/.git"},
		{name: "GIT_DIR from a subdirectory", sub: "sub", gitDir: "../../other/.git"},
		{name: "GIT_DIR from a subdirectory, background refresh", sub: "sub", gitDir: "../../other/.git", viaPrompt: true},
		{name: "GIT_DIR and GIT_WORK_TREE", sub: "sub", gitDir: "../../other/.git", workTree: "../../other", viaPrompt: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			other := w.newRepo("other", "topic", "https://"+fakegithub.Host+"/octo/other.git")
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.srv.SetPR("topic", fakegithub.PR{Number: 7})
			dir := filepath.Join(w.repo, c.sub)
			os.MkdirAll(dir, 0o755)
			w.extra["GIT_DIR"] = c.gitDir
			if c.workTree != "" {
				w.extra["GIT_WORK_TREE"] = c.workTree
			}
			want := w.ghSays(dir)
			if want != 7 {
				t.Fatalf("gh in that environment finds #%d: the test's premise is wrong (other: %s)", want, other)
			}
			if c.viaPrompt {
				w.run(dir, "prompt")
				w.settle()
			} else {
				w.refresh(dir, 0)
			}
			if got := w.run(dir, "prompt", "--no-refresh").stdout; got != "#7" {
				t.Fatalf("with GIT_DIR=%s the chip is %q; gh pr view finds #%d", c.gitDir, got, want)
			}

			// The directory's own repository, without the variables.
			delete(w.extra, "GIT_DIR")
			delete(w.extra, "GIT_WORK_TREE")
			if got := w.run(dir, "prompt", "--no-refresh").stdout; got != "" {
				t.Fatalf("the directory's own repository shows %q, never refreshed", got)
			}
			if s := w.status(dir); s.PR != nil {
				t.Fatalf("the directory's own repository has the other's PR: %+v", s.PR)
			}
			w.refresh(dir, 0)
			if got := w.run(dir, "prompt", "--no-refresh").stdout; got != "#42" {
				t.Fatalf("the directory's own repository shows %q", got)
			}
			w.extra["GIT_DIR"] = c.gitDir
			if c.workTree != "" {
				w.extra["GIT_WORK_TREE"] = c.workTree
			}
			if got := w.run(dir, "prompt", "--no-refresh").stdout; got != "#7" {
				t.Fatalf("back with GIT_DIR the chip is %q", got)
			}
		})
	}
}

// A shell that exports GIT_DIR mid-session: its worker (which runs
// elsewhere and gets GIT_DIR with each request) shows the other
// repository's PR, and the old one's never after the export.
func TestShellsFollowGitDir(t *testing.T) {
	for _, sh := range []string{"zsh", "bash"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh)
			w.newRepo("other", "topic", "https://"+fakegithub.Host+"/octo/other.git")
			w.srv.SetPR("feature", fakegithub.PR{Number: 42})
			w.srv.SetPR("topic", fakegithub.PR{Number: 7})
			dir := filepath.Join(w.repo, "sub")
			os.MkdirAll(dir, 0o755)
			script := fmt.Sprintf(shellSetup[sh], prchipBin) +
				strings.Repeat("sleep 0.3\n", 8) + "export GIT_DIR=../../other/.git\n" + strings.Repeat("sleep 0.3\n", 10) + "echo done\n"
			_, stderr := w.interactive(sh, dir, script)
			chips := chipsIn(stderr)
			seen42, seen7 := false, false
			for _, c := range chips {
				switch c {
				case "#42":
					if seen7 {
						t.Fatalf("the old repository's PR after GIT_DIR named another: %q", chips)
					}
					seen42 = true
				case "#7":
					seen7 = true
				}
			}
			if !seen42 || chips[len(chips)-1] != "#7" {
				t.Fatalf("prompts %q", chips)
			}
		})
	}
}
