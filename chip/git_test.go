package chip

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/repo"
	"github.com/prchip/prchip/internal/testenv"
)

// factsAt are the facts sync and cutFrom read: the repository at dir.
func factsAt(t *testing.T, dir string) *Facts {
	t.Helper()
	info, err := repo.Find(dir, env.Process())
	if err != nil {
		t.Fatal(err)
	}
	return &Facts{Dir: dir, Repo: info}
}

// syncIn is the refresh's sync in dir, with no deadline but git's own.
func syncIn(t *testing.T, dir, local, head string) string {
	t.Helper()
	return (&Engine{}).sync(context.Background(), factsAt(t, dir), local, head)
}

// Sync against the PR's head, in real repositories, loose and packed,
// checked against git itself (merge-base --is-ancestor).
func TestSync(t *testing.T) {
	dir, a, b, c, x := testenv.SyncRepo(t)
	cases := []struct {
		name, head, want string
	}{
		{"same", c, repo.SyncSame},
		{"ahead: local commits not pushed", b, repo.SyncAhead},
		{"ahead by more", a, repo.SyncAhead},
		{"diverged", x, repo.SyncDiverged},
		{"not fetched", "0123456789abcdef0123456789abcdef01234567", repo.SyncNotFetched},
	}
	check := func(t *testing.T, local string) {
		for _, k := range cases {
			if got := syncIn(t, dir, local, k.head); got != k.want {
				t.Errorf("%s: sync = %q, want %q", k.name, got, k.want)
			}
			if k.want == repo.SyncNotFetched || k.want == repo.SyncSame {
				continue
			}
			// The oracle: git's own answer.
			isAnc := exec.Command("git", "merge-base", "--is-ancestor", k.head, local)
			isAnc.Dir = dir
			if (isAnc.Run() == nil) != (k.want == repo.SyncAhead) {
				t.Errorf("%s: git disagrees", k.name)
			}
		}
	}
	t.Run("loose", func(t *testing.T) {
		local := factsAt(t, dir).Repo.BranchOid()
		if local != c {
			t.Fatalf("BranchOid = %q, want %s", local, c)
		}
		check(t, local)
	})
	t.Run("behind", func(t *testing.T) {
		// The PR has c; the branch was reset to a: c is still in the repository.
		testenv.Git(t, dir, "branch", "-q", "-f", "behind", a)
		testenv.Git(t, dir, "checkout", "-q", "behind")
		defer testenv.Git(t, dir, "checkout", "-q", "feature")
		local := factsAt(t, dir).Repo.BranchOid()
		if got := syncIn(t, dir, local, c); got != repo.SyncBehind {
			t.Errorf("sync = %q, want behind", got)
		}
		// x was forked at a: the branch (at a) is behind it too.
		if got := syncIn(t, dir, local, x); got != repo.SyncBehind {
			t.Errorf("sync against x = %q, want behind", got)
		}
	})
	t.Run("packed", func(t *testing.T) {
		testenv.Git(t, dir, "gc", "-q", "--prune=now")
		if m, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "??", "*")); len(m) != 0 {
			t.Fatalf("loose objects left after gc: %v", m)
		}
		if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "heads", "feature")); err == nil {
			t.Fatal("the branch's ref is still loose after gc")
		}
		local := factsAt(t, dir).Repo.BranchOid()
		if local != c {
			t.Fatalf("BranchOid from packed-refs = %q, want %s", local, c)
		}
		check(t, local)
	})
	t.Run("linked worktree", func(t *testing.T) {
		wt := filepath.Join(t.TempDir(), "wt")
		testenv.Git(t, dir, "worktree", "add", "-q", "-b", "wtbranch", wt, b)
		if got := factsAt(t, wt).Repo.BranchOid(); got != b {
			t.Fatalf("worktree BranchOid = %q, want %s", got, b)
		}
		if got := syncIn(t, wt, b, c); got != repo.SyncBehind {
			t.Errorf("worktree sync = %q, want behind", got)
		}
	})
	t.Run("alternates", func(t *testing.T) {
		clone := filepath.Join(t.TempDir(), "clone")
		testenv.Git(t, dir, "clone", "-q", "--shared", "-b", "feature", dir, clone)
		if m, _ := filepath.Glob(filepath.Join(clone, ".git", "objects", "pack", "*.pack")); len(m) != 0 {
			t.Fatalf("a shared clone has packs of its own: %v", m)
		}
		if got := syncIn(t, clone, factsAt(t, clone).Repo.BranchOid(), b); got != repo.SyncAhead {
			t.Errorf("sync through alternates = %q, want ahead", got)
		}
	})
	t.Run("GIT_DIR", func(t *testing.T) {
		// The repository the environment names, from a directory outside it.
		t.Setenv("GIT_DIR", filepath.Join(dir, ".git"))
		if got := syncIn(t, t.TempDir(), c, b); got != repo.SyncAhead {
			t.Errorf("sync of GIT_DIR's repository = %q, want ahead", got)
		}
	})
	t.Run("object names", func(t *testing.T) {
		// Upper case from a hostile answer is the same commit; anything
		// but a full SHA-1 name is never handed to git, not even an
		// option of 40 characters.
		planted := strings.Repeat("x", 31)
		for _, k := range []struct{ head, want string }{
			{strings.ToUpper(c), repo.SyncSame},
			{strings.ToUpper(b), repo.SyncAhead},
			{"--output=" + planted, ""},
			{b[:12], ""},
			{b + "0000000000000000000000000", ""},
		} {
			if got := syncIn(t, dir, c, k.head); got != k.want {
				t.Errorf("sync against %q = %q, want %q", k.head, got, k.want)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, planted)); err == nil {
			t.Error("git took a head for an option")
		}
	})
}

