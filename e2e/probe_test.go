package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

// probeWorld is a world whose results are due again after one second (the
// cadence's step here), with the branch's open PR #42 on the server and
// one full refresh made.
func probeWorld(t *testing.T, w *world, cfg string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(w.configPath()), 0o755)
	if cfg == "" {
		cfg = "refresh_interval = \"1s\"\nsettled_refresh_interval = \"1s\"\n"
	}
	if err := os.WriteFile(w.configPath(), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "one", HeadOid: w.head(w.repo), MergeState: "CLEAN"})
	w.refresh(w.repo, 0)
}

// step waits one cadence step and runs the refresh a prompt would start
// (`prchip __refresh ROOT`: Decide applies, as in the background).
func (w *world) step(t *testing.T) {
	t.Helper()
	time.Sleep(1100 * time.Millisecond)
	if r := w.run(w.repo, "__refresh", w.repo); r.code != 0 {
		t.Fatalf("__refresh: exit %d: %s", r.code, r.stderr)
	}
}

// probeStatus is status's probe key.
func (s status) probe() map[string]any {
	p, _ := s.Raw["probe"].(map[string]any)
	return p
}

// TestE2E_ProbeShowsChangeWithinOneStep: between full refreshes a due
// refresh is a conditional probe through the real gh (gh api -i with
// If-None-Match); the first learns the ETag, the next gets a 304, which is
// no error and costs no GraphQL request, and a change on the server (a
// new title) shows at the next step through one gh pr view.
func TestE2E_ProbeShowsChangeWithinOneStep(t *testing.T) {
	eachGh(t, func(t *testing.T, w *world) {
		probeWorld(t, w, "")
		gql := w.prRequests()
		w.step(t)
		s := w.status(w.repo)
		if p := s.probe(); p == nil || p["answer"] != "baseline" || p["why"] != "quiet" {
			t.Fatalf("after the first probe: %v", s.Raw["probe"])
		}
		w.step(t)
		s = w.status(w.repo)
		if p := s.probe(); p["answer"] != "unchanged" {
			t.Fatalf("after the second probe: %v", s.Raw["probe"])
		}
		if s.class() != "validated" || s.Chip != "#42" || s.PR == nil || s.PR.Title != "one" {
			t.Fatalf("a 304 changed the result: class %s chip %q pr %+v", s.class(), s.Chip, s.PR)
		}
		rest := w.srv.REST()
		if got := w.prRequests(); got != gql || rest.Requests != 2 || rest.NotModified != 1 || rest.Conditional != 1 {
			t.Fatalf("probes cost %d GraphQL requests, REST %+v", got-gql, rest)
		}
		if !strings.HasPrefix(rest.Paths[0], "/repos/octo/demo/pulls/42") {
			t.Errorf("probed %v, want the PR the lookup found, by number", rest.Paths)
		}
		w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "two", HeadOid: w.head(w.repo), MergeState: "CLEAN"})
		w.step(t)
		s = w.status(w.repo)
		if s.PR == nil || s.PR.Title != "two" || s.probe()["answer"] != "changed" {
			t.Fatalf("the change did not show within one step: pr %+v probe %v", s.PR, s.Raw["probe"])
		}
		if got := w.prRequests(); got != gql+1 {
			t.Errorf("the change cost %d GraphQL requests, want 1 (gh pr view)", got-gql)
		}
	})
}

// TestE2E_ProbeNoPRAsksTheHead: with no PR the probe asks for the head's
// PRs (pulls?head=OWNER:BRANCH&state=all), and a PR opened by someone
// else shows at the next step.
func TestE2E_ProbeNoPRAsksTheHead(t *testing.T) {
	eachGh(t, func(t *testing.T, w *world) {
		os.MkdirAll(filepath.Dir(w.configPath()), 0o755)
		os.WriteFile(w.configPath(), []byte("refresh_interval = \"1s\"\nsettled_refresh_interval = \"1s\"\n"), 0o600)
		w.refresh(w.repo, 0)
		w.step(t)
		w.step(t)
		rest := w.srv.REST()
		if rest.NotModified != 1 || len(rest.Paths) != 2 || rest.Paths[1] != "/repos/octo/demo/pulls?head=octo%3Afeature&state=all" {
			t.Fatalf("REST %+v", rest)
		}
		w.srv.SetPR("feature", fakegithub.PR{Number: 43, Title: "opened", HeadOid: w.head(w.repo)})
		w.step(t)
		if s := w.status(w.repo); s.Chip != "#43" {
			t.Fatalf("the new PR did not show: chip %q probe %v", s.Chip, s.Raw["probe"])
		}
	})
}

