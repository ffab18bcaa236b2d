package repo

import (
	"testing"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/testenv"
)

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
	dir, _, _, c, _ := testenv.SyncRepo(t)
	info := find(t, dir)
	for _, bad := range []string{"../../HEAD", "a/../../../x", "/etc/passwd", ".hidden", "a//b", "a\\b", ""} {
		i := *info
		i.Branch = bad
		if got := i.BranchOid(); got != "" {
			t.Errorf("branch %q: BranchOid = %q", bad, got)
		}
	}
	// An unborn branch has no commit.
	testenv.Git(t, dir, "checkout", "-q", "--orphan", "unborn")
	if got := find(t, dir).BranchOid(); got != "" {
		t.Errorf("unborn branch: %q", got)
	}
	testenv.Git(t, dir, "checkout", "-q", "feature")
	// A loose ref wins over packed-refs, as in git.
	testenv.Git(t, dir, "pack-refs", "--all")
	testenv.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "d")
	d := testenv.Git(t, dir, "rev-parse", "HEAD")
	if got := find(t, dir).BranchOid(); got != d || got == c {
		t.Errorf("loose ref after pack-refs: %q, want %s", got, d)
	}
}

// TestSafeRefName: a ref name that could read outside refs/ (not under
// refs/, a "..", an absolute or empty part, a part starting with '.', a
// backslash or NUL) is refused; ordinary names, dots inside a part
// included, pass.
func TestSafeRefName(t *testing.T) {
	for name, want := range map[string]bool{
		"heads/main": true, "heads/feature/x.y": true, "remotes/origin/HEAD": true,
		"": false, "heads/../../config": false, "heads/a..b": false, ".git": false,
		"heads/.hidden": false, "heads/a/.b": false, "/etc/passwd": false, "heads/x/": false,
		"heads//x": false, `heads\x`: false, "heads/a\x00": false,
	} {
		if got := safeRefName("refs/" + name); got != want {
			t.Errorf("safeRefName(%q) = %v, want %v", name, got, want)
		}
	}
	if safeRefName("heads/main") || safeRefName("refs/") {
		t.Error("safeRefName takes a name outside refs/")
	}
}
