package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

// a. A PR exists.
func TestE2E_A_PullRequestExists(t *testing.T) {
	eachGh(t, func(t *testing.T, w *world) {
		w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "Add the chip"})
		r := w.refresh(w.repo, 0)
		if !strings.Contains(r.stdout, "#42") {
			t.Errorf("refresh output %q does not name #42", r.stdout)
		}
		s := w.status(w.repo)
		if s.Validation != "validated" || s.PR == nil || s.PR.Number != 42 || s.Chip != "#42" {
			t.Fatalf("status: validation %q pr %+v chip %q", s.Validation, s.PR, s.Chip)
		}
		if s.PR.Title != "Add the chip" || s.class() != "validated" {
			t.Errorf("pr %+v class %s", s.PR, s.class())
		}
		// gh's version was learned by the refresh; status itself runs nothing.
		ver := exec.Command(w.ghPath, "--version")
		ver.Env = w.env() // gh reads its config dir before it prints a version
		out, _ := ver.Output()
		if v, _ := s.Raw["gh"].(map[string]any)["version"].(string); v == "" || !strings.HasPrefix(strings.Replace(string(out), "\n", " ", 1), "gh version "+v+" ") {
			t.Errorf("gh.version %q, gh says %q", v, out)
		}
		if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != "#42" {
			t.Errorf("prompt printed %q, want #42", got)
		}
		if w.prRequests() != 1 {
			t.Errorf("server saw %d requests, want 1", w.prRequests())
		}
	})
}

// b. No PR for the branch: validated, chip empty.
func TestE2E_B_NoPullRequest(t *testing.T) {
	eachGh(t, func(t *testing.T, w *world) {
		w.refresh(w.repo, 0)
		s := w.status(w.repo)
		if s.Validation != "validated" || s.Chip != "" || s.PR != nil || s.category() != "no_pull_request" {
			t.Fatalf("validation %q chip %q pr %+v category %s", s.Validation, s.Chip, s.PR, s.category())
		}
		if w.prRequests() != 1 {
			t.Errorf("server saw %d requests", w.prRequests())
		}
	})
}

// c. 401 Bad credentials: auth failure, suppressed and cached; a second
// refresh sends nothing; --force does.
func TestE2E_C_BadCredentials(t *testing.T) {
	eachGh(t, func(t *testing.T, w *world) {
		w.srv.SetMode(fakegithub.BadCreds)
		w.refresh(w.repo, 4)
		s := w.status(w.repo)
		if s.class() != "auth_failure" || s.category() != "bad_credentials" || s.Validation != "suppressed" || !s.FailureCached {
			t.Fatalf("class %s/%s validation %q failure_cached %v", s.class(), s.category(), s.Validation, s.FailureCached)
		}
		// The token comes from GH_TOKEN, while which gh refuses
		// `gh auth login`: the advice names the variable instead.
		if len(s.RecoveryActions) == 0 || !strings.HasPrefix(s.RecoveryActions[0], "fix or unset GH_TOKEN") {
			t.Errorf("recovery actions %v", s.RecoveryActions)
		}
		// Every request counts here: the first refused is the lookup's
		// question whether the repository is a fork.
		n := w.srv.Requests()
		if n != 1 {
			t.Fatalf("server saw %d requests, want 1", n)
		}
		r := w.refresh(w.repo, 4)
		if !strings.Contains(r.stdout, "skipped") {
			t.Errorf("second refresh said %q", r.stdout)
		}
		if w.srv.Requests() != n {
			t.Fatalf("second refresh sent a request")
		}
		// The render path neither shows nor starts anything.
		if out := w.run(w.repo, "prompt").stdout; out != "" {
			t.Errorf("prompt printed %q while suppressed", out)
		}
		time.Sleep(300 * time.Millisecond)
		if w.srv.Requests() != n {
			t.Fatalf("prompt started a refresh while suppressed")
		}
		w.refresh(w.repo, 4, "--force")
		if w.srv.Requests() != n+1 {
			t.Fatalf("refresh --force sent %d requests, want 1", w.srv.Requests()-n)
		}
		// Fixed server: --force validates and lifts everything.
		w.srv.SetMode(fakegithub.OK)
		w.refresh(w.repo, 0, "--force")
		if s := w.status(w.repo); s.Validation != "validated" || s.FailureCached {
			t.Errorf("after a good forced refresh: %q cached %v", s.Validation, s.FailureCached)
		}
	})
}