// TestE2E_ProbeFallsBackWithoutConditional: behind a proxy that drops
// If-None-Match every probe gets a 200 with the same ETag; after two,
// prchip refreshes in full on that host and status says so.
func TestE2E_ProbeFallsBackWithoutConditional(t *testing.T) {
	eachGh(t, func(t *testing.T, w *world) {
		w.srv.DropConditional(true)
		probeWorld(t, w, "")
		gql := w.prRequests()
		w.step(t) // baseline
		w.step(t) // ignored once
		if got := w.status(w.repo).probe(); got["answer"] != "conditional requests ignored" || got["fallback"] != false {
			t.Fatalf("after one ignored probe: %v", got)
		}
		w.step(t) // ignored twice: falls back, and refreshes in full
		s := w.status(w.repo)
		if p := s.probe(); p["fallback"] != true || !strings.Contains(p["why"].(string), "plain refreshes") {
			t.Fatalf("no fallback: %v", s.Raw["probe"])
		}
		r := w.run(w.repo, "status")
		if !strings.Contains(r.stdout, "ignored conditional requests") {
			t.Errorf("human status does not say so:\n%s", r.stdout)
		}
		restBefore := w.srv.REST().Requests
		w.step(t)
		if got := w.prRequests(); got != gql+2 || w.srv.REST().Requests != restBefore {
			t.Errorf("after the fallback: %d GraphQL requests (want 2), REST %d -> %d", got-gql, restBefore, w.srv.REST().Requests)
		}
		if s := w.status(w.repo); s.Chip != "#42" || s.class() != "validated" {
			t.Errorf("chip %q class %s", s.Chip, s.class())
		}
	})
}

// TestE2E_ProbeFailuresClassified: a probe's failure is classified like
// any gh run: 401 is an auth failure (suppressed, cached), a rate limit
// is rate_limited and waits for the reset GitHub's headers give, a 502 is
// github_unavailable.
func TestE2E_ProbeFailuresClassified(t *testing.T) {
	for _, c := range []struct {
		mode            fakegithub.Mode
		class, category string
	}{
		{fakegithub.BadCreds, "auth_failure", "bad_credentials"},
		{fakegithub.RateLimited, "retryable", "rate_limited"},
		{fakegithub.BadGateway, "retryable", "github_unavailable"},
	} {
		t.Run(c.category, func(t *testing.T) {
			eachGh(t, func(t *testing.T, w *world) {
				probeWorld(t, w, "")
				gql := w.srv.Requests()
				w.srv.SetMode(c.mode)
				w.step(t)
				s := w.status(w.repo)
				if s.class() != c.class || s.category() != c.category {
					t.Fatalf("class %s/%s, want %s/%s (probe %v)", s.class(), s.category(), c.class, c.category, s.Raw["probe"])
				}
				if w.srv.Requests() != gql || w.srv.REST().Requests != 1 {
					t.Errorf("the failed probe was not the only request: GraphQL +%d, REST %d", w.srv.Requests()-gql, w.srv.REST().Requests)
				}
				if c.mode == fakegithub.RateLimited {
					if s.NextAttemptAt == nil || s.NextAttemptAt.Sub(time.Now()) < 50*time.Minute {
						t.Errorf("rate limit: next attempt %v, want the reset an hour ahead", s.NextAttemptAt)
					}
				}
				if c.mode == fakegithub.BadCreds && (s.Validation != "suppressed" || !s.FailureCached) {
					t.Errorf("auth failure: validation %q cached %v", s.Validation, s.FailureCached)
				}
			})
		})
	}
}