// The user's own git tracing (GIT_TRACE and its kin, on stderr) is not
// git saying it skipped object stores: a head the repository lacks is
// still not fetched, and a comparison still stands.
func TestSyncIgnoresTheUsersGitTrace(t *testing.T) {
	dir, _, b, c, _ := testenv.SyncRepo(t) // before the variables: gitOut would trace too
	for _, v := range []string{"GIT_TRACE", "GIT_TRACE2", "GIT_TRACE_PERFORMANCE"} {
		t.Run(v, func(t *testing.T) {
			t.Setenv(v, "1")
			if got := syncIn(t, dir, c, "0123456789abcdef0123456789abcdef01234567"); got != repo.SyncNotFetched {
				t.Errorf("%s=1: sync against a commit the repository lacks = %q, want not_fetched", v, got)
			}
			if got := syncIn(t, dir, c, b); got != repo.SyncAhead {
				t.Errorf("%s=1: sync = %q, want ahead", v, got)
			}
		})
	}
}

// Only git's word that it skipped object stores makes a missing head
// unknown: a hint or warning of another kind (here, git's notice that
// info/grafts is deprecated) leaves it not fetched.
func TestSyncUnknownOnlyForSkippedStores(t *testing.T) {
	dir, _, _, c, _ := testenv.SyncRepo(t)
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "grafts"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := syncIn(t, dir, c, "0123456789abcdef0123456789abcdef01234567"); got != repo.SyncNotFetched {
		t.Errorf("sync against a commit the repository lacks, with a hint on stderr = %q, want not_fetched", got)
	}
}

// A shallow clone's history ends early: an answer it cannot be sure of is
// not given.
func TestSyncShallowIsUnknown(t *testing.T) {
	dir, _, b, _, x := testenv.SyncRepo(t)
	clone := filepath.Join(t.TempDir(), "shallow")
	testenv.Git(t, dir, "clone", "-q", "--depth", "1", "-b", "feature", "file://"+dir, clone)
	testenv.Git(t, clone, "fetch", "-q", "--depth", "1", "origin", "other")
	local := factsAt(t, clone).Repo.BranchOid()
	// b is not in the clone at all; x is, with its history cut.
	if got := syncIn(t, clone, local, b); got != repo.SyncNotFetched {
		t.Errorf("sync against a commit the clone lacks = %q, want not_fetched", got)
	}
	if got := syncIn(t, clone, local, x); got != "" {
		t.Errorf("sync across a shallow history = %q, want unknown", got)
	}
	testenv.Git(t, clone, "update-ref", "refs/remotes/origin/other", x)
	if got := (&Engine{}).cutFrom(context.Background(), factsAt(t, clone), "origin", []string{"other"}); got != "" {
		t.Errorf("cut from %q across a shallow history", got)
	}
}

// A branch far from where it forked: git answers right across a long
// history.
func TestSyncLongHistory(t *testing.T) {
	testenv.Need(t, "git")
	dir := t.TempDir()
	testenv.Git(t, dir, "init", "-q", "-b", "main")
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
	testenv.Git(t, dir, "checkout", "-q", "main")
	local := factsAt(t, dir).Repo.BranchOid()
	fork := testenv.Git(t, dir, "rev-parse", "fork")
	first := testenv.Git(t, dir, "rev-list", "--max-parents=0", "main")
	if got := syncIn(t, dir, local, fork); got != repo.SyncDiverged {
		t.Errorf("sync against a recent fork = %q, want diverged", got)
	}
	if got := syncIn(t, dir, local, first); got != repo.SyncAhead {
		t.Errorf("sync against the first commit = %q, want ahead", got)
	}
}

func itoa(n int) string { return itoa64(int64(n)) }

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// commitFile commits body to file f in dir.
func commitFile(t *testing.T, dir, f, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	testenv.Git(t, dir, "add", f)
	testenv.Git(t, dir, "commit", "-q", "-m", f+": "+body)
}

