package repo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/testenv"
)

// gitSays runs git in dir with the process's environment plus env and
// returns its trimmed output, or ok false when it fails.
func gitSays(dir string, env []string, args ...string) (string, bool) {
	c := exec.Command("git", append([]string{"-C", dir}, args...)...)
	c.Env = append(os.Environ(), env...)
	out, err := c.Output()
	return strings.TrimSpace(string(out)), err == nil
}

func realPath(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return p
	}
	return r
}

// TestFindFollowsGitEnvironment: with GIT_DIR and GIT_WORK_TREE set, Find
// names the repository git names (branch, remote, git directory, work
// tree), or refuses where git does, or refuses (the chip stays empty) in
// the one case marked; and its Env makes git find that same repository
// from the work tree's top and from anywhere, as gh, which runs git there,
// must.
func TestFindFollowsGitEnvironment(t *testing.T) {
	testenv.Need(t, "git")
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	for _, r := range []struct{ dir, branch string }{{a, "feature"}, {b, "other"}} {
		os.MkdirAll(r.dir, 0o755)
		testenv.Git(t, r.dir, "init", "-q", "-b", r.branch)
		testenv.Git(t, r.dir, "commit", "-q", "--allow-empty", "-m", "init")
		testenv.Git(t, r.dir, "remote", "add", "origin", "https://github.com/octo/"+filepath.Base(r.dir))
	}
	testenv.Git(t, b, "worktree", "add", "-q", "-b", "side", filepath.Join(base, "bwt"))
	os.MkdirAll(filepath.Join(a, "sub", "deeper"), 0o755)
	os.Symlink(filepath.Join(a, "sub"), filepath.Join(base, "link"))

	cases := []struct {
		name, dir string
		gitDir    *string
		workTree  *string
		// emptyOK: git goes on, Find refuses (no guess at gh's directory).
		emptyOK bool
	}{
		{name: "relative GIT_DIR", dir: "a", gitDir: ptr("../b/.git")},
		{name: "relative GIT_DIR from a subdirectory", dir: "a/sub/deeper", gitDir: ptr("../../../b/.git")},
		{name: "relative GIT_DIR through a symlink", dir: "link", gitDir: ptr("../../b/.git")},
		{name: "absolute GIT_DIR", dir: "a", gitDir: ptr("{base}/b/.git")},
		{name: "GIT_DIR names the directory's own", dir: "a/sub", gitDir: ptr("../.git")},
		{name: "GIT_DIR is a gitdir file", dir: "a", gitDir: ptr("../bwt/.git")},
		{name: "GIT_DIR is a linked worktree's git directory", dir: "a", gitDir: ptr("../b/.git/worktrees/bwt")},
		{name: "GIT_DIR and a relative GIT_WORK_TREE", dir: "a/sub", gitDir: ptr("../../b/.git"), workTree: ptr("../../b")},
		{name: "GIT_WORK_TREE alone", dir: "a/sub", workTree: ptr("{base}/b")},
		{name: "GIT_WORK_TREE alone, relative", dir: "a/sub", workTree: ptr("../../b")},
		{name: "GIT_DIR names nothing", dir: "a", gitDir: ptr("../nothing/.git")},
		{name: "GIT_DIR names no repository", dir: "a", gitDir: ptr("sub")},
		{name: "GIT_DIR empty", dir: "a", gitDir: ptr("")},
		{name: "GIT_WORK_TREE empty", dir: "a", gitDir: ptr("../b/.git"), workTree: ptr("")},
		{name: "GIT_WORK_TREE missing", dir: "a", gitDir: ptr("../b/.git"), workTree: ptr("{base}/missing"), emptyOK: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vars := map[string]string{"HOME": t.TempDir(), "GIT_CONFIG_NOSYSTEM": "1"}
			if c.gitDir != nil {
				vars["GIT_DIR"] = strings.ReplaceAll(*c.gitDir, "{base}", base)
			}
			if c.workTree != nil {
				vars["GIT_WORK_TREE"] = strings.ReplaceAll(*c.workTree, "{base}", base)
			}
			setGitEnv(t, vars)
			dir := filepath.Join(base, c.dir)
			branch, ok1 := gitSays(dir, nil, "symbolic-ref", "--short", "HEAD")
			remote, ok2 := gitSays(dir, nil, "remote", "get-url", "origin")
			gitDir, ok3 := gitSays(dir, nil, "rev-parse", "--absolute-git-dir")
			top, ok4 := gitSays(dir, nil, "rev-parse", "--show-toplevel")
			gitOK := ok1 && ok2 && ok3 && ok4

			info, err := Find(dir, env.Process())
			if !gitOK {
				if err == nil {
					t.Fatalf("git refuses, Find found %+v", info)
				}
				return
			}
			if err != nil {
				if c.emptyOK {
					return
				}
				t.Fatalf("git finds branch %s, Find: %v", branch, err)
			}
			if c.emptyOK {
				t.Fatalf("Find no longer refuses: %+v; drop emptyOK", info)
			}
			if info.Branch != branch || len(info.Remotes) != 1 || info.Remotes[0].URL != remote {
				t.Errorf("Find: branch %q remotes %+v; git: %q %q", info.Branch, info.Remotes, branch, remote)
			}
			if realPath(t, info.GitDir) != realPath(t, gitDir) || realPath(t, info.Root) != realPath(t, top) {
				t.Errorf("Find: git dir %s, top %s; git: %s, %s", info.GitDir, info.Root, gitDir, top)
			}
			// gh runs git in the work tree's top with Env, the relative
			// variables gone: the same repository, wherever it runs.
			for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE"} {
				os.Unsetenv(k)
			}
			for _, where := range []string{info.Root, "/"} {
				if got, _ := gitSays(where, info.Env, "symbolic-ref", "--short", "HEAD"); got != branch {
					t.Errorf("with Env %v in %s git sees branch %q, want %q", info.Env, where, got, branch)
				}
				if got, _ := gitSays(where, info.Env, "remote", "get-url", "origin"); got != remote {
					t.Errorf("with Env %v in %s git sees remote %q, want %q", info.Env, where, got, remote)
				}
			}
		})
	}
	// Without either variable, no Env: nothing is passed on.
	setGitEnv(t, map[string]string{"HOME": t.TempDir()})
	if info, err := Find(a, env.Process()); err != nil || info.Env != nil || info.Branch != "feature" {
		t.Fatalf("plain Find: %+v %v", info, err)
	}
}

func ptr(s string) *string { return &s }
