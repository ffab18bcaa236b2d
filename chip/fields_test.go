package chip

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/chip/state"
	"github.com/prchip/prchip/internal/sanitize"
)

// The field table: a gh known to be older than a field's first release
// is not asked for it; a gh that refused a field is not asked again; an
// unknown version is asked (its refusal is caught, see below).
func TestPRFieldsByGhVersion(t *testing.T) {
	r := newRig(t)
	r.env.Config.Format = "#{number}( {auto_merge})( {merge_state})"
	f := r.facts()
	id := f.Setup.GhIdentity
	for _, c := range []struct {
		name string
		g    state.Global
		want bool // autoMergeRequest asked
	}{
		{"version unknown", state.Global{}, true},
		{"gh 2.23.0 (Debian)", state.Global{GhVersion: "2.23.0", GhVersionOf: id}, false},
		{"gh 2.28.1", state.Global{GhVersion: "2.28.1", GhVersionOf: id}, false},
		{"gh 2.29.0", state.Global{GhVersion: "2.29.0", GhVersionOf: id}, true},
		{"gh 2.83.0", state.Global{GhVersion: "2.83.0", GhVersionOf: id}, true},
		{"another gh's version", state.Global{GhVersion: "2.23.0", GhVersionOf: "other"}, true},
		{"an odd version", state.Global{GhVersion: "DEV", GhVersionOf: id}, true},
		{"refused before", state.Global{GhVersion: "2.83.0", GhVersionOf: id, GhLacks: []string{"autoMergeRequest"}, GhLacksOf: id}, false},
		{"refused by another gh", state.Global{GhLacks: []string{"autoMergeRequest"}, GhLacksOf: "other"}, true},
	} {
		got := r.env.prFields(f, &c.g)
		if slices.Contains(got, "autoMergeRequest") != c.want || !slices.Contains(got, "mergeStateStatus") || !slices.Contains(got, "number") {
			t.Errorf("%s: fields %v", c.name, got)
		}
	}
}

// A gh that says "Unknown JSON field" for a field the table lets through
// (a gh built differently, or the version not learned yet) still gives a
// validated refresh: asked once more without what it refused, which is
// remembered, so the next refresh asks for it no more.
func TestUnknownJSONFieldNeverFailsARefresh(t *testing.T) {
	r := newRig(t)
	r.env.Config.Format = "#{number}( {auto_merge})( {merge_state})"
	args := filepath.Join(t.TempDir(), "args")
	r.gh.set(`echo "$*" >> '` + args + `'
case "$*" in *autoMergeRequest*)
printf 'Unknown JSON field: "autoMergeRequest"\nAvailable fields:\n  id\n  isDraft\n  mergeStateStatus\n  number\n  state\n  title\n  url\n' >&2; exit 1;;
esac
echo '{"number":8,"title":"t","state":"OPEN","isDraft":false,"url":"https://github.com/octo/demo/pull/8","mergeStateStatus":"BLOCKED"}'`)
	res := r.background(t)
	if o := res[0].Outcome; o == nil || o.PR == nil || o.PR.MergeState != "blocked" {
		t.Fatalf("first refresh: %+v", res[0].Outcome)
	}
	if got := r.status().Chip; got != "#8 blocked" {
		t.Fatalf("chip %q", got)
	}
	if r.gh.runs() != 2 {
		t.Fatalf("gh ran %d times, want 2 (the refusal, the retry)", r.gh.runs())
	}
	r.now = r.now.Add(time.Minute)
	r.background(t)
	b, _ := os.ReadFile(args)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if r.gh.runs() != 3 || strings.Contains(lines[len(lines)-1], "autoMergeRequest") {
		t.Fatalf("runs %d; the refused field asked again: %q", r.gh.runs(), b)
	}
	v := LoadView(r.env.Store, r.facts().Key)
	if !slices.Contains(v.Global.GhLacks, "autoMergeRequest") || v.Global.GhLacksOf != r.facts().Setup.GhIdentity {
		t.Fatalf("not remembered: %+v", v.Global)
	}
}