// TestCutFrom: a feature cut from main and one cut from release/1.x are
// told apart by the nearest base, whose distance is git's own count
// (rev-list --count base..branch), with loose and packed refs; a missing
// ref, a tie and a refresh out of time say nothing.
func TestCutFrom(t *testing.T) {
	testenv.Need(t, "git")
	dir := t.TempDir()
	testenv.Git(t, dir, "init", "-q", "-b", "main")
	testenv.Git(t, dir, "remote", "add", "origin", "https://github.com/o/r.git")
	// Commits of the same second too, as scripts and rebases make them.
	commitFile(t, dir, "a", "m1")
	testenv.Git(t, dir, "branch", "tie")
	testenv.Git(t, dir, "branch", "release/1.x")
	commitFile(t, dir, "a", "m2")
	commitFile(t, dir, "a", "m3")
	testenv.Git(t, dir, "checkout", "-q", "release/1.x")
	commitFile(t, dir, "b", "r1")
	commitFile(t, dir, "b", "r2")
	testenv.Git(t, dir, "checkout", "-q", "-b", "fix", "release/1.x")
	commitFile(t, dir, "c", "f1")
	testenv.Git(t, dir, "checkout", "-q", "-b", "feature", "main")
	commitFile(t, dir, "d", "f1")
	commitFile(t, dir, "d", "f2")
	testenv.Git(t, dir, "checkout", "-q", "tie")
	commitFile(t, dir, "e", "t1")
	// A merge of main into the fix: still nearer release/1.x.
	testenv.Git(t, dir, "checkout", "-q", "-b", "fix-merged", "fix")
	testenv.Git(t, dir, "merge", "-q", "--no-edit", "main~1")
	// rc forked from main's tip and moved on; hotfix is cut from main's
	// tip too: as near to both, it lacks rc's commits and none of main's.
	testenv.Git(t, dir, "checkout", "-q", "-b", "rc", "main")
	commitFile(t, dir, "g", "rc1")
	testenv.Git(t, dir, "checkout", "-q", "-b", "hotfix", "main")
	commitFile(t, dir, "h", "h1")
	for _, b := range []string{"main", "release/1.x", "rc"} {
		testenv.Git(t, dir, "update-ref", "refs/remotes/origin/"+b, b)
	}
	bases := []string{"main", "release/1.x"}
	cases := []struct {
		branch string
		bases  []string
		want   string
	}{
		{"feature", bases, "main"},
		{"feature", []string{"release/1.x", "main"}, "main"},
		{"fix", bases, "release/1.x"},
		{"fix-merged", bases, "release/1.x"},
		{"tie", bases, ""},
		{"feature", []string{"main", "missing"}, ""},
		{"feature", []string{"main"}, "main"},
		{"release/1.x", bases, "release/1.x"},
		{"hotfix", []string{"rc", "main"}, "main"},
		{"hotfix", []string{"main", "rc"}, "main"},
	}
	e := &Engine{}
	ctx := context.Background()
	check := func(t *testing.T) {
		for _, c := range cases {
			testenv.Git(t, dir, "checkout", "-q", c.branch)
			f := factsAt(t, dir)
			if got := e.cutFrom(ctx, f, "origin", c.bases); got != c.want {
				t.Errorf("%s cut from %q of %v, want %q", c.branch, got, c.bases, c.want)
			}
			// The distance is git's: the left side is the branch's own.
			for _, b := range c.bases {
				oid := f.Repo.RefOid("refs/remotes/origin/" + b)
				if oid == "" {
					continue
				}
				n, _, _, ok := e.leftRight(ctx, f, f.Repo.BranchOid(), oid)
				want := testenv.Git(t, dir, "rev-list", "--count", "origin/"+b+".."+c.branch)
				if !ok || fmt.Sprint(n) != want {
					t.Errorf("%s..%s: %d commits (%v), git counts %s", b, c.branch, n, ok, want)
				}
			}
		}
	}
	t.Run("loose refs", check)
	testenv.Git(t, dir, "pack-refs", "--all")
	t.Run("packed refs", check)

	// All in one second: the tip's walk passes the meeting point before
	// the base's long way there reaches it, and must still not count it.
	t.Setenv("GIT_COMMITTER_DATE", "1700000000 +0000")
	testenv.Git(t, dir, "checkout", "-q", "-b", "same-base", "main")
	for i := range 6 {
		commitFile(t, dir, "s", fmt.Sprint(i))
	}
	testenv.Git(t, dir, "update-ref", "refs/remotes/origin/same-base", "same-base")
	testenv.Git(t, dir, "checkout", "-q", "-b", "same-tip", "main")
	commitFile(t, dir, "t", "1")
	cases = []struct {
		branch string
		bases  []string
		want   string
	}{
		{"same-tip", []string{"same-base", "release/1.x"}, "same-base"},
		{"same-tip", []string{"main"}, "main"},
	}
	t.Run("commits of one second", check)

	testenv.Git(t, dir, "checkout", "-q", "feature")
	done, cancel := context.WithCancel(ctx)
	cancel()
	if got := e.cutFrom(done, factsAt(t, dir), "origin", bases); got != "" {
		t.Errorf("a refresh out of time says %q", got)
	}
}