// TestE2E_AfterGitAProbeAfterGhAFullRefresh: the first refresh after the
// user's git command (the hooks run `prchip invalidate --probe`) probes at
// once, well inside the freshness period; after gh or gt (`prchip
// invalidate`) it runs gh pr view at once, as before probes.
func TestE2E_AfterGitAProbeAfterGhAFullRefresh(t *testing.T) {
	eachGh(t, func(t *testing.T, w *world) {
		probeWorld(t, w, "refresh_interval = \"1h\"\nsettled_refresh_interval = \"1h\"\n")
		gql := w.prRequests()
		w.run(w.repo, "__refresh", w.repo)
		if w.srv.REST().Requests != 0 || w.prRequests() != gql {
			t.Fatalf("a fresh result was refreshed: REST %+v", w.srv.REST())
		}
		w.run(w.repo, "invalidate", "--probe")
		if s := w.status(w.repo); s.probe()["why"] != "after a git command" || s.Raw["skipped"] != nil {
			t.Errorf("after git: probe %v, skipped %v", s.Raw["probe"], s.Raw["skipped"])
		}
		w.run(w.repo, "__refresh", w.repo)
		if w.srv.REST().Requests != 1 || w.prRequests() != gql {
			t.Fatalf("after git: REST %+v, GraphQL +%d; want one probe", w.srv.REST(), w.prRequests()-gql)
		}
		w.run(w.repo, "__refresh", w.repo)
		if w.srv.REST().Requests != 1 {
			t.Errorf("the git command's probe was asked twice")
		}
		w.run(w.repo, "invalidate")
		w.run(w.repo, "__refresh", w.repo)
		if w.prRequests() != gql+1 || w.srv.REST().Requests != 1 {
			t.Errorf("after gh: GraphQL +%d, REST %d; want one gh pr view", w.prRequests()-gql, w.srv.REST().Requests)
		}
	})
}

// TestE2E_ProbeChecksAndBase: with a template that shows checks and the
// merge state, a probe also asks the base branch's ref and, while checks
// run, the head commit's check runs and status: checks that finish (the
// PR's own answer unchanged) and the base branch moving each bring one gh
// pr view at the next step; settled checks are no longer asked about.
func TestE2E_ProbeChecksAndBase(t *testing.T) {
	eachGh(t, func(t *testing.T, w *world) {
		os.MkdirAll(filepath.Dir(w.configPath()), 0o755)
		os.WriteFile(w.configPath(), []byte("refresh_interval = \"1s\"\nformat = \"#{number}( {checks})( {merge_state})\"\n"), 0o600)
		head := w.head(w.repo)
		pr := func(status, conclusion string) fakegithub.PR {
			return fakegithub.PR{Number: 42, Title: "t", HeadOid: head, MergeState: "BLOCKED",
				Checks: []fakegithub.Check{{Name: "build", Status: status, Conclusion: conclusion}}}
		}
		w.srv.SetPR("feature", pr("IN_PROGRESS", ""))
		w.refresh(w.repo, 0)
		asks, _ := w.status(w.repo).probe()["asks"].([]any)
		if len(asks) != 4 || asks[1] != "repos/octo/demo/git/ref/heads/main" || !strings.HasSuffix(asks[2].(string), head+"/check-runs") {
			t.Fatalf("probe asks %v", asks)
		}
		gql := w.prRequests()
		w.step(t) // baseline
		w.step(t) // 304s
		if got := w.prRequests(); got != gql || w.srv.REST().NotModified != 4 {
			t.Fatalf("unchanged: GraphQL +%d, REST %+v", got-gql, w.srv.REST())
		}
		w.srv.SetPR("feature", pr("COMPLETED", "SUCCESS"))
		w.step(t)
		s := w.status(w.repo)
		if got := w.prRequests(); got == gql || !strings.Contains(s.Chip, "passing") {
			t.Fatalf("checks finished: GraphQL +%d, chip %q", got-gql, s.Chip)
		}
		if asks, _ := s.probe()["asks"].([]any); len(asks) != 2 {
			t.Errorf("settled checks still asked about: %v", asks)
		}
		gql = w.prRequests()
		w.step(t) // baseline of the new targets
		w.step(t)
		if got := w.prRequests(); got != gql {
			t.Fatalf("nothing changed, yet GraphQL +%d", got-gql)
		}
		w.srv.MoveBranch("octo/demo", "main")
		w.step(t)
		if got := w.prRequests(); got != gql+1 {
			t.Errorf("the base branch moved: GraphQL +%d, want 1 (gh pr view)", got-gql)
		}
	})
}
