package chip

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/cache"
	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/chip/pull"
	"github.com/prchip/prchip/chip/state"
	"github.com/prchip/prchip/internal/config"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/sanitize"
)

// fakeGh is a gh stand-in whose behaviour a test switches by rewriting
// its script; each run appends a line to a counter file.
type fakeGh struct {
	t       testing.TB
	dir     string
	counter string
}

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func (g *fakeGh) set(body string) {
	g.t.Helper()
	// The lookup asks once whether the repository is a fork (and keeps
	// the answer): not a fork, and not counted as a run of the chip.
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'gh version 9.9.9 (fake)'; exit 0; fi\n" +
		"case \"$*\" in *isFork*) echo '{\"data\":{\"repository\":{\"isFork\":false,\"parent\":null}}}'; exit 0;; esac\n" +
		"echo run >> '" + g.counter + "'\n" + body + "\n"
	p := filepath.Join(g.dir, "gh")
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, []byte(script), 0o755); err != nil {
		g.t.Fatal(err)
	}
	// Rename keeps the identity stable only when the content is the same
	// size and mtime; tests that need a stable fingerprint reuse one body.
	if err := os.Rename(tmp, p); err != nil {
		g.t.Fatal(err)
	}
}

func (g *fakeGh) runs() int {
	b, _ := os.ReadFile(g.counter)
	return strings.Count(string(b), "run\n")
}

type rig struct {
	env  *Engine
	gh   *fakeGh
	repo string
	now  time.Time
}

// newRig makes a git repository with a GitHub remote, a fake gh on PATH,
// and an Engine whose clock the test moves.
func newRig(t *testing.T) *rig { return newRigTB(t) }

func newRigTB(t testing.TB) *rig {
	t.Helper()
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	os.MkdirAll(bin, 0o755)
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	os.Symlink(git, filepath.Join(bin, "git"))
	for _, tool := range []string{"sleep", "sh"} {
		if p, err := exec.LookPath(tool); err == nil {
			os.Symlink(p, filepath.Join(bin, tool))
		}
	}
	t.Setenv("PATH", bin)
	// HOME and the XDG directories together: git reads
	// $XDG_CONFIG_HOME/git/config when it is set, ~/.config/git/config
	// otherwise, so a test that writes one must know which.
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(home, ".run"))
	os.Mkdir(filepath.Join(home, ".run"), 0o700)
	t.Setenv("GH_CONFIG_DIR", filepath.Join(home, "gh"))
	t.Setenv("GH_HOST", "")
	t.Setenv("GH_TOKEN", "x")
	repo := filepath.Join(home, "repo")
	os.MkdirAll(repo, 0o755)
	for _, args := range [][]string{
		{"init", "-q", "-b", "feature"},
		{"remote", "add", "origin", "https://github.com/octo/demo.git"},
		// Pushed with -u: the upstream is the head prchip asks for.
		{"config", "branch.feature.remote", "origin"},
		{"config", "branch.feature.merge", "refs/heads/feature"},
	} {
		c := exec.Command(git, args...)
		c.Dir = repo
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	r := &rig{repo: repo, now: t0}
	r.gh = &fakeGh{t: t, dir: bin, counter: filepath.Join(home, "gh-runs")}
	r.env = &Engine{
		Dir:    repo,
		Store:  &cache.Store{Path: filepath.Join(home, "state", "prchip", "state")},
		Config: config.Defaults(filepath.Join(home, "config.toml")),
		Now:    func() time.Time { return r.now },
		Rand:   func() float64 { return 0.5 },
	}
	r.env.Config.Timeout = 2 * time.Second
	return r
}

func (r *rig) facts() *Facts { return Gather(r.repo, r.now, env.Process()) }

// render asks the render path whether it would refresh.
func (r *rig) wantsRefresh(t *testing.T) bool {
	f := r.facts()
	v := LoadView(r.env.Store, f.Key)
	_, refresh := r.env.Render(f, &v, sanitize.Plain)
	return refresh
}

