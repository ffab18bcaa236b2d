package chip

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/internal/repo"
)

// headOid is the rig's branch commit.
func (r *rig) headOid(t *testing.T) string {
	t.Helper()
	oid := r.facts().Repo.BranchOid()
	if !repo.IsOid(oid) {
		t.Fatalf("no branch commit: %q", oid)
	}
	return oid
}

// argsLog makes the fake gh write each run's arguments, one run a line.
func (r *rig) argsLog(t *testing.T, body string) string {
	log := filepath.Join(t.TempDir(), "args")
	r.gh.set(`printf '%s\n' "$*" >> '` + log + "'\n" + body)
	return log
}

// The chip command asks exactly the head and base the lookup decided:
// `gh pr view -R HOST/OWNER/REPO --json ...headRefOid,baseRefName -- BRANCH`,
// never gh's own guess from the checkout.
func TestLookupAsksTheHeadInTheBase(t *testing.T) {
	r := newRig(t)
	r.commit(t)
	log := r.argsLog(t, `echo '{"number":4,"title":"t","state":"OPEN","isDraft":false,"url":"u"}'`)
	r.background(t)
	b, _ := os.ReadFile(log)
	args := strings.TrimSpace(string(b))
	if !strings.HasPrefix(args, "pr view -R github.com/octo/demo --json ") || !strings.HasSuffix(args, " -- feature") ||
		!strings.Contains(args, "headRefOid") || !strings.Contains(args, "baseRefName") {
		t.Fatalf("gh ran with %q", args)
	}
	s := r.status()
	if s.Chip != "#4" || s.Lookup == nil || s.Lookup.Head != "octo:feature" || s.Lookup.Base != "octo/demo" || !strings.Contains(s.Lookup.Why, "push target") {
		t.Fatalf("chip %q, lookup %+v", s.Chip, s.Lookup)
	}
}

// A branch with neither a push target nor an upstream has no PR that is
// its own: gh is not asked, status says why.
func TestNoPushTargetAsksNothing(t *testing.T) {
	r := newRig(t)
	r.commit(t)
	r.git(t, "config", "--unset", "branch.feature.remote")
	r.git(t, "config", "--unset", "branch.feature.merge")
	r.gh.set(`echo '{"number":4,"title":"t","state":"OPEN","isDraft":false,"url":"u"}'`)
	r.background(t)
	s := r.status()
	if r.gh.runs() != 0 || s.Chip != "" || s.Lookup == nil || !strings.Contains(s.Lookup.Why, "no push target or upstream") {
		t.Fatalf("runs %d, chip %q, lookup %+v", r.gh.runs(), s.Chip, s.Lookup)
	}
}

// The history check: a merged or closed PR shows only while the branch
// has not gone beyond its head; an open one always shows.
func TestHistoryCheck(t *testing.T) {
	const unknown = "1111111111111111111111111111111111111111"
	for _, c := range []struct {
		name, state string
		head        func(r *rig, t *testing.T) string
		chip        string
		aside       string
	}{
		{"merged, same commit", "MERGED", func(r *rig, t *testing.T) string { return r.headOid(t) }, "#4 merged", ""},
		{"merged, head unknown (a reused name)", "MERGED", func(*rig, *testing.T) string { return unknown }, "", "not in this repository"},
		{"merged, branch gone beyond", "MERGED", func(r *rig, t *testing.T) string {
			old := r.headOid(t)
			r.commit(t)
			return old
		}, "", "new commits beyond its head"},
		{"closed, same commit", "CLOSED", func(r *rig, t *testing.T) string { return r.headOid(t) }, "#4 closed", ""},
		{"open, head unknown", "OPEN", func(*rig, *testing.T) string { return unknown }, "#4", ""},
		{"open, branch ahead", "OPEN", func(r *rig, t *testing.T) string {
			old := r.headOid(t)
			r.commit(t)
			return old
		}, "#4", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t)
			r.commit(t)
			head := c.head(r, t)
			r.gh.set(`echo '{"number":4,"title":"t","state":"` + c.state + `","isDraft":false,"url":"u","headRefOid":"` + head + `","baseRefName":"main"}'`)
			r.background(t)
			s := r.status()
			if s.Chip != c.chip {
				t.Errorf("chip %q, want %q", s.Chip, c.chip)
			}
			if c.aside == "" {
				if len(s.SetAside) != 0 {
					t.Errorf("set aside %+v", s.SetAside)
				}
				return
			}
			if len(s.SetAside) != 1 || s.SetAside[0].Number != 4 || !strings.Contains(s.SetAside[0].Reason, c.aside) {
				t.Errorf("set aside %+v, want #4: %s", s.SetAside, c.aside)
			}
			var human strings.Builder
			s.WriteHuman(&human)
			if !strings.Contains(human.String(), "set aside:      #4 (merged): ") || !strings.Contains(human.String(), "asked:          head octo:feature in octo/demo (push target") {
				t.Errorf("status says:\n%s", human.String())
			}
			if s.LastOutcome == nil || s.LastOutcome.Category != classify.CatNoPR {
				t.Errorf("outcome %+v", s.LastOutcome)
			}
		})
	}
}

