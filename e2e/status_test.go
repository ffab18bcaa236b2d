package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

// humanStatus is `prchip status`, checked to exit 0 and to be fit for a
// terminal.
func (w *world) humanStatus(dir string) string {
	w.t.Helper()
	r := w.run(dir, "status")
	if r.code != 0 || r.stderr != "" {
		w.t.Fatalf("status: exit %d: %s", r.code, r.stderr)
	}
	if bad := outputProblems(r.stdout); len(bad) > 0 {
		w.t.Fatalf("status: %s\n%s", strings.Join(bad, "; "), r.stdout)
	}
	return r.stdout
}

// mustMatch fails t unless out matches the regular expression re.
func mustMatch(t *testing.T, what, out, re string) {
	t.Helper()
	if !regexp.MustCompile(re).MatchString(out) {
		t.Fatalf("%s does not match %q:\n%s", what, re, out)
	}
}

// While a background refresh runs (the fake GitHub answers slowly), status
// says so, in both forms, without waiting for it; the refresh is not
// disturbed, records its PR, and status then says it is over. Status in a
// fresh state writes nothing, not even a lock.
func TestStatusShowsRefreshInFlight(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 31, Title: "slow"})
	if s := w.status(w.repo); s.Raw["refresh_in_flight"] != false {
		t.Fatalf("refresh_in_flight before any refresh: %v", s.Raw["refresh_in_flight"])
	}
	if _, err := os.Stat(filepath.Join(w.home, "state")); err == nil {
		t.Fatal("status wrote in the state directory")
	}
	w.srv.SetDelay(3 * time.Second)
	if r := w.run(w.repo, "prompt", "--shell", "plain"); r.code != 0 {
		t.Fatalf("prompt: %d %s", r.code, r.stderr)
	}
	deadline := time.Now().Add(2 * time.Second)
	for !w.refreshRunning() {
		if time.Now().After(deadline) {
			t.Fatal("the prompt started no background refresh")
		}
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	js := w.status(w.repo)
	human := w.humanStatus(w.repo)
	if took := time.Since(start); took > 2500*time.Millisecond {
		t.Errorf("two status runs took %v while a refresh ran: status waited for it", took)
	}
	if js.Raw["refresh_in_flight"] != true {
		t.Fatalf("refresh_in_flight %v while a refresh runs", js.Raw["refresh_in_flight"])
	}
	mustMatch(t, "status", human, `(?m)^refresh: +running now`)
	if !w.refreshRunning() {
		t.Fatal("the refresh ended before status looked: the test proves nothing")
	}
	w.settle()
	s := w.status(w.repo)
	if s.Raw["refresh_in_flight"] != false || s.Chip != "#31" {
		t.Fatalf("after the refresh: in flight %v, chip %q", s.Raw["refresh_in_flight"], s.Chip)
	}
	if strings.Contains(w.humanStatus(w.repo), "running now") {
		t.Fatal("status still says a refresh runs")
	}
	// Status left no lock behind: the next due refresh starts.
	w.srv.SetDelay(0)
	before := w.prRequests()
	w.run(w.repo, "invalidate")
	w.run(w.repo, "prompt", "--shell", "plain")
	w.settle()
	if w.prRequests() != before+1 {
		t.Fatalf("after status, a due refresh made %d requests, want 1", w.prRequests()-before)
	}
}