// background is what the detached refresh does.
func (r *rig) background(t *testing.T) []RefreshResult {
	t.Helper()
	res, err := r.env.Refresh(context.Background(), r.facts(), RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func (r *rig) status() *Status { return r.env.Status(r.facts()) }

func TestAuthFailureSuppressesAndCaches(t *testing.T) {
	r := newRig(t)
	r.gh.set(`echo 'HTTP 401: Bad credentials (https://api.github.com/graphql)' >&2; exit 1`)
	r.background(t)
	s := r.status()
	if s.Validation != state.Suppressed || !s.FailureCached || s.LastOutcome.Class != classify.AuthFailure {
		t.Fatalf("validation %s cached %v class %s", s.Validation, s.FailureCached, s.LastOutcome.Class)
	}
	// Same fingerprint: not run again, not by the render path either, even
	// long after and even in "always" mode.
	r.now = r.now.Add(time.Hour)
	if r.wantsRefresh(t) {
		t.Fatal("render wants to refresh while suppressed")
	}
	r.env.Config.Mode = config.ModeAlways
	res := r.background(t)
	if res[0].Skipped != state.ReasonFailureCached || r.gh.runs() != 1 {
		t.Fatalf("skipped %q, gh ran %d times", res[0].Skipped, r.gh.runs())
	}
}

func TestNetworkFailureNeverSuppresses(t *testing.T) {
	r := newRig(t)
	// One script for both runs, so gh's identity (and the fingerprint)
	// stays the same; a marker file switches its answer.
	ok := filepath.Join(t.TempDir(), "ok")
	r.gh.set(`if [ -e '` + ok + `' ]; then echo '{"number":8,"title":"t","state":"OPEN","isDraft":false,"url":"https://github.com/octo/demo/pull/8"}'; exit 0; fi
echo 'Post "https://api.github.com/graphql": dial tcp: lookup api.github.com: no such host' >&2; exit 1`)
	r.background(t)
	s := r.status()
	if s.Validation == state.Suppressed || s.FailureCached || s.LastOutcome.Class != classify.Retryable || s.LastOutcome.Category != classify.CatOffline {
		t.Fatalf("validation %s cached %v outcome %s/%s", s.Validation, s.FailureCached, s.LastOutcome.Class, s.LastOutcome.Category)
	}
	fp := s.Fingerprint
	// Within the backoff the render path waits, after it it runs again
	// under the same fingerprint, and can succeed.
	if r.wantsRefresh(t) {
		t.Fatal("render refreshes during backoff")
	}
	r.now = r.now.Add(state.BackoffBase * 2)
	if !r.wantsRefresh(t) {
		t.Fatal("render does not retry after the backoff")
	}
	os.WriteFile(ok, nil, 0o644)
	r.background(t)
	s = r.status()
	if s.Fingerprint != fp {
		t.Fatal("fingerprint changed; the test would prove nothing")
	}
	if r.gh.runs() != 2 || s.Chip != "#8" || s.Validation != state.SetupValidated {
		t.Fatalf("runs %d chip %q validation %s", r.gh.runs(), s.Chip, s.Validation)
	}
}

func TestTimeoutNeitherSuppressesNorCaches(t *testing.T) {
	r := newRig(t)
	r.env.Config.Timeout = 300 * time.Millisecond
	r.gh.set(`sleep 30`)
	start := time.Now()
	r.background(t)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("timed-out run took %v", d)
	}
	s := r.status()
	if s.LastOutcome.Category != classify.CatTimeout || !s.LastOutcome.TimedOut || s.Validation == state.Suppressed || s.FailureCached {
		t.Fatalf("outcome %s/%s timed out %v validation %s cached %v", s.LastOutcome.Class, s.LastOutcome.Category, s.LastOutcome.TimedOut, s.Validation, s.FailureCached)
	}
}

func TestShellChipWithSuppressOnFailureCaches(t *testing.T) {
	r := newRig(t)
	r.gh.set(`echo 'no pull requests found for branch "feature"' >&2; exit 1`)
	count := filepath.Join(t.TempDir(), "count")
	r.env.Config.Chips = []config.ShellChip{
		{Name: "flaky", Command: "echo x >> '" + count + "'; exit 3", Timeout: time.Second, RefreshInterval: time.Minute, SuppressOnFailure: true},
		{Name: "slow", Command: "sleep 5", Timeout: 200 * time.Millisecond, RefreshInterval: time.Minute, SuppressOnFailure: true},
		{Name: "lenient", Command: "exit 1", Timeout: time.Second, RefreshInterval: time.Minute},
		{Name: "fine", Command: "printf 'ok \\033[31mred\\n second line'", Timeout: time.Second, RefreshInterval: time.Minute, SuppressOnFailure: true},
	}
	r.background(t)
	s := r.status()
	byName := map[string]StatusChip{}
	for _, c := range s.Chips {
		byName[c.Name] = c
	}
	if !byName["flaky"].FailureCached || !byName["slow"].FailureCached {
		t.Fatalf("failures not cached: %+v", s.Chips)
	}
	if byName["lenient"].FailureCached || byName["fine"].FailureCached {
		t.Fatalf("cached without suppress_on_failure or on success: %+v", s.Chips)
	}
	if byName["fine"].Value != "ok red" || s.Chip != "ok red" {
		t.Fatalf("fine chip %q, chip %q", byName["fine"].Value, s.Chip)
	}
	// The PR chip's validation is untouched by shell chips' failures.
	if s.Validation != state.SetupValidated {
		t.Fatalf("validation %s", s.Validation)
	}
	r.now = r.now.Add(time.Hour)
	r.background(t)
	if b, _ := os.ReadFile(count); strings.Count(string(b), "x") != 1 {
		t.Fatalf("cached failing chip ran again: %q", b)
	}
}

func TestBranchSwitchHidesOldPR(t *testing.T) {
	r := newRig(t)
	r.gh.set(`echo '{"number":4,"title":"t","state":"OPEN","isDraft":false,"url":"u"}'`)
	r.background(t)
	if s := r.status(); s.Chip != "#4" {
		t.Fatalf("chip %q", s.Chip)
	}
	c := exec.Command("git", "checkout", "-q", "-b", "other")
	c.Dir = r.repo
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	s := r.status()
	if s.Chip != "" || !r.wantsRefresh(t) {
		t.Fatalf("after checkout chip %q", s.Chip)
	}
}

func TestInvalidateResetsFreshnessAndBackoff(t *testing.T) {
	r := newRig(t)
	r.gh.set(`echo 'HTTP 502: 502 Bad Gateway (https://api.github.com/graphql)' >&2; exit 1`)
	r.background(t)
	if r.wantsRefresh(t) {
		t.Fatal("refresh wanted during backoff")
	}
	if _, err := r.env.Invalidate(r.facts(), ""); err != nil {
		t.Fatal(err)
	}
	if !r.wantsRefresh(t) {
		t.Fatal("invalidate did not make the chip stale")
	}
	if n := r.status().InvalidationCount; n != 1 {
		t.Fatalf("invalidation count %d", n)
	}
}

// An invalidation the hook names is made once, whoever asks first: the
// worker that took the request, or the one-shot `prchip invalidate
// --once` the hook runs when that answer came too late. Unnamed ones
// (the command typed by hand) always count.
func TestInvalidateOnce(t *testing.T) {
	r := newRig(t)
	steps := []struct {
		once  string
		probe bool
		want  int
	}{
		{"7.1.1", false, 1}, {"7.1.1", false, 1}, {"7.1.1", true, 1},
		{"7.1.2", true, 2}, {"7.1.2", false, 2},
		{"", false, 3}, {"", false, 4}, {"7.1.1", false, 5},
		// Not a name the hooks write: none.
		{"x", false, 6}, {"x", false, 7},
	}
	for i, s := range steps {
		var err error
		if s.probe {
			err = r.env.InvalidateProbe(r.facts(), s.once) // no probe stands in: an invalidation
		} else {
			_, err = r.env.Invalidate(r.facts(), s.once)
		}
		if err != nil {
			t.Fatal(err)
		}
		if n := r.status().InvalidationCount; n != s.want {
			t.Fatalf("step %d (%q): invalidation count %d, want %d", i, s.once, n, s.want)
		}
	}
}

func TestModeOffNeverRuns(t *testing.T) {
	r := newRig(t)
	r.env.Config.Mode = config.ModeOff
	r.gh.set(`echo '{"number":1}'`)
	if r.wantsRefresh(t) {
		t.Fatal("mode off wants a refresh")
	}
	res := r.background(t)
	if res[0].Skipped != state.ReasonModeOff || r.gh.runs() != 0 {
		t.Fatalf("%+v runs %d", res[0], r.gh.runs())
	}
}

// Gather reports gh's setup inside and outside a repository.
func TestGatherReadsSetup(t *testing.T) {
	r := newRig(t)
	r.gh.set("exit 0")
	gh := filepath.Join(r.gh.dir, "gh")
	for _, dir := range []string{r.repo, t.TempDir()} {
		if got := Gather(dir, r.now, env.Process()).Setup.GhPath; got != gh {
			t.Errorf("Gather in %s: gh path %q, want %q", dir, got, gh)
		}
	}
}

// commit makes a commit, so the branch exists and can be checked out again.
func (r *rig) commit(t *testing.T) {
	r.git(t, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "x")
}

// branch checks out a new branch, pushed with -u to origin as far as the
// lookup can tell (its upstream is origin's branch of the same name).
func (r *rig) branch(t *testing.T, name string) {
	t.Helper()
	r.git(t, "checkout", "-q", "-b", name)
	r.git(t, "config", "branch."+name+".remote", "origin")
	r.git(t, "config", "branch."+name+".merge", "refs/heads/"+name)
}

func (r *rig) git(t *testing.T, args ...string) {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = r.repo
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
}

// Switching back to a branch shows its known PR at once, and asks for it
// to be checked again.
func TestSwitchingBackShowsKnownPR(t *testing.T) {
	r := newRig(t)
	r.commit(t)
	r.gh.set(`echo '{"number":4,"title":"t","state":"OPEN","isDraft":false,"url":"u"}'`)
	r.background(t)
	r.branch(t, "other")
	r.gh.set(`echo '{"number":7,"title":"t","state":"OPEN","isDraft":false,"url":"u"}'`)
	r.background(t)
	if s := r.status(); s.Chip != "#7" {
		t.Fatalf("other branch chip %q", s.Chip)
	}
	r.git(t, "checkout", "-q", "feature")
	if _, err := r.env.Invalidate(r.facts(), ""); err != nil { // what the hook does after git
		t.Fatal(err)
	}
	if s := r.status(); s.Chip != "#4" || !r.wantsRefresh(t) {
		t.Fatalf("back on feature: chip %q, refresh wanted %v", s.Chip, r.wantsRefresh(t))
	}
}

// A refresh that ends for a branch no longer checked out records its
// result for that branch: the current branch's chip stays.
func TestLateRefreshKeepsCurrentBranchChip(t *testing.T) {
	r := newRig(t)
	r.commit(t)
	r.gh.set(`echo 'HTTP 502: Bad Gateway (https://api.github.com/graphql)' >&2; exit 1`)
	old := r.facts() // a refresh starts on feature...
	r.branch(t, "other")
	r.gh.set(`echo '{"number":7,"title":"t","state":"OPEN","isDraft":false,"url":"u"}'`)
	r.background(t)
	// ...and ends after the user switched to other, with an error.
	r.gh.set(`echo 'HTTP 502: Bad Gateway (https://api.github.com/graphql)' >&2; exit 1`)
	if _, err := r.env.Refresh(context.Background(), old, RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := r.status(); s.Chip != "#7" || s.LastOutcome.Class != classify.Validated {
		t.Fatalf("current branch chip %q, last outcome %+v", s.Chip, s.LastOutcome)
	}
	// And one that found a PR for feature shows it there, not here.
	r.gh.set(`echo '{"number":4,"title":"t","state":"OPEN","isDraft":false,"url":"u"}'`)
	if _, err := r.env.Refresh(context.Background(), old, RefreshOptions{Foreground: true}); err != nil {
		t.Fatal(err)
	}
	if s := r.status(); s.Chip != "#7" {
		t.Fatalf("current branch chip %q after feature's refresh", s.Chip)
	}
	r.git(t, "checkout", "-q", "feature")
	if s := r.status(); s.Chip != "#4" {
		t.Fatalf("feature chip %q", s.Chip)
	}
}

// At most MaxBranches branches are remembered per repository.
func TestBranchMemoryIsBounded(t *testing.T) {
	r := newRig(t)
	r.gh.set(`echo '{"number":4,"title":"t","state":"OPEN","isDraft":false,"url":"u"}'`)
	for i := 0; i <= state.MaxBranches; i++ {
		r.git(t, "checkout", "-q", "-b", "b"+strconv.Itoa(i))
		r.background(t)
	}
	v := LoadView(r.env.Store, r.facts().Key)
	if n := len(v.Repo.Branches); n != state.MaxBranches || v.Repo.Branches[0].Branch != "b"+strconv.Itoa(state.MaxBranches) {
		t.Fatalf("%d branches kept, first %q", n, v.Repo.Branches[0].Branch)
	}
}

// The fingerprint follows what decides which PR is the branch's (SPEC 3
// and 4): gh repo set-default (remote.*.gh-resolved), the branch's
// upstream and push settings and insteadOf rules, from the repository's
// config and the global git config files, and gh's own config; settings
// that decide nothing of it (user, editor) leave it, and cost no refresh.
func TestFingerprintFollowsWhatGhReads(t *testing.T) {
	r := newRig(t)
	r.gh.set(`echo '{"number":4,"title":"t","state":"OPEN","isDraft":false,"url":"u"}'`)
	r.background(t)
	changes := []struct {
		name string
		do   func()
	}{
		{"gh repo set-default", func() { r.git(t, "config", "remote.origin.gh-resolved", "base") }},
		{"push remote", func() { r.git(t, "config", "remote.pushDefault", "origin") }},
		{"upstream set", func() {
			// The rig's branch tracks origin/feature: a push -u to
			// another name moves its upstream.
			r.git(t, "config", "branch.feature.merge", "refs/heads/feature-2")
		}},
		{"global git config", func() {
			os.WriteFile(filepath.Join(os.Getenv("HOME"), ".gitconfig"), []byte("[url \"git@github.com:\"]\n\tinsteadOf = gh:\n"), 0o644)
		}},
		{"XDG git config", func() {
			os.MkdirAll(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "git"), 0o755)
			os.WriteFile(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "git", "config"), []byte("[push]\n\tdefault = current\n"), 0o644)
		}},
		{"gh config", func() {
			os.MkdirAll(os.Getenv("GH_CONFIG_DIR"), 0o700)
			os.WriteFile(filepath.Join(os.Getenv("GH_CONFIG_DIR"), "config.yml"), []byte("git_protocol: ssh\n"), 0o600)
		}},
	}
	for _, c := range changes {
		before := r.status().Fingerprint
		if r.wantsRefresh(t) {
			t.Fatalf("%s: refresh wanted before the change", c.name)
		}
		c.do()
		if after := r.status().Fingerprint; after == before || !r.wantsRefresh(t) {
			t.Errorf("%s: fingerprint unchanged (%s) or no refresh wanted", c.name, after)
		}
		if s := r.status(); s.Chip != "#4" {
			t.Errorf("%s: known PR not shown while checked again: %q", c.name, s.Chip)
		}
		r.background(t)
	}
	for _, change := range [][]string{{"config", "user.name", "x"}, {"config", "core.editor", "vim"}, {"config", "--global", "alias.co", "checkout"}} {
		before := r.status().Fingerprint
		r.git(t, change...)
		if after := r.status().Fingerprint; after != before || r.wantsRefresh(t) {
			t.Errorf("git %v: fingerprint changed (%s, was %s) or refresh wanted", change, after, before)
		}
	}
}

