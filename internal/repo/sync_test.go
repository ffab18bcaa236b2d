package repo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// Sync against the PR's head, in real repositories, loose and packed,
// checked against git itself (merge-base --is-ancestor).
func TestSync(t *testing.T) {
	dir, a, b, c, x := syncRepo(t)
	cases := []struct {
		name, head, want string
	}{
		{"same", c, SyncSame},
		{"ahead: local commits not pushed", b, SyncAhead},
		{"ahead by more", a, SyncAhead},
		{"diverged", x, SyncDiverged},
		{"not fetched", "0123456789abcdef0123456789abcdef01234567", SyncNotFetched},
	}
	check := func(t *testing.T, info *Info, local string) {
		for _, k := range cases {
			if got := Sync(info, local, k.head); got != k.want {
				t.Errorf("%s: Sync = %q, want %q", k.name, got, k.want)
			}
			if k.want == SyncNotFetched || k.want == SyncSame {
				continue
			}
			// The oracle: git's own answer.
			isAnc := exec.Command("git", "merge-base", "--is-ancestor", k.head, local)
			isAnc.Dir = dir
			if (isAnc.Run() == nil) != (k.want == SyncAhead) {
				t.Errorf("%s: git disagrees", k.name)
			}
		}
	}
	t.Run("loose", func(t *testing.T) {
		info := find(t, dir)
		local := info.BranchOid()
		if local != c {
			t.Fatalf("BranchOid = %q, want %s", local, c)
		}
		check(t, info, local)
	})
	t.Run("behind", func(t *testing.T) {
		// The PR has c; the branch was reset to a: c is still in the repository.
		gitOut(t, dir, "branch", "-q", "-f", "behind", a)
		gitOut(t, dir, "checkout", "-q", "behind")
		defer gitOut(t, dir, "checkout", "-q", "feature")
		info := find(t, dir)
		if got := Sync(info, info.BranchOid(), c); got != SyncBehind {
			t.Errorf("Sync = %q, want behind", got)
		}
		// x was forked at a: the branch (at a) is behind it too.
		if got := Sync(info, info.BranchOid(), x); got != SyncBehind {
			t.Errorf("Sync against x = %q, want behind", got)
		}
	})
	t.Run("packed", func(t *testing.T) {
		gitOut(t, dir, "gc", "-q", "--prune=now")
		if m, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "??", "*")); len(m) != 0 {
			t.Fatalf("loose objects left after gc: %v", m)
		}
		if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "heads", "feature")); err == nil {
			t.Fatal("the branch's ref is still loose after gc")
		}
		info := find(t, dir)
		local := info.BranchOid()
		if local != c {
			t.Fatalf("BranchOid from packed-refs = %q, want %s", local, c)
		}
		check(t, info, local)
	})
	t.Run("linked worktree", func(t *testing.T) {
		wt := filepath.Join(t.TempDir(), "wt")
		gitOut(t, dir, "worktree", "add", "-q", "-b", "wtbranch", wt, b)
		info := find(t, wt)
		if got := info.BranchOid(); got != b {
			t.Fatalf("worktree BranchOid = %q, want %s", got, b)
		}
		if got := Sync(info, b, c); got != SyncBehind {
			t.Errorf("worktree Sync = %q, want behind", got)
		}
	})
	t.Run("alternates", func(t *testing.T) {
		clone := filepath.Join(t.TempDir(), "clone")
		gitOut(t, dir, "clone", "-q", "--shared", "-b", "feature", dir, clone)
		if m, _ := filepath.Glob(filepath.Join(clone, ".git", "objects", "pack", "*.pack")); len(m) != 0 {
			t.Fatalf("a shared clone has packs of its own: %v", m)
		}
		info := find(t, clone)
		if got := Sync(info, info.BranchOid(), b); got != SyncAhead {
			t.Errorf("Sync through alternates = %q, want ahead", got)
		}
	})
}

// A shallow clone's history ends early: an answer it cannot be sure of is
// not given.
func TestSyncShallowIsUnknown(t *testing.T) {
	dir, _, b, _, x := syncRepo(t)
	clone := filepath.Join(t.TempDir(), "shallow")
	gitOut(t, dir, "clone", "-q", "--depth", "1", "-b", "feature", "file://"+dir, clone)
	gitOut(t, clone, "fetch", "-q", "--depth", "1", "origin", "other")
	info := find(t, clone)
	// b is not in the clone at all; x is, with its history cut.
	if got := Sync(info, info.BranchOid(), b); got != SyncNotFetched {
		t.Errorf("Sync against a commit the clone lacks = %q, want not_fetched", got)
	}
	if got := Sync(info, info.BranchOid(), x); got != "" {
		t.Errorf("Sync across a shallow history = %q, want unknown", got)
	}
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

// A branch far from where it forked: the walk stops at commits older than
// the one it looks for, rather than reading the whole history, and still
// answers right.
func TestSyncLongHistory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	gitOut(t, dir, "init", "-q", "-b", "main")
	// A fast-import stream: 3000 commits a day apart on main, a fork from
	// the first one with one commit dated after all of them.
	var b strings.Builder
	day := int64(86400)
	start := int64(1500000000)
	for i := 1; i <= 3000; i++ {
		b.WriteString("commit refs/heads/main\nmark :" + itoa(i) + "\ncommitter t <t@e> " + itoa64(start+int64(i)*day) + " +0000\ndata 1\nx\n")
		if i > 1 {
			b.WriteString("from :" + itoa(i-1) + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("commit refs/heads/fork\nmark :9999\ncommitter t <t@e> " + itoa64(start+3001*day) + " +0000\ndata 1\ny\nfrom :1\n\n")
	fi := exec.Command("git", "fast-import", "--quiet")
	fi.Dir, fi.Stdin = dir, strings.NewReader(b.String())
	if out, err := fi.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v %s", err, out)
	}
	gitOut(t, dir, "checkout", "-q", "main")
	info := find(t, dir)
	fork := gitOut(t, dir, "rev-parse", "fork")
	first := gitOut(t, dir, "rev-list", "--max-parents=0", "main")
	if got := Sync(info, info.BranchOid(), fork); got != SyncDiverged {
		t.Errorf("Sync against a recent fork = %q, want diverged", got)
	}
	if got := Sync(info, info.BranchOid(), first); got != SyncAhead {
		t.Errorf("Sync against the first commit = %q, want ahead", got)
	}
}

func itoa(n int) string { return itoa64(int64(n)) }

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