// d. Connection refused: retryable, nothing suppressed or cached, and the
// next refresh on the same branch succeeds once the server is back.
func TestE2E_D_ServerDown(t *testing.T) {
	eachGh(t, func(t *testing.T, w *world) {
		w.srv.SetPR("feature", fakegithub.PR{Number: 7, Title: "seven"})
		w.refresh(w.repo, 0)
		before := w.status(w.repo)
		w.srv.Stop()
		w.refresh(w.repo, 1)
		s := w.status(w.repo)
		if s.class() != "retryable" || s.category() != "offline" {
			t.Fatalf("class %s/%s detail %q", s.class(), s.category(), s.LastOutcome.Detail)
		}
		if s.Validation != before.Validation || s.FailureCached {
			t.Fatalf("validation %q (was %q) failure_cached %v", s.Validation, before.Validation, s.FailureCached)
		}
		if s.Fingerprint != before.Fingerprint {
			t.Fatalf("fingerprint changed: the retry below would not prove anything")
		}
		if err := w.srv.Restart(); err != nil {
			t.Fatal(err)
		}
		w.refresh(w.repo, 0)
		if s := w.status(w.repo); s.Chip != "#7" {
			t.Fatalf("after restart chip %q", s.Chip)
		}
	})
}

// e. The server never answers: refresh gives up within 6 s, timeout,
// retryable, and no gh is left.
func TestE2E_E_ServerHangs(t *testing.T) {
	w := newWorld(t)
	w.srv.SetMode(fakegithub.Hang)
	r := w.refresh(w.repo, 1)
	if r.took > 6*time.Second {
		t.Errorf("refresh took %v", r.took)
	}
	s := w.status(w.repo)
	if s.class() != "retryable" || s.category() != "timeout" || !s.LastOutcome.TimedOut || s.FailureCached || s.Validation == "suppressed" {
		t.Fatalf("class %s/%s timed_out %v cached %v validation %s", s.class(), s.category(), s.LastOutcome.TimedOut, s.FailureCached, s.Validation)
	}
	if pids := ghProcesses(w.repo); len(pids) > 0 {
		t.Fatalf("gh processes left running: %v", pids)
	}
}

// f. Rate limit and 502: retryable with their categories; a rate limit
// waits for its reset (which gh does not print: prchip asks GitHub's
// rate_limit endpoint through the real gh), backoff grows with repeated
// failures and a success resets it.
func TestE2E_F_RateLimitAndOutage(t *testing.T) {
	eachGh(t, func(t *testing.T, w *world) {
		w.srv.SetMode(fakegithub.RateLimited)
		w.refresh(w.repo, 1)
		s1 := w.status(w.repo)
		if s1.class() != "retryable" || s1.category() != "rate_limited" || s1.FailureCached || s1.Validation == "suppressed" {
			t.Fatalf("rate limit: %s/%s cached %v validation %s", s1.class(), s1.category(), s1.FailureCached, s1.Validation)
		}
		w.srv.SetMode(fakegithub.BadGateway)
		w.refresh(w.repo, 1)
		s2 := w.status(w.repo)
		if s2.class() != "retryable" || s2.category() != "github_unavailable" {
			t.Fatalf("502: %s/%s", s2.class(), s2.category())
		}
		w.refresh(w.repo, 1)
		s3 := w.status(w.repo)
		if s1.NextAttemptAt == nil || s2.NextAttemptAt == nil || s3.NextAttemptAt == nil {
			t.Fatalf("next_attempt_at missing: %v %v %v", s1.NextAttemptAt, s2.NextAttemptAt, s3.NextAttemptAt)
		}
		// The rate limit: until its reset. Backoff n: 30 s doubling, ±20%
		// jitter: 3 -> 96..144 s.
		wait1 := s1.NextAttemptAt.Sub(s1.LastOutcome.At)
		wait3 := s3.NextAttemptAt.Sub(s3.LastOutcome.At)
		if wait1 < fakegithub.RateLimitReset-time.Minute || wait1 > fakegithub.RateLimitReset+time.Minute ||
			len(s1.RecoveryActions) == 0 || !strings.HasPrefix(s1.RecoveryActions[0], "wait until ") {
			t.Fatalf("rate limit: next attempt after %v, recovery %q", wait1, s1.RecoveryActions)
		}
		if wait3 < 95*time.Second || wait3 > 145*time.Second {
			t.Fatalf("backoff after 3 failures %v", wait3)
		}
		// While backing off the render path does not refresh.
		n := w.prRequests()
		w.run(w.repo, "prompt")
		time.Sleep(300 * time.Millisecond)
		if w.prRequests() != n {
			t.Fatalf("render refreshed during backoff")
		}
		w.srv.SetMode(fakegithub.OK)
		w.srv.SetPR("feature", fakegithub.PR{Number: 3})
		w.refresh(w.repo, 0)
		s4 := w.status(w.repo)
		if s4.Chip != "#3" || s4.Raw["consecutive_failures"] != float64(0) {
			t.Fatalf("after success chip %q failures %v", s4.Chip, s4.Raw["consecutive_failures"])
		}
		if wait := s4.NextAttemptAt.Sub(s4.LastOutcome.At); wait > 31*time.Second {
			t.Fatalf("after success next attempt in %v: backoff not reset", wait)
		}
	})
}