// A remote written with a shorthand that a url.<base>.insteadOf rule in
// the global git config expands (gh:octo/demo) is the GitHub remote it
// expands to, as git and gh see it: before, the chip said no GitHub remote.
func TestGlobalInsteadOfFindsGitHubRemote(t *testing.T) {
	r := newRig(t)
	r.git(t, "remote", "set-url", "origin", "gh:octo/demo.git")
	if f := r.facts(); f.NA == nil || f.NA.Category != classify.CatNoGitHubRemote {
		t.Fatalf("without the rule: %+v", f.NA)
	}
	os.WriteFile(filepath.Join(os.Getenv("HOME"), ".gitconfig"), []byte("[url \"https://github.com/\"]\n\tinsteadOf = gh:\n"), 0o644)
	f := r.facts()
	if f.NA != nil || f.Remote.URL != "https://github.com/octo/demo.git" {
		t.Fatalf("with the global rule: remote %+v, not applicable %+v", f.Remote, f.NA)
	}
}

// Failures that never reached GitHub back off to at most about 2 minutes,
// so the chip is back soon after the network; others to 10 minutes.
func TestOfflineBackoffStaysShort(t *testing.T) {
	for _, c := range []struct {
		stderr string
		max    time.Duration
	}{
		{`error connecting to api.github.com\ncheck your internet connection or https://githubstatus.com`, state.OfflineMax},
		{`Post "https://api.github.com/graphql": dial tcp 140.82.112.6:443: connect: connection refused`, state.OfflineMax},
		{`HTTP 502: 502 Bad Gateway (https://api.github.com/graphql)`, state.BackoffMax},
	} {
		r := newRig(t)
		r.gh.set(`printf '` + c.stderr + `\n' >&2; exit 1`)
		var longest time.Duration
		for i := 0; i < 8; i++ {
			r.background(t)
			s := r.status()
			wait := s.NextAttemptAt.Sub(r.now)
			longest = max(longest, wait)
			if wait > c.max {
				t.Fatalf("%s: failure %d waits %v", s.LastOutcome.Category, i+1, wait)
			}
			r.now = *s.NextAttemptAt
		}
		if longest < c.max*8/10 {
			t.Errorf("%q: backoff never grew near %v: %v", c.stderr, c.max, longest)
		}
	}
}