// With no remote on a GitHub host, status lists the remotes it saw
// (credentials redacted) and why none counts: another forge's host, a
// host gh does not know (with the exact gh auth login to run for it), or,
// with GH_HOST set, not GH_HOST. It runs no gh.
func TestStatusExplainsNoGitHubRemote(t *testing.T) {
	const secret = "hunter2secretvalue"
	t.Run("gitlab and enterprise", func(t *testing.T) {
		w := newWorld(t)
		w.extra["GH_HOST"] = "\x00"
		log := w.recordGh()
		repo := w.newRepo("forges", "main", "https://gitlab.com/o/r.git")
		w.git(repo, "remote", "add", "corp", "https://deploy:"+secret+"@ghe.corp.example/o/r.git")
		w.git(repo, "remote", "add", "mirror", "/srv/git/r.git")
		s := w.status(repo)
		if s.category() != "no_github_remote" {
			t.Fatalf("category %s", s.category())
		}
		human := w.humanStatus(repo)
		js := w.run(repo, "status", "--json").stdout
		for _, out := range []string{human, js} {
			if strings.Contains(out, secret) {
				t.Fatalf("status shows the remote's credential:\n%s", out)
			}
			if strings.Contains(out, "--hostname gitlab.com") {
				t.Fatalf("status advises logging in to GitLab:\n%s", out)
			}
		}
		for _, re := range []string{
			`(?m)^remotes seen: +none counts: gh takes a remote on github\.com, a \*\.ghe\.com host, GH_HOST or a host in gh's hosts\.yml`,
			`(?m)^ +origin https://gitlab\.com/o/r\.git\n +gitlab\.com is GitLab, not GitHub$`,
			`(?m)^ +corp https://\[REDACTED\]@ghe\.corp\.example/o/r\.git\n +ghe\.corp\.example is not a GitHub host gh knows`,
			`(?m)^ +if ghe\.corp\.example is a GitHub Enterprise Server, run: gh auth login --hostname ghe\.corp\.example$`,
			`(?m)^ +mirror /srv/git/r\.git\n +a local path`,
		} {
			mustMatch(t, "status", human, re)
		}
		if len(s.RecoveryActions) == 0 || s.RecoveryActions[0] != "gh auth login --hostname ghe.corp.example" {
			t.Fatalf("recovery_actions %q", s.RecoveryActions)
		}
		remotes, _ := s.Raw["remotes"].([]any)
		if len(remotes) != 3 {
			t.Fatalf("remotes %v", s.Raw["remotes"])
		}
		corp := remotes[1].(map[string]any)
		if corp["name"] != "corp" || corp["host"] != "ghe.corp.example" || corp["login_host"] != "ghe.corp.example" ||
			!strings.Contains(corp["url"].(string), "[REDACTED]") {
			t.Fatalf("corp remote %v", corp)
		}
		if gl := remotes[0].(map[string]any); gl["login_host"] != nil || !strings.Contains(gl["why"].(string), "GitLab") {
			t.Fatalf("gitlab remote %v", gl)
		}
		if runs := ghRuns(log); runs != "" {
			t.Fatalf("status ran gh: %s", runs)
		}
	})
	t.Run("GH_HOST set", func(t *testing.T) {
		w := newWorld(t) // GH_HOST is the fake's host
		repo := w.newRepo("elsewhere", "main", "https://github.com/o/r.git")
		s := w.status(repo)
		if s.category() != "no_github_remote" {
			t.Fatalf("category %s", s.category())
		}
		human := w.humanStatus(repo)
		mustMatch(t, "status", human, `(?m)^remotes seen: +none counts: GH_HOST is `+regexp.QuoteMeta(fakegithub.Host)+`, and gh then takes only a remote on `+regexp.QuoteMeta(fakegithub.Host))
		mustMatch(t, "status", human, `(?m)^ +github\.com is not GH_HOST \(`+regexp.QuoteMeta(fakegithub.Host)+`\)`)
		if strings.Contains(human, "gh auth login") {
			t.Fatalf("logging in cannot help while GH_HOST names another host:\n%s", human)
		}
	})
}

// Suppression is explained in words: since when (absolute and relative),
// that validation is global, what it hides, and everything that lifts it.
// When a token variable changes, status says the suppression was lifted.
func TestStatusExplainsSuppression(t *testing.T) {
	w := newWorld(t)
	w.extra["TZ"] = "UTC"
	w.srv.SetMode(fakegithub.BadCreds)
	w.refresh(w.repo, 4)
	s := w.status(w.repo)
	since, ok := s.Raw["suppressed_at"].(string)
	if s.Validation != "suppressed" || !ok {
		t.Fatalf("validation %s, suppressed_at %v", s.Validation, s.Raw["suppressed_at"])
	}
	at, _ := time.Parse(time.RFC3339Nano, since)
	human := w.humanStatus(w.repo)
	for _, re := range []string{
		`(?m)^validation: +suppressed since ` + regexp.QuoteMeta(at.UTC().Format(time.DateTime)) + ` \((now|\d+ s ago)\): a refresh found gh missing or not logged in$`,
		`(?m)^ +global: one for the user, shared by every repository, not kept per repository$`,
		`(?m)^ +while suppressed the PR chip is hidden and gh is not run, in every repository$`,
		`gh appears on PATH or changes`,
		`gh's hosts\.yml changes`,
		`a token variable \(GH_TOKEN, GITHUB_TOKEN, GH_ENTERPRISE_TOKEN, GITHUB_ENTERPRISE_TOKEN\) is set, changed or unset`,
		`prchip reset \(unvalidated again\)`,
		`prchip refresh --force \(runs gh anyway; validated if it works\)`,
	} {
		mustMatch(t, "status", human, re)
	}
	// Another repository shares it: one validation per user.
	other := w.newRepo("other", "feature", "https://"+fakegithub.Host+"/octo/other.git")
	if o := w.status(other); o.Validation != "suppressed" || !strings.Contains(w.humanStatus(other), "suppressed since") {
		t.Fatalf("another repository: validation %s", o.Validation)
	}
	w.extra["GH_TOKEN"] = "another-token-value"
	human = w.humanStatus(w.repo)
	mustMatch(t, "status after GH_TOKEN changed", human, `(?m)^validation: +unvalidated again: the suppression of `+
		regexp.QuoteMeta(at.UTC().Format(time.DateTime))+` \((now|\d+ s ago)\) was lifted, gh's setup has changed since$`)
	if w.status(w.repo).Raw["suppressed_at"] != nil {
		t.Fatal("suppressed_at is set while not suppressed")
	}
}