// g. gh missing: suppressed; gh appears: the next refresh runs and validates.
func TestE2E_G_MissingGh(t *testing.T) {
	w := newWorld(t)
	os.Remove(filepath.Join(w.bin, "gh"))
	w.refresh(w.repo, 4)
	s := w.status(w.repo)
	if s.class() != "missing_gh" || s.category() != "gh_missing" || s.Validation != "suppressed" || s.Gh.Found {
		t.Fatalf("class %s/%s validation %s found %v", s.class(), s.category(), s.Validation, s.Gh.Found)
	}
	if len(s.RecoveryActions) == 0 || s.RecoveryActions[0] != "install gh" {
		t.Errorf("recovery %v", s.RecoveryActions)
	}
	// Still missing: skipped, not re-run.
	if r := w.refresh(w.repo, 4); !strings.Contains(r.stdout, "skipped") {
		t.Errorf("second refresh: %q", r.stdout)
	}
	if err := os.Symlink(w.ghPath, filepath.Join(w.bin, "gh")); err != nil {
		t.Fatal(err)
	}
	w.srv.SetPR("feature", fakegithub.PR{Number: 5})
	w.refresh(w.repo, 0)
	if s := w.status(w.repo); s.Validation != "validated" || s.Chip != "#5" {
		t.Fatalf("after gh appeared: %s chip %q", s.Validation, s.Chip)
	}
}

// h. Not applicable: non-GitHub remote, detached HEAD, outside a repository.
func TestE2E_H_NotApplicable(t *testing.T) {
	w := newWorld(t)
	gitlab := w.newRepo("gitlab", "feature", "https://gitlab.com/octo/demo.git")
	detached := w.newRepo("detached", "feature", "https://"+fakegithub.Host+"/octo/demo.git")
	w.git(detached, "checkout", "-q", "--detach")
	outside := filepath.Join(w.home, "plain")
	os.MkdirAll(outside, 0o755)
	cases := []struct{ name, dir, category string }{
		{"non-GitHub remote", gitlab, "no_github_remote"},
		{"detached HEAD", detached, "detached_head"},
		{"outside a repository", outside, "not_a_repository"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := w.status(c.dir).Validation
			r := w.refresh(c.dir, 0)
			if !strings.Contains(r.stdout, "not_applicable") {
				t.Errorf("refresh said %q", r.stdout)
			}
			s := w.status(c.dir)
			if s.class() != "not_applicable" || s.category() != c.category || s.Validation != before || s.Chip != "" {
				t.Fatalf("%s/%s validation %s (was %s) chip %q", s.class(), s.category(), s.Validation, before, s.Chip)
			}
			w.run(c.dir, "prompt")
			if w.prRequests() != 0 {
				t.Fatalf("gh reached the server %d times", w.prRequests())
			}
		})
	}
}