// Merged and closed PRs and "no PR" are refreshed less often; an
// invalidation (after git or gh) still refreshes at once.
func TestSettledResultsRefreshLessOften(t *testing.T) {
	for _, body := range []string{
		`echo '{"number":4,"title":"t","state":"MERGED","isDraft":false,"url":"u"}'`,
		`echo '{"number":4,"title":"t","state":"CLOSED","isDraft":false,"url":"u"}'`,
		`echo 'no pull requests found for branch "feature"' >&2; exit 1`,
	} {
		r := newRig(t)
		r.gh.set(body)
		r.background(t)
		r.now = r.now.Add(2 * time.Minute)
		if r.wantsRefresh(t) {
			t.Fatalf("%s: refresh wanted 2 min after a settled result", body)
		}
		if _, err := r.env.Invalidate(r.facts(), ""); err != nil {
			t.Fatal(err)
		}
		if !r.wantsRefresh(t) {
			t.Fatalf("%s: no refresh after an invalidation", body)
		}
		r.background(t)
		r.now = r.now.Add(r.env.Config.SettledRefreshInterval + time.Second)
		if !r.wantsRefresh(t) {
			t.Fatalf("%s: no refresh after the settled interval", body)
		}
	}
	// An open PR still refreshes after refresh_interval.
	r := newRig(t)
	r.gh.set(`echo '{"number":4,"title":"t","state":"OPEN","isDraft":false,"url":"u"}'`)
	r.background(t)
	r.now = r.now.Add(r.env.Config.RefreshInterval + time.Second)
	if !r.wantsRefresh(t) {
		t.Fatal("open PR not refreshed after refresh_interval")
	}
}