// Times are given both absolute and relative: a rate limit's reset (20
// minutes ahead, from gh api rate_limit) is "in 20 min", and an outcome
// recorded 5 minutes ago is "5 min ago".
func TestStatusRelativeTimes(t *testing.T) {
	w := newWorld(t)
	w.extra["TZ"] = "UTC"
	w.srv.SetMode(fakegithub.RateLimited)
	w.refresh(w.repo, 1)
	s := w.status(w.repo)
	if s.NextAttemptAt == nil || s.category() != "rate_limited" {
		t.Fatalf("category %s, next attempt %v", s.category(), s.NextAttemptAt)
	}
	human := w.humanStatus(w.repo)
	next := regexp.QuoteMeta(s.NextAttemptAt.UTC().Format(time.DateTime))
	mustMatch(t, "status", human, `(?m)^next refresh: +at the first prompt after `+next+` \(in (19|20) min\)$`)
	mustMatch(t, "status", human, `(?m)^last outcome: +retryable / rate_limited at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \((now|\d+ s ago)\), took \d+ ms$`)

	// The same state, recorded five minutes earlier.
	shift := func(v any) any {
		t, _ := time.Parse(time.RFC3339Nano, v.(string))
		return t.Add(-5 * time.Minute).Format(time.RFC3339Nano)
	}
	w.rewriteState(func(kind string, rec map[string]any) {
		branches, _ := rec["branches"].([]any)
		for _, b := range branches {
			chips, _ := b.(map[string]any)["chips"].(map[string]any)
			for _, c := range chips {
				c := c.(map[string]any)
				o := c["outcome"].(map[string]any)
				o["at"], c["checked_at"] = shift(o["at"]), shift(c["checked_at"])
			}
		}
	})
	s = w.status(w.repo)
	human = w.humanStatus(w.repo)
	mustMatch(t, "status", human, `(?m)^last outcome: +retryable / rate_limited at `+
		regexp.QuoteMeta(s.LastOutcome.At.UTC().Format(time.DateTime))+` \(5 min ago\), took \d+ ms$`)
	mustMatch(t, "status", human, `\(in (19|20) min\)`)
}

// A failing shell chip gets advice about that chip: its exit code and
// message, its command, the exact line that runs it as prchip does (which
// fails the same way when pasted), and prchip refresh; never gh auth
// login. refresh, for its cached failure, does not blame gh either.
func TestStatusAdvisesAFailingShellChip(t *testing.T) {
	w := newWorld(t)
	w.srv.SetPR("feature", fakegithub.PR{Number: 5, Title: "fine"})
	const command = `echo "no context in ${PWD##*/}" >&2; exit 3`
	w.config("[chips.k8s]\ncommand = '" + command + "'\nsuppress_on_failure = true\n")
	w.refresh(w.repo, 0)
	human := w.humanStatus(w.repo)
	try := "cd " + w.repo + " && sh -c '" + strings.ReplaceAll(command, "'", `'\''`) + "'"
	for _, re := range []string{
		`(?m)^chip k8s: +failing: exited with code 3 \(command_failed\) at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \((now|\d+ s ago)\)\n +\| no context in demo$`,
		`(?m)^ +its command: ` + regexp.QuoteMeta(command) + `$`,
		`(?m)^ +test it as prchip runs it: ` + regexp.QuoteMeta(try) + `$`,
		`(?m)^ +then: prchip refresh --force$`,
	} {
		mustMatch(t, "status", human, re)
	}
	if strings.Contains(human, "gh auth") {
		t.Fatalf("status advises gh for a shell chip:\n%s", human)
	}
	chips, _ := w.status(w.repo).Raw["chips"].([]any)
	if len(chips) != 1 {
		t.Fatalf("chips %v", chips)
	}
	acts, _ := chips[0].(map[string]any)["recovery_actions"].([]any)
	if len(acts) != 2 || acts[0] != try || acts[1] != "prchip refresh --force" {
		t.Fatalf("chip recovery_actions %q, want %q", acts, try)
	}
	// The advice, pasted, shows the failure.
	c := exec.Command("sh", "-c", try)
	c.Env = w.env()
	out, err := c.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 || strings.TrimSpace(string(out)) != "no context in demo" {
		t.Fatalf("the advised command: %v %q", err, out)
	}
	r := w.refresh(w.repo, 0)
	line := regexp.MustCompile(`(?m)^k8s: .*$`).FindString(r.stdout)
	if !strings.Contains(line, "prchip refresh --force") || strings.Contains(line, "gh") {
		t.Fatalf("refresh on the cached shell failure: %q", line)
	}
}