// refusedFields reads gh's refusal as every gh prints it.
func TestRefusedFields(t *testing.T) {
	asked := []string{"number", "url", "state", "isDraft", "title", "mergeStateStatus", "autoMergeRequest", "headRefOid"}
	debian := "Unknown JSON field: \"autoMergeRequest\"\nAvailable fields:\n  additions\n  headRefOid\n  isDraft\n  mergeStateStatus\n  number\n  state\n  title\n  url\n"
	if got := refusedFields([]byte(debian), asked); !slices.Equal(got, []string{"autoMergeRequest"}) {
		t.Errorf("gh 2.23's refusal: %v", got)
	}
	if got := refusedFields([]byte("Unknown JSON field: \"autoMergeRequest\"\n"), asked); !slices.Equal(got, asked[5:7]) { // headRefOid is always asked (SPEC 3)
		t.Errorf("a refusal without a list: %v", got)
	}
	for _, other := range []string{"", "HTTP 502: Bad Gateway", "no pull requests found for branch \"x\""} {
		if got := refusedFields([]byte(other), asked); got != nil {
			t.Errorf("%q read as a refusal: %v", other, got)
		}
	}
}

// sync with a real repository: computed by the refresh; when the branch
// moves, the render stops showing it and asks for a refresh, which
// computes it again without running gh while the result is fresh.
func TestSyncRecheckedWhenTheBranchMoves(t *testing.T) {
	r := newRig(t)
	r.env.Config.Format = "#{number}( {sync})"
	git := func(args ...string) string {
		c := exec.Command("git", args...)
		c.Dir = r.repo
		c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("commit", "-q", "--allow-empty", "-m", "a")
	head := git("rev-parse", "HEAD")
	r.gh.set(`echo '{"number":8,"title":"t","state":"OPEN","isDraft":false,"url":"u","headRefOid":"` + head + `"}'`)
	r.background(t)
	if got := r.status(); got.Chip != "#8 same" || got.PR.HeadOid == nil || *got.PR.HeadOid != head || *got.PR.Sync != "same" {
		t.Fatalf("chip %q, pr %+v", got.Chip, got.PR)
	}
	if r.wantsRefresh(t) {
		t.Fatal("a fresh result with an unmoved branch wants a refresh")
	}
	// A commit made outside the shell's hooks (no invalidation).
	git("commit", "-q", "--allow-empty", "-m", "b")
	f := r.facts()
	v := LoadView(r.env.Store, f.Key)
	text, refresh := r.env.Render(f, &v, sanitize.Plain)
	if text != "#8" || !refresh {
		t.Fatalf("after a commit: chip %q refresh %v; want sync hidden and a refresh", text, refresh)
	}
	if !r.env.StableUntil(f, &v).Equal(r.now) {
		t.Fatal("StableUntil lets a worker keep the answer")
	}
	if s := r.status(); s.PR.Sync != nil {
		t.Fatalf("status shows a sync computed for another commit: %q", *s.PR.Sync)
	}
	r.background(t)
	if got := r.status().Chip; got != "#8 ahead" {
		t.Fatalf("after the re-check: %q", got)
	}
	if r.gh.runs() != 1 {
		t.Fatalf("gh ran %d times: the re-check of sync asked GitHub", r.gh.runs())
	}
	if r.wantsRefresh(t) {
		t.Fatal("still wants a refresh after the re-check")
	}
	// The PR's head is a commit this repository does not have.
	r.now = r.now.Add(time.Minute)
	r.gh.set(`echo '{"number":8,"title":"t","state":"OPEN","isDraft":false,"url":"u","headRefOid":"` + strings.Repeat("ab", 20) + `"}'`)
	r.background(t)
	if got := r.status().Chip; got != "#8 not fetched" {
		t.Fatalf("head not fetched: %q", got)
	}
}
