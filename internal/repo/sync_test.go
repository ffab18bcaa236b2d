package repo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/env"
)

// gitOut runs git in dir and returns its trimmed output.
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	// A home of its own, with the XDG config directory git would read
	// instead of ~/.config when it is set.
	home := t.TempDir()
	c := exec.Command("git", args...)
	c.Dir = dir
	c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@e", "GIT_ALLOW_PROTOCOL=file", "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// syncRepo makes a repository on branch feature with commits a, b, c and
// a branch "other" forked at a with commit x; it returns the directory and
// the commits.
func syncRepo(t *testing.T) (dir string, a, b, c, x string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir = t.TempDir()
	gitOut(t, dir, "init", "-q", "-b", "feature")
	commit := func(msg string) string {
		gitOut(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
		return gitOut(t, dir, "rev-parse", "HEAD")
	}
	a = commit("a")
	b = commit("b")
	c = commit("c")
	gitOut(t, dir, "checkout", "-q", "-b", "other", a)
	x = commit("x")
	gitOut(t, dir, "checkout", "-q", "feature")
	return dir, a, b, c, x
}

func find(t *testing.T, dir string) *Info {
	t.Helper()
	info, err := Find(dir, env.Process())
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// BranchOid reads what git resolves, and nothing outside refs/heads.
func TestBranchOid(t *testing.T) {
	dir, _, _, c, _ := syncRepo(t)
	info := find(t, dir)
	for _, bad := range []string{"../../HEAD", "a/../../../x", "/etc/passwd", ".hidden", "a//b", "a\\b", ""} {
		i := *info
		i.Branch = bad
		if got := i.BranchOid(); got != "" {
			t.Errorf("branch %q: BranchOid = %q", bad, got)
		}
	}
	// An unborn branch has no commit.
	gitOut(t, dir, "checkout", "-q", "--orphan", "unborn")
	if got := find(t, dir).BranchOid(); got != "" {
		t.Errorf("unborn branch: %q", got)
	}
	gitOut(t, dir, "checkout", "-q", "feature")
	// A loose ref wins over packed-refs, as in git.
	gitOut(t, dir, "pack-refs", "--all")
	gitOut(t, dir, "commit", "-q", "--allow-empty", "-m", "d")
	d := gitOut(t, dir, "rev-parse", "HEAD")
	if got := find(t, dir).BranchOid(); got != d || got == c {
		t.Errorf("loose ref after pack-refs: %q, want %s", got, d)
	}
}