// i. After an auth failure, a new GH_TOKEN lifts the suppression.
func TestE2E_I_TokenChangeLiftsSuppression(t *testing.T) {
	w := newWorld(t)
	w.srv.SetMode(fakegithub.BadCreds)
	w.refresh(w.repo, 4)
	if s := w.status(w.repo); s.Validation != "suppressed" {
		t.Fatalf("validation %s", s.Validation)
	}
	w.srv.SetMode(fakegithub.OK)
	w.srv.SetPR("feature", fakegithub.PR{Number: 9})
	w.extra["GH_TOKEN"] = "a-new-token"
	s := w.status(w.repo)
	if s.Validation != "unvalidated" || s.FailureCached {
		t.Fatalf("after token change: validation %s cached %v", s.Validation, s.FailureCached)
	}
	w.refresh(w.repo, 0)
	if s := w.status(w.repo); s.Validation != "validated" || s.Chip != "#9" {
		t.Fatalf("validation %s chip %q", s.Validation, s.Chip)
	}
}

// An SSH remote through an alias of ~/.ssh/config (Host github-work,
// HostName github.localhost) is a GitHub remote: prchip resolves the alias
// itself, and the real gh resolves it with `ssh -G` (a fake ssh here, which
// answers from the same mapping: gh never connects, it only asks). An
// alias for a non-GitHub host stays not applicable, and gh is not run.
func TestSSHAliasRemote(t *testing.T) {
	w := newWorld(t)
	os.MkdirAll(filepath.Join(w.home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(w.home, ".ssh", "config"), []byte(
		"Host github-work\n  HostName "+fakegithub.Host+"\n  User git\nHost lab\n  HostName gitlab.com\n"), 0o600)
	ssh := "#!/bin/sh\n" +
		"[ \"$1\" = -G ] || exit 255\n" +
		"case $2 in github-work) echo 'hostname " + fakegithub.Host + "' ;; lab) echo 'hostname gitlab.com' ;; *) echo \"hostname $2\" ;; esac\n"
	if err := os.WriteFile(filepath.Join(w.bin, "ssh"), []byte(ssh), 0o755); err != nil {
		t.Fatal(err)
	}
	w.git(w.repo, "remote", "set-url", "origin", "git@github-work:octo/demo.git")
	w.srv.SetPR("feature", fakegithub.PR{Number: 42})
	r := w.refresh(w.repo, 0)
	if !strings.Contains(r.stdout, "#42") {
		t.Fatalf("refresh through the alias: %q %q", r.stdout, r.stderr)
	}
	s := w.status(w.repo)
	if s.Chip != "#42" || s.Repo == nil || s.Repo.Host != fakegithub.Host || s.Repo.RemoteURL != "git@github-work:octo/demo.git" {
		t.Fatalf("status: chip %q repo %+v", s.Chip, s.Repo)
	}
	if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != "#42" {
		t.Fatalf("prompt printed %q", got)
	}
	lab := w.newRepo("lab", "feature", "git@lab:octo/demo.git")
	w.refresh(lab, 0)
	if s := w.status(lab); s.category() != "no_github_remote" || w.prRequests() != 1 {
		t.Fatalf("alias for gitlab: %s/%s, %d requests", s.class(), s.category(), w.prRequests())
	}
}

// status says where gh would take a token from, never the token: the
// variable, hosts.yml, or neither.
func TestStatusTokenSource(t *testing.T) {
	w := newWorld(t)
	secret := "ghp_" + strings.Repeat("S", 36)
	cfgDir := filepath.Join(w.home, "ghconfig")
	for _, c := range []struct {
		name  string
		env   map[string]string
		hosts string
		want  string
	}{
		{"GH_TOKEN", map[string]string{"GH_TOKEN": secret}, "", "GH_TOKEN"},
		{"GITHUB_TOKEN", map[string]string{"GH_TOKEN": "\x00", "GITHUB_TOKEN": secret}, "", "GITHUB_TOKEN"},
		{"hosts.yml", map[string]string{"GH_TOKEN": "\x00"}, fakegithub.Host + ":\n    oauth_token: " + secret + "\n    user: octo\n", "hosts.yml"},
		{"none", map[string]string{"GH_TOKEN": "\x00"}, fakegithub.Host + ":\n    user: octo\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				w.extra[k] = v
			}
			defer func() {
				for k := range c.env {
					delete(w.extra, k)
				}
			}()
			os.MkdirAll(cfgDir, 0o700)
			os.Remove(filepath.Join(cfgDir, "hosts.yml"))
			if c.hosts != "" {
				os.WriteFile(filepath.Join(cfgDir, "hosts.yml"), []byte(c.hosts), 0o600)
			}
			r := w.run(w.repo, "status", "--json")
			if strings.Contains(r.stdout, "SSSS") {
				t.Fatalf("status printed the token:\n%s", r.stdout)
			}
			gh, _ := w.status(w.repo).Raw["gh"].(map[string]any)
			if got := gh["token_source"]; got != c.want {
				t.Fatalf("token_source %v, want %q", got, c.want)
			}
			human := w.run(w.repo, "status").stdout
			if strings.Contains(human, "SSSS") || (c.want != "" && !strings.Contains(human, "token from "+c.want)) {
				t.Fatalf("human status:\n%s", human)
			}
		})
	}
}