// A refresh's budget covers every gh call the PR chip may make: the view,
// its retry without refused fields, the merge queue, and the version or
// rate-limit question.
func TestRunBudgetCoversEveryCall(t *testing.T) {
	p := Policies(config.Defaults(""))[0]
	calls := 4*p.Timeout + 2*2*time.Second
	if b := RunBudget(p); b <= calls {
		t.Fatalf("budget %v for calls that may take %v", b, calls)
	}
	sh := state.Policy{Kind: state.KindShell, Timeout: time.Second}
	if b := RunBudget(sh); b < sh.Timeout {
		t.Fatalf("shell chip budget %v", b)
	}
}

// A deadline on a refresh's context (Refresh holds each chip's run to its
// RunBudget that way) ends the lookup as a recorded timeout, not as a
// refresh stopped from outside with nothing recorded.
func TestRefreshDeadlineIsARecordedTimeout(t *testing.T) {
	r := newRig(t)
	r.env.Config.Timeout = 2 * time.Second
	r.gh.set(`sleep 1; echo '{"number":1,"state":"OPEN","title":"t","url":"https://github.com/o/r/pull/1"}'`)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := r.env.Refresh(ctx, r.facts(), RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("the refresh ran %v past a 0.5 s deadline", d)
	}
	s := r.status()
	if s.LastOutcome == nil || s.LastOutcome.Category != classify.CatTimeout || !s.LastOutcome.TimedOut {
		t.Fatalf("outcome %+v, want a recorded timeout", s.LastOutcome)
	}
}