// gh's multi-line messages stay lines in the human form (quoted, indented
// under the row, still sanitised), and one line in JSON.
func TestStatusShowsMultiLineGhMessage(t *testing.T) {
	w := newWorld(t)
	gh := filepath.Join(w.bin, "gh")
	os.Remove(gh)
	script := "#!/bin/sh\nprintf 'error connecting to api.github.localhost\\n\\033[31mcheck your internet connection\\033[0m or https://githubstatus.com\\n' >&2\nexit 1\n"
	if err := os.WriteFile(gh, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	w.refresh(w.repo, 1)
	human := w.humanStatus(w.repo)
	mustMatch(t, "status", human, `(?m)^detail: +\| error connecting to api\.github\.localhost\n {16}\| check your internet connection or https://githubstatus\.com$`)
	s := w.status(w.repo)
	if want := "error connecting to api.github.localhost check your internet connection or https://githubstatus.com"; s.category() != "offline" || s.LastOutcome.Detail != want {
		t.Fatalf("JSON: %s, detail %q, want %q", s.category(), s.LastOutcome.Detail, want)
	}

	// A planted line start, and a config command's lines, cannot make a
	// line of their own pass for a row (humanStatus fails on a line that
	// starts with FORGED); JSON keeps each one line.
	w.rewriteState(func(kind string, rec map[string]any) {
		branches, _ := rec["branches"].([]any)
		for _, b := range branches {
			for _, c := range b.(map[string]any)["chips"].(map[string]any) {
				o := c.(map[string]any)["outcome"].(map[string]any)
				o["detail"] = "fine so far FORGED validation: validated"
				o["line_starts"] = []int{12}
			}
		}
	})
	mustMatch(t, "status", w.humanStatus(w.repo), `(?m)^detail: +\| fine so far\n +\| FORGED validation: validated$`)
	w.config("[chips.multi]\ncommand = '''\necho starting >&2\nFORGED: validated\nexit 2\n'''\n")
	w.refresh(w.repo, 1)
	mustMatch(t, "status", w.humanStatus(w.repo), `(?m)^ +its command:\n +\| echo starting >&2\n +\| FORGED: validated\n +\| exit 2$`)
	if chips, _ := w.status(w.repo).Raw["chips"].([]any); len(chips) != 1 || chips[0].(map[string]any)["command"] != "echo starting >&2 FORGED: validated exit 2" {
		t.Fatalf("JSON chips %v", chips)
	}
}

// reset says what it forgot, and for which repository (its root,
// sanitised), and what validation was; reset --all names the state file.
func TestResetSaysWhatItReset(t *testing.T) {
	w := newWorld(t)
	repo := w.newRepo("odd\x1b[2Jname", "feature", "https://"+fakegithub.Host+"/octo/demo.git")
	w.config("[chips.flaky]\ncommand = 'exit 1'\n")
	w.srv.SetMode(fakegithub.BadCreds)
	w.refresh(repo, 4)
	clean := strings.ReplaceAll(repo, "\x1b[2J", "")
	check := func(args []string, want string) {
		t.Helper()
		r := w.run(repo, args...)
		if r.code != 0 || strings.TrimSpace(r.stdout) != want || r.stderr != "" {
			t.Fatalf("prchip %v: exit %d\n%s%s\nwant: %s", args, r.code, r.stdout, r.stderr, want)
		}
	}
	check([]string{"reset"}, fmt.Sprintf("reset %s: forgot 2 chip results on 1 branch (1 cached failure, 1 in backoff); "+
		"validation is unvalidated again (it was suppressed)", clean))
	if s := w.status(repo); s.Validation != "unvalidated" || s.FailureCached {
		t.Fatalf("after reset: validation %s, cached %v", s.Validation, s.FailureCached)
	}
	check([]string{"reset"}, "reset "+clean+": nothing was stored for it; validation stays unvalidated")
	w.srv.SetMode(fakegithub.OK)
	w.refresh(repo, 0) // the PR chip validates, the flaky chip fails
	check([]string{"reset", "--all"}, "reset everything in "+w.statePath()+": forgot 1 repository and the global validation; "+
		"validation is unvalidated again (it was validated)")
}