// A repository whose own config quotes gh's auth words (gh passes git's
// message through) cannot suppress the chip in every repository.
func TestRepositoryCannotSuppressTheChip(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 42})
	w.refresh(w.repo, 0)
	hostile := w.newRepo("hostile", "feature", "https://"+fakegithub.Host+"/octo/hostile.git")
	w.git(hostile, "config", "remote.origin.mirror", "bad credentials")
	r := w.run(hostile, "refresh", "--force")
	s := w.status(hostile)
	if s.class() == "auth_failure" || s.Validation == "suppressed" {
		t.Fatalf("a repository's config value suppressed the chip: %s/%s, validation %s\n%s", s.class(), s.category(), s.Validation, r.stdout)
	}
	if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != "#42" {
		t.Fatalf("the chip elsewhere is %q after the hostile repository's refresh", got)
	}
}

// With GH_HOST set, a repository whose remotes are all elsewhere is not
// applicable, decided without running gh.
func TestGHHostDecidedLocally(t *testing.T) {
	w := newWorld(t) // GH_HOST=github.localhost
	other := w.newRepo("dotcom", "feature", "https://github.com/octo/dotcom.git")
	r := w.refresh(other, 0)
	s := w.status(other)
	if s.class() != "not_applicable" || s.category() != "no_github_remote" {
		t.Fatalf("%s/%s\n%s", s.class(), s.category(), r.stdout)
	}
	if strings.Contains(s.LastOutcome.Detail, "environment variable") || s.LastOutcome.ExitCode != nil {
		t.Fatalf("gh was asked: %+v", s.LastOutcome)
	}
	if n := w.prRequests(); n != 0 {
		t.Fatalf("the server saw %d requests", n)
	}
}

// GH_REPO points gh at another repository, as gh does: the real gh looks
// the branch up there, the result is kept apart from this repository's own,
// and neither is ever shown as the other.
func TestGhRepoIsKeptApart(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 42})
	// The branch's PR into GH_REPO's repository: its head is this
	// repository's branch (SPEC 3), a PR across repositories.
	w.srv.SetRepoPR("octo/upstream", "feature", fakegithub.PR{Number: 9, HeadOwner: "octo", HeadRepo: "demo"})
	w.refresh(w.repo, 0)
	if s := w.status(w.repo); s.Chip != "#42" {
		t.Fatalf("own repository chip %q", s.Chip)
	}
	w.extra["GH_REPO"] = "octo/upstream"
	if s := w.status(w.repo); s.Chip != "" {
		t.Fatalf("with GH_REPO set the own repository's PR is shown: %q", s.Chip)
	}
	w.refresh(w.repo, 0)
	if s := w.status(w.repo); s.Chip != "#9" || s.PR == nil || !strings.Contains(s.PR.URL, "/octo/upstream/pull/9") {
		t.Fatalf("GH_REPO chip %q pr %+v", s.Chip, s.PR)
	}
	delete(w.extra, "GH_REPO")
	if s := w.status(w.repo); s.Chip != "#42" {
		t.Fatalf("GH_REPO's PR shown as this repository's: %q", s.Chip)
	}
	// A GH_REPO gh would refuse: nothing shown, gh not run.
	w.extra["GH_REPO"] = "not a repo"
	before := w.prRequests()
	w.refresh(w.repo, 0)
	if s := w.status(w.repo); s.Chip != "" || s.category() != "no_github_remote" || w.prRequests() != before {
		t.Fatalf("bad GH_REPO: chip %q category %s requests %d->%d", s.Chip, s.category(), before, w.prRequests())
	}
}