// The human status says the merge facts that --json has.
func TestHumanStatusShowsMergeFacts(t *testing.T) {
	st, yes, fail, sync := "conflicts", true, "build", "not_fetched"
	s := &Status{Dir: "/d", PR: &StatusPR{Number: 8, Title: "t", State: "open", MergeState: &st, AutoMerge: &yes,
		ChecksCounts: &pull.CheckCounts{Passing: 3, Failing: 1}, FailingCheck: &fail, Sync: &sync,
		Queue: &pull.Queue{Position: 2, State: "awaiting_checks"}}}
	var b strings.Builder
	s.WriteHuman(&b)
	for _, want := range []string{"merge state conflicts", "auto-merge on", "checks 3 passing, 1 failing, 0 pending",
		"first failing: build", "local branch not fetched", "merge queue position 2 (awaiting checks)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("status lacks %q:\n%s", want, b.String())
		}
	}
}

// A refresh in a repository whose objects are beyond what sync reads
// (alternates nested deeper than git allows, the PR's head at the end of
// them) records the PR with sync unknown, and status says so, instead of
// a wrong "not fetched" or a refresh that never ends.
func TestSyncBeyondBoundsIsRecordedUnknown(t *testing.T) {
	r := newRig(t)
	r.commit(t)
	r.env.Config.Format = "#{number}( {sync})"
	objects := filepath.Join(r.repo, ".git", "objects")
	prev := objects
	for i := 0; i < 8; i++ {
		next := filepath.Join(r.repo, ".git", "alt"+strconv.Itoa(i))
		os.MkdirAll(filepath.Join(prev, "info"), 0o755)
		os.MkdirAll(next, 0o755)
		os.WriteFile(filepath.Join(prev, "info", "alternates"), []byte(next+"\n"), 0o644)
		prev = next
	}
	head := "0123456789abcdef0123456789abcdef01234567"
	r.gh.set(`echo '{"number":4,"title":"t","state":"OPEN","isDraft":false,"url":"u","headRefOid":"` + head + `"}'`)
	r.background(t)
	s := r.status()
	if s.PR == nil || s.PR.Sync == nil || *s.PR.Sync != "unknown" {
		t.Fatalf("pr %+v", s.PR)
	}
	if s.Chip != "#4" {
		t.Errorf("chip %q, want #4 (unknown sync shows nothing)", s.Chip)
	}
	var b strings.Builder
	s.WriteHuman(&b)
	if !strings.Contains(b.String(), "local branch against the PR unknown") {
		t.Errorf("human status:\n%s", b.String())
	}
}

