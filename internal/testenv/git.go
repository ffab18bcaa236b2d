package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Git runs git in dir, in a home of its own (with the XDG config
// directory git would read instead of ~/.config when it is set), and
// returns its trimmed output; a failure fails the test.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	home := t.TempDir()
	c := exec.Command(Need(t, "git"), args...)
	c.Dir = dir
	c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@e", "GIT_ALLOW_PROTOCOL=file", "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// SyncRepo makes a repository on branch feature with commits a, b, c and
// a branch "other" forked at a with commit x; it returns the directory and
// the commits.
func SyncRepo(t testing.TB) (dir string, a, b, c, x string) {
	t.Helper()
	dir = t.TempDir()
	Git(t, dir, "init", "-q", "-b", "feature")
	commit := func(msg string) string {
		Git(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
		return Git(t, dir, "rev-parse", "HEAD")
	}
	a, b, c = commit("a"), commit("b"), commit("c")
	Git(t, dir, "checkout", "-q", "-b", "other", a)
	x = commit("x")
	Git(t, dir, "checkout", "-q", "feature")
	return dir, a, b, c, x
}

// DemoRepo makes, in dir, the repository most tests ask the fake server
// about: branch feature with one commit, origin https://HOST/octo/demo.git,
// pushed with -u (its upstream is origin's feature). git runs in environ.
func DemoRepo(t testing.TB, git, dir, host string, environ []string) {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	for _, args := range [][]string{
		{"init", "-q", "-b", "feature"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init"},
		{"remote", "add", "origin", "https://" + host + "/octo/demo.git"},
		{"config", "branch.feature.remote", "origin"},
		{"config", "branch.feature.merge", "refs/heads/feature"},
	} {
		c := exec.Command(git, args...)
		c.Dir, c.Env = dir, environ
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
}