// A branch whose name gh would read as a PR number ("123") is asked
// exactly (the head repository's ref), never as `gh pr view 123`.
func TestNumericBranchAskedExactly(t *testing.T) {
	r := newRig(t)
	r.commit(t)
	r.branch(t, "123")
	r.git(t, "update-ref", "refs/remotes/origin/123", "HEAD")
	node := `{"number":9,"title":"t","state":"OPEN","isDraft":false,"url":"u","headRefName":"123","baseRefName":"main",` +
		`"headRepository":{"name":"demo","owner":{"login":"octo"}},"baseRepository":{"name":"demo","owner":{"login":"octo"}}}`
	log := r.argsLog(t, `case "$*" in *associatedPullRequests*) echo '{"data":{"repository":{"ref":{"associatedPullRequests":{"nodes":[`+node+`]}}}}}';; *) echo 'no pull requests found for branch "123"' >&2; exit 1;; esac`)
	r.background(t)
	b, _ := os.ReadFile(log)
	// The exact lookup asks the head's host, whatever GH_HOST says.
	if strings.Contains(string(b), "pr view") || !strings.Contains(string(b), "ref=refs/heads/123") || !strings.Contains(string(b), "--hostname github.com") {
		t.Fatalf("gh ran with:\n%s", b)
	}
	if s := r.status(); s.Chip != "#9" {
		t.Fatalf("chip %q", s.Chip)
	}
}

// judge's table: the rule of SPEC 3 for each state and sync.
func TestJudge(t *testing.T) {
	for _, c := range []struct {
		state, sync string
		show        bool
	}{
		{"open", "", true}, {"open", repo.SyncDiverged, true}, {"open", repo.SyncNotFetched, true}, {"open", repo.SyncAhead, true},
		{"merged", repo.SyncSame, true}, {"merged", repo.SyncBehind, true}, {"closed", repo.SyncSame, true},
		{"merged", repo.SyncAhead, false}, {"merged", repo.SyncDiverged, false}, {"merged", repo.SyncNotFetched, false},
		{"closed", repo.SyncAhead, false}, {"merged", "", false},
	} {
		if why := judge(&classify.PR{State: c.state, Sync: c.sync}); (why == "") != c.show {
			t.Errorf("%s/%s: set aside for %q", c.state, c.sync, why)
		}
	}
}

// keep, the history check both lookups share: an open PR is kept; one set
// aside is listed once however often the lookups find it, and at most 4
// are listed (status's set_aside).
func TestKeepSetsAsideOnce(t *testing.T) {
	e, f := &Engine{}, &Facts{}
	var aside []classify.SetAside
	if !e.keep(context.Background(), f, &classify.PR{Number: 1, State: "open"}, &aside) || len(aside) != 0 {
		t.Fatalf("open PR: aside %+v", aside)
	}
	for _, n := range []int{5, 5, 6, 7, 8, 9} {
		if e.keep(context.Background(), f, &classify.PR{Number: n, State: "merged"}, &aside) {
			t.Fatalf("merged #%d with no head kept", n)
		}
	}
	var got []int
	for _, a := range aside {
		got = append(got, a.Number)
		if a.State != "merged" || a.Reason == "" {
			t.Errorf("set aside %+v", a)
		}
	}
	if !slices.Equal(got, []int{5, 6, 7, 8}) {
		t.Fatalf("set aside %v, want [5 6 7 8]", got)
	}
}