// A template that needs a field the stored result was not asked with
// makes that result stale at once (SPEC 5), for an open PR, a merged one
// and no PR alike, however fresh; a template change that needs nothing new
// does not, and neither does a field the installed gh refused.
func TestTemplateNeedingNewFieldsIsStale(t *testing.T) {
	cases := []struct {
		name, body string
	}{
		{"open PR", `echo '{"number":4,"title":"t","state":"OPEN","isDraft":false,"url":"u","reviewDecision":"APPROVED"}'`},
		{"merged PR", `echo '{"number":4,"title":"t","state":"MERGED","isDraft":false,"url":"u","reviewDecision":"APPROVED"}'`},
		{"no PR", `echo 'no pull requests found for branch "feature"' >&2; exit 1`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t)
			r.gh.set(c.body)
			r.background(t)
			r.now = r.now.Add(10 * time.Second)
			if r.wantsRefresh(t) {
				t.Fatal("refresh wanted while fresh")
			}
			r.env.Config.Format = "#{number} {title}( {state})"
			if r.wantsRefresh(t) {
				t.Fatal("a template needing no new field made the result stale")
			}
			r.env.Config.Format = "#{number}( {review})"
			if !r.wantsRefresh(t) {
				t.Fatal("{review} added: no refresh wanted")
			}
			r.background(t)
			if r.wantsRefresh(t) {
				t.Fatal("still stale after the refresh asked for the new field")
			}
			if c.name == "open PR" {
				if s := r.status(); s.Chip != "#4 approved" {
					t.Fatalf("chip %q", s.Chip)
				}
			}
		})
	}
	t.Run("field the installed gh refuses", func(t *testing.T) {
		r := newRig(t)
		r.env.Config.Format = "#{number}( {auto_merge})"
		r.gh.set(`case "$*" in *autoMergeRequest*)
printf 'Unknown JSON field: "autoMergeRequest"\nAvailable fields:\n  isDraft\n  number\n  state\n  title\n  url\n' >&2; exit 1;;
esac
echo '{"number":8,"title":"t","state":"OPEN","isDraft":false,"url":"u"}'`)
		r.background(t)
		r.now = r.now.Add(10 * time.Second)
		if r.wantsRefresh(t) {
			t.Fatal("a field gh refused keeps the result stale")
		}
	})
}
