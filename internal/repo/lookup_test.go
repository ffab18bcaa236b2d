package repo

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/testenv"
)

// lookupRepo is a repository on branch with remotes (name=URL, added with
// git remote add, so each has git's fetch refspec and remote-tracking refs
// for feature, main and other), config entries (key=value, added in
// order), and a home of its own: HOME, XDG_CONFIG_HOME and no system
// config, plus env. It returns the repository's directory.
func lookupRepo(t *testing.T, branch string, remotes, config []string, files map[string]string, env map[string]string) string {
	t.Helper()
	testenv.Need(t, "git")
	home := t.TempDir()
	e := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "xdg"), "GIT_CONFIG_NOSYSTEM": "1"}
	for k, v := range env {
		e[k] = strings.ReplaceAll(v, "$HOME", home)
	}
	setGitEnv(t, e)
	for name, body := range files {
		writeFile(t, filepath.Join(home, name), strings.ReplaceAll(body, "$HOME", home))
	}
	dir := filepath.Join(home, "repo")
	os.MkdirAll(dir, 0o755)
	testenv.Git(t, dir, "init", "-q", "-b", branch)
	testenv.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "init")
	for _, r := range remotes {
		name, url, _ := strings.Cut(r, "=")
		testenv.Git(t, dir, "remote", "add", name, url)
		for _, b := range []string{"feature", "main", "other"} {
			testenv.Git(t, dir, "update-ref", "refs/remotes/"+name+"/"+b, "HEAD")
		}
	}
	for _, c := range config {
		k, v, _ := strings.Cut(c, "=")
		testenv.Git(t, dir, "config", "--add", k, v)
	}
	return dir
}

// gitHead is the head git names with rev-parse @{push} or @{upstream}
// (refs/remotes/R/B for one of remotes), its URL as git gives it.
func gitHead(t *testing.T, dir, why, rev string, remotes []string) (Head, bool) {
	t.Helper()
	ref, ok := gitSays(dir, nil, "rev-parse", "--symbolic-full-name", rev)
	if !ok {
		return Head{}, false
	}
	for _, r := range remotes {
		name, _, _ := strings.Cut(r, "=")
		if b, ok := strings.CutPrefix(ref, "refs/remotes/"+name+"/"); ok {
			return Head{Why: why, Remote: name, URL: gitURL(t, dir, why, name), Branch: b}, true
		}
	}
	t.Fatalf("git names %s %q, of no remote", rev, ref)
	return Head{}, false
}

// gitURL is the URL git pushes to (a push target) or fetches from.
func gitURL(t *testing.T, dir, why, remote string) string {
	t.Helper()
	args := []string{"ls-remote", "--get-url", remote}
	if why == WhyPushTarget {
		args = []string{"remote", "get-url", "--push", remote}
	}
	u, ok := gitSays(dir, nil, args...)
	if !ok {
		t.Fatalf("git %v failed", args)
	}
	return u
}

// TestPlanMatchesGit: the head candidates are those git names: the push
// target as `git rev-parse @{push}` and `git remote get-url --push`, the
// upstream as @{upstream} and `git ls-remote --get-url`, and the remotes
// as `git remote` and `git config`. Where git cannot say (a URL remote
// has no remote-tracking refs, a merge ref of a pull request) or its
// @{push} is known to differ from where `git push` pushes (git 2.39's
// simple and upstream in a triangular workflow, held to git push itself by
// TestPlanPushMatchesGitPush), the case says what is expected and why.
func TestPlanMatchesGit(t *testing.T) {
	const (
		gh     = "https://github.com/octo/demo.git"
		fork   = "https://github.com/me/demo.git"
		alice  = "https://github.localhost/alice/repo.git"
		ghSSH  = "ssh://git@github.com/"
		rewrit = "[url \"https://github.com/\"]\n\tinsteadOf = gh:\n"
	)
	origin := []string{"origin=" + gh}
	triangle := []string{"origin=" + gh, "fork=" + fork}
	cases := []struct {
		name    string
		branch  string
		remotes []string
		config  []string
		files   map[string]string
		env     map[string]string
		// Set where git cannot be asked, with why.
		push, upstream *Head
		noPush         bool
		because        string
		pr             int
	}{
		{name: "no upstream, push.default unset (simple)", remotes: origin},
		{name: "no upstream, simple", remotes: origin, config: []string{"push.default=simple"}},
		{name: "no upstream, current", remotes: origin, config: []string{"push.default=current"}},
		{name: "no upstream, matching", remotes: origin, config: []string{"push.default=matching"}},
		{name: "no upstream, upstream", remotes: origin, config: []string{"push.default=upstream"}},
		{name: "no upstream, nothing", remotes: origin, config: []string{"push.default=nothing"}},
		{name: "pushed with -u", remotes: origin, config: []string{"branch.feature.remote=origin", "branch.feature.merge=refs/heads/feature"}},
		{name: "nothing, with upstream", remotes: origin, config: []string{"push.default=nothing", "branch.feature.remote=origin", "branch.feature.merge=refs/heads/feature"}},
		{name: "upstream with another name, simple", remotes: origin, config: []string{"branch.feature.remote=origin", "branch.feature.merge=refs/heads/other"}},
		{name: "upstream with another name, upstream", remotes: origin, config: []string{"push.default=upstream", "branch.feature.remote=origin", "branch.feature.merge=refs/heads/other"}},
		{name: "upstream with another name, tracking (upstream's old name)", remotes: origin, config: []string{"push.default=tracking", "branch.feature.remote=origin", "branch.feature.merge=refs/heads/other"}},
		{name: "upstream with another name, current", remotes: origin, config: []string{"push.default=current", "branch.feature.remote=origin", "branch.feature.merge=refs/heads/other"}},
		{name: "first merge value is the upstream", remotes: origin, config: []string{"push.default=current", "branch.feature.remote=origin", "branch.feature.merge=refs/heads/other", "branch.feature.merge=refs/heads/main"}},
		{name: "pushRemote, current", remotes: triangle, config: []string{"push.default=current", "branch.feature.pushRemote=fork", "branch.feature.remote=origin", "branch.feature.merge=refs/heads/main"}},
		{name: "remote.pushDefault, matching", remotes: triangle, config: []string{"push.default=matching", "remote.pushDefault=fork", "branch.feature.remote=origin", "branch.feature.merge=refs/heads/feature"}},
		{name: "pushRemote beats remote.pushDefault", remotes: append(triangle, "third=https://github.com/third/demo.git"), config: []string{"push.default=current", "remote.pushDefault=third", "branch.feature.pushRemote=fork"}},
		{name: "triangular, simple", remotes: triangle, config: []string{"remote.pushDefault=fork", "branch.feature.remote=origin", "branch.feature.merge=refs/heads/main"},
			push: &Head{Why: WhyPushTarget, Remote: "fork", URL: fork, Branch: "feature"}, because: "git push pushes there; git 2.39's @{push} refuses"},
		{name: "triangular, upstream", remotes: triangle, config: []string{"push.default=upstream", "branch.feature.pushRemote=fork", "branch.feature.remote=origin", "branch.feature.merge=refs/heads/main"},
			push: &Head{Why: WhyPushTarget, Remote: "fork", URL: fork, Branch: "feature"}, because: "git push refuses upstream here; only a push naming the branch reaches the fork"},
		{name: "the only remote, not named origin", remotes: []string{"fork=" + fork}, config: []string{"push.default=current"}},
		{name: "two remotes, none named origin", remotes: []string{"fork=" + fork, "up=" + gh}, config: []string{"push.default=current"},
			noPush: true, because: "git pushes to a path named origin, which is no remote"},
		{name: "no remotes", config: []string{"push.default=current"}, noPush: true, because: "git pushes to a path named origin"},
		{name: "gh pr checkout of a fork's main (URL remote)", branch: "alice/main", remotes: origin,
			config:   []string{"branch.alice/main.remote=" + alice, "branch.alice/main.merge=refs/heads/main"},
			upstream: &Head{Why: WhyUpstream, URL: alice, Branch: "main"}, because: "a URL remote has no remote-tracking ref for git to name"},
		{name: "gh pr checkout of a fork's main, pushed back", branch: "alice/main", remotes: origin,
			config:   []string{"push.default=upstream", "branch.alice/main.remote=" + alice, "branch.alice/main.merge=refs/heads/main", "url.ssh://git@github.localhost/.pushInsteadOf=https://github.localhost/"},
			push:     &Head{Why: WhyPushTarget, URL: "ssh://git@github.localhost/alice/repo.git", Branch: "main"},
			upstream: &Head{Why: WhyUpstream, URL: alice, Branch: "main"}, because: "a URL remote has no remote-tracking ref for git to name"},
		{name: "URL pushRemote", remotes: origin, config: []string{"push.default=current", "branch.feature.pushRemote=" + fork},
			push: &Head{Why: WhyPushTarget, URL: fork, Branch: "feature"}, because: "a URL remote has no remote-tracking ref for git to name"},
		{name: "merge ref of a pull request", remotes: origin, config: []string{"branch.feature.remote=origin", "branch.feature.merge=refs/pull/42/head"}, pr: 42},
		{name: "merge ref of a pull request, current", remotes: origin, config: []string{"push.default=current", "branch.feature.remote=origin", "branch.feature.merge=refs/pull/42/head"}, pr: 42},
		{name: "insteadOf in the repository", remotes: []string{"origin=gh:octo/demo"}, config: []string{"url.https://github.com/.insteadOf=gh:", "push.default=current"}},
		{name: "insteadOf in ~/.gitconfig", remotes: []string{"origin=gh:octo/demo"}, config: []string{"push.default=current"}, files: map[string]string{".gitconfig": rewrit}},
		{name: "insteadOf in XDG config", remotes: []string{"origin=gh:octo/demo"}, config: []string{"push.default=current"}, files: map[string]string{"xdg/git/config": rewrit}},
		{name: "GIT_CONFIG_GLOBAL replaces ~/.gitconfig", remotes: []string{"origin=gh:octo/demo"}, config: []string{"push.default=current"},
			files: map[string]string{".gitconfig": "[url \"https://wrong.example/\"]\n\tinsteadOf = gh:\n", "elsewhere": rewrit}, env: map[string]string{"GIT_CONFIG_GLOBAL": "$HOME/elsewhere"}},
		{name: "GIT_CONFIG_SYSTEM", remotes: []string{"origin=gh:octo/demo"}, config: []string{"push.default=current"},
			files: map[string]string{"system": rewrit}, env: map[string]string{"GIT_CONFIG_NOSYSTEM": "", "GIT_CONFIG_SYSTEM": "$HOME/system"}},
		{name: "insteadOf from GIT_CONFIG_COUNT", remotes: []string{"origin=gh:octo/demo"}, config: []string{"push.default=current"},
			env: map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "url.https://github.com/.insteadOf", "GIT_CONFIG_VALUE_0": "gh:"}},
		{name: "insteadOf from GIT_CONFIG_COUNT, taken as written", remotes: []string{`origin=g"h#;\x:octo/demo`}, config: []string{"push.default=current"},
			env: map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "url.https://github.com/.insteadOf", "GIT_CONFIG_VALUE_0": `g"h#;\x:`}},
		{name: "include.path, relative, from ~/.gitconfig", remotes: []string{"origin=gh:octo/demo"}, config: []string{"push.default=current"},
			files: map[string]string{".gitconfig": "[include]\n\tpath = inc/rules\n", "inc/rules": rewrit}},
		{name: "include.path with ~", remotes: []string{"origin=gh:octo/demo"}, config: []string{"push.default=current", "include.path=~/rules"},
			files: map[string]string{"rules": rewrit}},
		{name: "longest insteadOf wins", remotes: []string{"origin=gh:octo/demo"}, config: []string{"push.default=current", "url.https://github.com/.insteadOf=gh:", "url.https://github.com/octocat-.insteadOf=gh:octo"}},
		{name: "pushInsteadOf in ~/.gitconfig", remotes: origin, config: []string{"branch.feature.remote=origin", "branch.feature.merge=refs/heads/feature"},
			files: map[string]string{".gitconfig": "[url \"" + ghSSH + "\"]\n\tpushInsteadOf = https://github.com/\n"}},
		{name: "pushurl: pushInsteadOf does not apply, insteadOf does", remotes: origin, config: []string{"push.default=current", "remote.origin.pushurl=gh:me/demo", "url.https://github.com/.insteadOf=gh:", "url." + ghSSH + ".pushInsteadOf=https://github.com/"}},
		{name: "insteadOf and pushInsteadOf on the fetch URL", remotes: []string{"origin=gh:octo/demo"}, config: []string{"push.default=current", "url.https://github.com/.insteadOf=gh:", "url." + ghSSH + ".pushInsteadOf=gh:"}},
		{name: "gh repo set-default", remotes: triangle, config: []string{"push.default=current", "remote.origin.gh-resolved=base", "remote.fork.gh-resolved=octo/demo"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			branch := c.branch
			if branch == "" {
				branch = "feature"
			}
			dir := lookupRepo(t, branch, c.remotes, c.config, c.files, c.env)
			info, p := plan(t, dir)
			var want []Head
			if c.push != nil {
				h := *c.push
				if h.Remote != "" {
					h.URL = gitURL(t, dir, WhyPushTarget, h.Remote)
				}
				want = append(want, h)
			} else if h, ok := gitHead(t, dir, WhyPushTarget, "@{push}", c.remotes); ok {
				if c.noPush {
					t.Fatalf("git pushes to %+v: %s is wrong", h, c.because)
				}
				want = append(want, h)
			}
			up, upOK := gitHead(t, dir, WhyUpstream, "@{upstream}", c.remotes)
			if c.upstream != nil {
				if upOK {
					t.Fatalf("git names the upstream %+v: %s is wrong", up, c.because)
				}
				up, upOK = *c.upstream, true
			}
			if upOK && !(len(want) == 1 && want[0].URL == up.URL && want[0].Branch == up.Branch) {
				want = append(want, up)
			}
			if !reflect.DeepEqual(p.Heads, want) {
				t.Errorf("heads\n%+v\nwant (git%s)\n%+v", p.Heads, map[bool]string{true: " and " + c.because}[c.because != ""], want)
			}
			if p.PRNumber != c.pr || (c.pr > 0 && p.PRRemoteURL != gitURL(t, dir, WhyUpstream, "origin")) {
				t.Errorf("PR %d at %q, want %d", p.PRNumber, p.PRRemoteURL, c.pr)
			}
			// The remotes with a URL, in config order (git remote sorts them).
			var remotes []PlanRemote
			if keys, _ := gitSays(dir, nil, "config", "--name-only", "--get-regexp", `^remote\..*\.url$`); keys != "" {
				for _, k := range strings.Split(keys, "\n") {
					n := strings.TrimSuffix(strings.TrimPrefix(k, "remote."), ".url")
					if slices.ContainsFunc(remotes, func(r PlanRemote) bool { return r.Name == n }) {
						continue
					}
					gr, _ := gitSays(dir, nil, "config", "remote."+n+".gh-resolved")
					remotes = append(remotes, PlanRemote{Name: n, URL: gitURL(t, dir, WhyUpstream, n), GhResolved: gr})
				}
			}
			if !reflect.DeepEqual(p.Remotes, remotes) {
				t.Errorf("remotes %+v, git says %+v", p.Remotes, remotes)
			}
			// Find's remotes are the same, rewritten the same.
			for i, r := range info.Remotes {
				if i >= len(remotes) || r.Name != remotes[i].Name || r.URL != remotes[i].URL {
					t.Errorf("Find's remote %d %+v, git says %+v", i, r, remotes)
				}
			}
			if p.Branch != branch || p.Rebasing {
				t.Errorf("plan for %q rebasing %v", p.Branch, p.Rebasing)
			}
		})
	}
}

// TestPlanPushMatchesGitPush holds the push target to where `git push`
// (no arguments, --dry-run) really pushes, for every push.default, with
// the push remote the fetch remote or another (triangular), and an
// upstream of the branch's name or another: git 2.39's @{push} differs
// from git push in triangular workflows. The one deliberate difference:
// push.default=upstream in a triangular workflow, which git push refuses,
// is taken as the branch's own name (only a push naming it reaches there).
func TestPlanPushMatchesGitPush(t *testing.T) {
	for _, pd := range []string{"", "simple", "upstream", "current", "matching", "nothing"} {
		for _, pushRemote := range []string{"", "fork"} {
			for _, upstream := range []string{"feature", "other"} {
				name := fmt.Sprintf("push.default=%s pushRemote=%s upstream=%s", pd, pushRemote, upstream)
				t.Run(name, func(t *testing.T) {
					base := t.TempDir()
					o, f := filepath.Join(base, "o.git"), filepath.Join(base, "f.git")
					testenv.Git(t, base, "init", "-q", "--bare", o)
					testenv.Git(t, base, "init", "-q", "--bare", f)
					var config []string
					if pd != "" {
						config = append(config, "push.default="+pd)
					}
					if pushRemote != "" {
						config = append(config, "branch.feature.pushRemote="+pushRemote)
					}
					config = append(config, "branch.feature.remote=origin", "branch.feature.merge=refs/heads/"+upstream)
					dir := lookupRepo(t, "feature", []string{"origin=" + o, "fork=" + f}, config, nil, nil)
					testenv.Git(t, dir, "push", "-q", "origin", "HEAD:refs/heads/"+upstream)
					if pd == "matching" {
						// matching pushes where the name is already.
						testenv.Git(t, dir, "push", "-q", "origin", "HEAD:refs/heads/feature")
						testenv.Git(t, dir, "push", "-q", "fork", "HEAD:refs/heads/feature")
					}
					_, p := plan(t, dir)
					var got *Head
					if len(p.Heads) > 0 && p.Heads[0].Why == WhyPushTarget {
						got = &p.Heads[0]
					}
					out, ok := gitSays(dir, nil, "push", "--dry-run", "--porcelain")
					var want *Head
					if ok {
						to, rest, _ := strings.Cut(out, "\n")
						url := strings.TrimPrefix(to, "To ")
						remote := map[string]string{o: "origin", f: "fork"}[url]
						fields := strings.Split(rest, "\t")
						if len(fields) < 2 || remote == "" {
							t.Fatalf("git push says %q", out)
						}
						_, dst, _ := strings.Cut(fields[1], ":")
						want = &Head{Why: WhyPushTarget, Remote: remote, URL: url, Branch: strings.TrimPrefix(dst, "refs/heads/")}
					} else if pd == "upstream" && pushRemote != "" {
						want = &Head{Why: WhyPushTarget, Remote: "fork", URL: f, Branch: "feature"}
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("push target %+v, git push pushes to %+v (%s)", got, want, out)
					}
				})
			}
		}
	}
}

// plan finds the repository in dir and its lookup plan, as the refresh does.
func plan(t *testing.T, dir string) (*Info, *Plan) {
	t.Helper()
	info := find(t, dir)
	p, err := info.Plan()
	if err != nil {
		t.Fatal(err)
	}
	return info, p
}

// gitMayFail runs git as gitCLI does and tells whether it succeeded (a
// rebase that stops at a conflict fails).
func gitMayFail(t *testing.T, dir string, env []string, args ...string) bool {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = dir
	c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
	c.Env = append(c.Env, env...)
	return c.Run() == nil
}

// commitFile commits body to file f in dir.
func commitFile(t *testing.T, dir, f, body string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, f), body)
	testenv.Git(t, dir, "add", f)
	testenv.Git(t, dir, "commit", "-q", "-m", f+": "+body)
}

// TestFindDuringRebase: while a rebase of a branch stops (an edit in
// rebase -i, a conflict with either backend, in the main work tree or a
// linked one), Find reports the branch being rebased, as `git branch`
// names it, not a detached HEAD, and Rebasing; the lookup's fingerprint
// changes at the start and at the end. git's onbranch: conditions see no
// branch meanwhile, and neither do Find's. A detached HEAD that is no rebase,
// or a rebase of a detached HEAD, stays detached.
func TestFindDuringRebase(t *testing.T) {
	cases := []struct {
		name     string
		worktree bool
		start    func(t *testing.T, dir string) bool
		detached bool
	}{
		{name: "rebase -i stopped at an edit", start: func(t *testing.T, dir string) bool {
			return gitMayFail(t, dir, []string{"GIT_SEQUENCE_EDITOR=sed -i 1s/^pick/edit/"}, "rebase", "-i", "HEAD~1")
		}},
		{name: "conflict, merge backend", start: func(t *testing.T, dir string) bool {
			return gitMayFail(t, dir, nil, "rebase", "--merge", "main")
		}},
		{name: "conflict, apply backend", start: func(t *testing.T, dir string) bool {
			return gitMayFail(t, dir, nil, "rebase", "--apply", "main")
		}},
		{name: "conflict in a linked worktree", worktree: true, start: func(t *testing.T, dir string) bool {
			return gitMayFail(t, dir, nil, "rebase", "main")
		}},
		{name: "detached HEAD", detached: true, start: func(t *testing.T, dir string) bool {
			testenv.Git(t, dir, "checkout", "-q", "--detach")
			return false
		}},
		{name: "rebase of a detached HEAD", detached: true, start: func(t *testing.T, dir string) bool {
			testenv.Git(t, dir, "checkout", "-q", "--detach")
			return gitMayFail(t, dir, nil, "rebase", "main")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// onbranch: holds while on feature, not while git rebases it.
			files := map[string]string{".gitconfig": "[includeIf \"onbranch:feature\"]\n\tpath = rules\n", "rules": rewriteGh}
			dir := lookupRepo(t, "main", []string{"origin=gh:o/r"}, nil, files, nil)
			commitFile(t, dir, "f", "base")
			testenv.Git(t, dir, "branch", "feature")
			commitFile(t, dir, "f", "main")
			if c.worktree {
				wt := filepath.Join(t.TempDir(), "wt")
				testenv.Git(t, dir, "worktree", "add", "-q", wt, "feature")
				dir = wt
			} else {
				testenv.Git(t, dir, "checkout", "-q", "feature")
			}
			commitFile(t, dir, "f", "feature")
			before, err := Find(dir, env.Process())
			if err != nil {
				t.Fatal(err)
			}
			c.start(t, dir) // stopped (git branch says so below), whatever its exit code
			info, err := Find(dir, env.Process())
			if err != nil {
				t.Fatal(err)
			}
			branches, _ := gitSays(dir, nil, "branch", "--list")
			if want := gitURL(t, dir, WhyUpstream, "origin"); info.Remotes[0].URL != want {
				t.Errorf("remote %q, git says %q", info.Remotes[0].URL, want)
			}
			if c.detached {
				if strings.Contains(c.name, "rebase") != strings.Contains(branches, "rebasing") {
					t.Fatalf("git says %q", branches)
				}
				if !info.Detached || info.Rebasing || info.Branch != "" {
					t.Fatalf("Find says branch %q rebasing %v detached %v; git: %q", info.Branch, info.Rebasing, info.Detached, branches)
				}
				return
			}
			if !strings.Contains(branches, "rebasing feature)") {
				t.Fatalf("git says no rebase of feature: %q", branches)
			}
			if info.Branch != "feature" || info.Detached || !info.Rebasing {
				t.Fatalf("Find says branch %q rebasing %v detached %v; git: %q", info.Branch, info.Rebasing, info.Detached, branches)
			}
			if info.LookupID == before.LookupID {
				t.Error("the start of a rebase left LookupID as it was")
			}
			p, err := info.Plan()
			if err != nil || p.Branch != "feature" || !p.Rebasing {
				t.Fatalf("plan %+v, %v", p, err)
			}
			testenv.Git(t, dir, "rebase", "--abort")
			after, err := Find(dir, env.Process())
			if err != nil {
				t.Fatal(err)
			}
			if after.Rebasing || after.LookupID != before.LookupID {
				t.Errorf("after the rebase: rebasing %v, LookupID %s, before %s", after.Rebasing, after.LookupID, before.LookupID)
			}
		})
	}
}

func TestRepoPath(t *testing.T) {
	cases := []struct {
		url         string
		owner, name string
	}{
		{"https://github.com/octo/demo", "octo", "demo"},
		{"https://github.com/octo/demo.git", "octo", "demo"},
		{"https://github.com/octo/demo/", "octo", "demo"},
		{"https://github.com/octo/demo.git/", "octo", "demo"},
		{"http://ghe.corp.example:8080/octo/demo.js", "octo", "demo.js"},
		{"https://user:token@github.com/octo/demo.git", "octo", "demo"},
		{"ssh://git@github.com/octo/demo.git", "octo", "demo"},
		{"ssh://git@github.com:22/octo/demo.git", "octo", "demo"},
		{"git+ssh://github.com/o-1/r_2.x", "o-1", "r_2.x"},
		{"git://github.com/octo/demo.git", "octo", "demo"},
		{"git@github.com:octo/demo.git", "octo", "demo"},
		{"github.com:octo/demo", "octo", "demo"},
		{"git@github-work:octo/demo.git", "octo", "demo"},
		{"https://github.com/octo", "", ""},
		{"https://github.com/octo/demo/pulls", "", ""},
		{"https://github.com//demo", "", ""},
		{"https://github.com/octo/", "", ""},
		{"https:///octo/demo", "", ""},
		{"https://github.com", "", ""},
		{"git@github.com:/octo/demo.git", "", ""},
		{"git@github.com:octo/demo/x.git", "", ""},
		{":octo/demo", "", ""},
		{"/srv/git/octo/demo.git", "", ""},
		{"./octo/demo", "", ""},
		{"../octo/demo", "", ""},
		{"file:///srv/octo/demo.git", "", ""},
		{"ext::sh -c x/y", "", ""},
		{"https://github.com/octo/de mo", "", ""},
		{"https://github.com/oc\x1bto/demo", "", ""},
		{"https://github.com/-/..", "", ""},
		{"https://github.com/octo/demo?x=1", "", ""},
		{"origin", "", ""},
		{"", "", ""},
	}
	for _, c := range cases {
		o, n, ok := RepoPath(c.url)
		if o != c.owner || n != c.name || ok != (c.owner != "") {
			t.Errorf("RepoPath(%q) = %q, %q, %v; want %q, %q", c.url, o, n, ok, c.owner, c.name)
		}
	}
}

// FuzzRepoPath: what RepoPath accepts is a safe OWNER and REPO that stand
// in the URL as its last two path parts, and every URL form made of a
// valid OWNER and REPO gives them back.
func FuzzRepoPath(f *testing.F) {
	for _, s := range []string{"https://github.com/octo/demo.git", "git@github.com:o/r", "ssh://h:22/o/r.git/", "/a/b", "h:/o/r", "https://h/o/r/x", "x://h/o/r"} {
		f.Add(s, "octo", "demo")
	}
	f.Fuzz(func(t *testing.T, url, owner, name string) {
		if o, n, ok := RepoPath(url); ok {
			if !nameChars(o, false) || !nameChars(n, true) || !strings.Contains(url, o+"/"+n) {
				t.Fatalf("RepoPath(%q) = %q, %q", url, o, n)
			}
		} else if o != "" || n != "" {
			t.Fatalf("RepoPath(%q) refused but said %q, %q", url, o, n)
		}
		if !nameChars(owner, false) || !nameChars(name, true) || strings.HasSuffix(name, ".git") {
			return
		}
		for _, u := range []string{"https://github.com/%s/%s", "https://github.com/%s/%s.git/", "ssh://git@h:22/%s/%s.git", "git@h:%s/%s.git", "h:%s/%s"} {
			if o, n, ok := RepoPath(fmt.Sprintf(u, owner, name)); !ok || o != owner || n != name {
				t.Fatalf("RepoPath(%q) = %q, %q, %v", fmt.Sprintf(u, owner, name), o, n, ok)
			}
		}
	})
}

// gitHere runs git in dir with the test's environment (its HOME, so that
// --global writes the test's own ~/.gitconfig).
func gitHere(t *testing.T, dir string, args ...string) {
	t.Helper()
	if _, ok := gitSays(dir, []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e"}, args...); !ok {
		t.Fatalf("git %v failed", args)
	}
}

// TestLookupIDCoversExactly: every change to what decides the branch's
// pull request (SPEC 3) changes LookupID, from the repository's config,
// the global files, an included file and the environment; nothing else
// does (user, editor and alias settings, another branch's settings, a
// fetch refspec, the lookup's key names in other sections, a commit, a
// comment, a file written next to ~/.gitconfig).
func TestLookupIDCoversExactly(t *testing.T) {
	testenv.Need(t, "git")
	bare := filepath.Join(t.TempDir(), "o.git")
	testenv.Git(t, t.TempDir(), "init", "-q", "--bare", bare)
	dir := lookupRepo(t, "feature", []string{"origin=" + bare}, nil, map[string]string{".gitconfig": "[include]\n\tpath = inc\n", "inc": "[user]\n\tname = t\n"}, nil)
	home := os.Getenv("HOME")
	steps := []struct {
		what    string
		do      func()
		changes bool
	}{
		{"git config user.name", func() { gitHere(t, dir, "config", "user.name", "x") }, false},
		{"git config core.editor", func() { gitHere(t, dir, "config", "core.editor", "vim") }, false},
		{"git config --global alias.co", func() { gitHere(t, dir, "config", "--global", "alias.co", "checkout") }, false},
		{"another branch's upstream", func() { gitHere(t, dir, "config", "branch.other.remote", "origin") }, false},
		{"a fetch refspec", func() {
			gitHere(t, dir, "config", "--add", "remote.origin.fetch", "+refs/pull/*:refs/remotes/origin/pr/*")
		}, false},
		{"lookup's key names in other sections", func() {
			for _, k := range []string{"remote.origin.pushDefault", "branch.feature.url", "url.feature.merge", "core.default", "branch.feature.insteadOf"} {
				gitHere(t, dir, "config", k, "origin")
			}
		}, false},
		{"a commit", func() { gitHere(t, dir, "commit", "-q", "--allow-empty", "-m", "x") }, false},
		{"a comment in the config", func() { appendFile(t, filepath.Join(dir, ".git", "config"), "# remote.origin.url = x\n") }, false},
		{"a file next to ~/.gitconfig", func() { writeFile(t, filepath.Join(home, ".zsh_history"), "git push\n") }, false},
		{"the included file's user", func() { writeFile(t, filepath.Join(home, "inc"), "[user]\n\tname = u\n") }, false},
		{"git push -u", func() { gitHere(t, dir, "push", "-q", "-u", "origin", "feature") }, true},
		{"gh repo set-default", func() { gitHere(t, dir, "config", "remote.origin.gh-resolved", "base") }, true},
		{"a new insteadOf rule in ~/.gitconfig", func() { gitHere(t, dir, "config", "--global", "url.https://github.com/.insteadOf", "gh:") }, true},
		{"pushInsteadOf in the XDG config", func() {
			writeFile(t, filepath.Join(home, "xdg", "git", "config"), "[url \"ssh://git@github.com/\"]\n\tpushInsteadOf = https://github.com/\n")
		}, true},
		{"an insteadOf rule in the included file", func() {
			writeFile(t, filepath.Join(home, "inc"), "[user]\n\tname = u\n[url \"x:\"]\n\tinsteadOf = y:\n")
		}, true},
		{"push.default", func() { gitHere(t, dir, "config", "push.default", "current") }, true},
		{"remote.pushDefault", func() { gitHere(t, dir, "config", "remote.pushDefault", "origin") }, true},
		{"branch pushRemote", func() { gitHere(t, dir, "config", "branch.feature.pushRemote", "origin") }, true},
		{"a pushurl", func() { gitHere(t, dir, "config", "remote.origin.pushurl", "https://github.com/me/r.git") }, true},
		{"a new remote", func() { gitHere(t, dir, "remote", "add", "upstream", "https://github.com/octo/r.git") }, true},
		{"a remote's URL", func() { gitHere(t, dir, "remote", "set-url", "upstream", "https://github.com/octo/s.git") }, true},
		{"the merge ref", func() { gitHere(t, dir, "config", "branch.feature.merge", "refs/pull/4/head") }, true},
		{"GIT_CONFIG_COUNT", func() {
			t.Setenv("GIT_CONFIG_COUNT", "1")
			t.Setenv("GIT_CONFIG_KEY_0", "url.https://example.com/.insteadOf")
			t.Setenv("GIT_CONFIG_VALUE_0", "ex:")
		}, true},
		{"another branch", func() { gitHere(t, dir, "checkout", "-q", "-b", "other") }, true},
	}
	for _, s := range steps {
		before, err := Find(dir, env.Process())
		if err != nil {
			t.Fatal(err)
		}
		s.do()
		after, err := Find(dir, env.Process())
		if err != nil {
			t.Fatal(err)
		}
		if changed := after.LookupID != before.LookupID; changed != s.changes {
			t.Errorf("%s: LookupID changed %v, want %v", s.what, changed, s.changes)
		}
	}
}

// TestLookupConfigIsLinear: 20,000 remotes in the repository's config and
// as many insteadOf rules in ~/.gitconfig, each rule rewriting one remote,
// are read (by Find on the render, by Plan) in time linear in their size:
// ten times as many take about ten times as long, not a hundred.
func TestLookupConfigIsLinear(t *testing.T) {
	dir := lookupRepo(t, "feature", nil, nil, nil, nil)
	home := os.Getenv("HOME")
	took := func(n int) time.Duration {
		var remotes, rules strings.Builder
		remotes.WriteString("[branch \"feature\"]\n\tremote = r1\n\tmerge = refs/heads/feature\n")
		for i := range n {
			fmt.Fprintf(&remotes, "[remote \"r%d\"]\nurl=y%d:o\n", i, i)
			fmt.Fprintf(&rules, "[url \"h/%d/\"]\ninsteadOf=y%d:\n", i, i)
		}
		writeFile(t, filepath.Join(dir, ".git", "config"), remotes.String())
		writeFile(t, filepath.Join(home, ".gitconfig"), rules.String())
		best := time.Hour
		for range 3 {
			start := time.Now()
			info, p := plan(t, dir)
			best = min(best, time.Since(start))
			if len(info.Remotes) != n || len(p.Remotes) != n || info.Remotes[n-1].URL != fmt.Sprintf("h/%d/o", n-1) ||
				len(p.Heads) != 1 || p.Heads[0].URL != "h/1/o" {
				t.Fatalf("%d remotes read (last %+v), plan %+v", len(info.Remotes), info.Remotes[len(info.Remotes)-1], p.Heads)
			}
		}
		return best
	}
	small, large := took(2000), took(20000)
	if ratio := float64(large) / float64(small); ratio > 40 {
		t.Fatalf("10x the remotes and rules took %.0fx as long (%v, %v)", ratio, small, large)
	}
}

// TestIncludesEnd: include.path cycles, a file including itself and one
// included a thousand times end, and what they hold still applies (git
// itself refuses a cycle at its depth limit).
func TestIncludesEnd(t *testing.T) {
	var fanout strings.Builder
	for range 1000 {
		fanout.WriteString("[include]\n\tpath = rules\n")
	}
	for _, files := range []map[string]string{
		{".gitconfig": "[include]\n\tpath = ~/.gitconfig\n" + rewriteGh},
		{".gitconfig": "[include]\n\tpath = a\n", "a": "[include]\n\tpath = b\n" + rewriteGh, "b": "[include]\n\tpath = a\n"},
		{".gitconfig": fanout.String(), "rules": rewriteGh},
	} {
		dir := lookupRepo(t, "feature", []string{"origin=gh:o/r"}, nil, files, nil)
		info, p := plan(t, dir)
		if len(info.Remotes) != 1 || len(p.Remotes) != 1 || info.Remotes[0].URL != "https://github.com/o/r" || p.Remotes[0].URL != "https://github.com/o/r" {
			t.Errorf("%v: remotes %+v, plan %+v", files, info.Remotes, p.Remotes)
		}
	}
}

const rewriteGh = "[url \"https://github.com/\"]\n\tinsteadOf = gh:\n"

// TestRewrites: insteadOf rules pick the URL git picks (ls-remote
// --get-url): the longest prefix, between equal prefixes the base that
// appeared first (A below, though B's rule comes first in the file), an
// empty prefix matching everything; with a few rules (a scan) and with
// more than smallRewrites (the trie).
func TestRewrites(t *testing.T) {
	rules := "[url \"A/\"]\n\tinsteadOf = x\n[url \"B/\"]\n\tinsteadOf = y:\n[url \"A/\"]\n\tinsteadOf = y:\n" +
		"[url \"C/\"]\n\tinsteadOf = yy\n[url \"D/\"]\n\tinsteadOf = y:o\n[url \"E/\"]\n\tinsteadOf = y:o\n"
	urls := []string{"y:o/r", "y:x/r", "yy:o/r", "x:o/r", "z:o/r", "y"}
	for _, pad := range []int{0, smallRewrites} {
		for _, empty := range []bool{false, true} {
			config := rules
			for i := range pad {
				config += fmt.Sprintf("[url \"P%d/\"]\n\tinsteadOf = pad%d:\n", i, i)
			}
			if empty {
				config += "[url \"Z/\"]\n\tinsteadOf =\n"
			}
			t.Run(fmt.Sprintf("%d rules, empty prefix %v", 6+pad, empty), func(t *testing.T) {
				var remotes []string
				for i, u := range urls {
					remotes = append(remotes, fmt.Sprintf("r%d=%s", i, u))
				}
				dir := lookupRepo(t, "feature", remotes, nil, nil, nil)
				appendFile(t, filepath.Join(dir, ".git", "config"), config)
				info, p := plan(t, dir)
				if len(info.Remotes) != len(urls) {
					t.Fatalf("remotes %+v", info.Remotes)
				}
				for i, r := range info.Remotes {
					want := gitURL(t, dir, WhyUpstream, r.Name)
					if r.URL != want || p.Remotes[i].URL != want {
						t.Errorf("%s: Find %q, Plan %q, git %q", r.Name, r.URL, p.Remotes[i].URL, want)
					}
				}
			})
		}
	}
}

// TestIncludeIfMatchesGit: includeIf.<condition>.path is followed where
// git follows it (gitdir:, gitdir/i:, onbranch:, git's wildmatch), and a
// worktree's config.worktree is read where git reads it: the rule in the
// included file rewrites the remote, or not, as git ls-remote --get-url
// says.
func TestIncludeIfMatchesGit(t *testing.T) {
	cases := []struct {
		cond, branch string
	}{
		{"onbranch:feature", "feature"},
		{"onbranch:feature", "other"},
		{"onbranch:feat*", "feature"},
		{"onbranch:feat*", "feat/x"},
		{"onbranch:feat/", "feat/x/y"},
		{"onbranch:feat/**", "feat/x/y"},
		{"onbranch:feat/**", "feat"},
		{"onbranch:**/y", "feat/x/y"},
		{"onbranch:feat/**/y", "feat/y"},
		{"onbranch:*/y", "feat/x/y"},
		{"onbranch:f?ature", "feature"},
		{"onbranch:[a-f]eature", "feature"},
		{"onbranch:[!f]eature", "feature"},
		{"onbranch:[^a-e]eature", "feature"},
		{"onbranch:\\feature", "feature"},
		{"onbranch:FEATURE", "feature"},
		{"gitdir:~/", "feature"},
		{"gitdir:~/repo/.git", "feature"},
		{"gitdir:~nosuchuser/", "feature"},
		{"gitdir:repo/.git", "feature"},
		{"gitdir:repo/", "feature"},
		{"gitdir:./repo/", "feature"},
		{"gitdir:./other/", "feature"},
		{"gitdir:/nonexistent/", "feature"},
		{"gitdir:**/REPO/", "feature"},
		{"gitdir/i:**/REPO/", "feature"},
		{"gitdir/i:~/REPO/", "feature"},
		{"gitdir:~/re*/", "feature"},
		{"gitdir:~/*/", "feature"},
		{"nosuchcondition:x", "feature"},
	}
	for _, c := range cases {
		t.Run(c.cond+" on "+c.branch, func(t *testing.T) {
			files := map[string]string{".gitconfig": "[includeIf \"" + strings.ReplaceAll(c.cond, `\`, `\\`) + "\"]\n\tpath = rules\n", "rules": rewriteGh}
			dir := lookupRepo(t, c.branch, []string{"origin=gh:o/r"}, nil, files, nil)
			info, p := plan(t, dir)
			want := gitURL(t, dir, WhyUpstream, "origin")
			if info.Remotes[0].URL != want || p.Remotes[0].URL != want {
				t.Errorf("Find %q, Plan %q, git %q", info.Remotes[0].URL, p.Remotes[0].URL, want)
			}
		})
	}
	t.Run("config.worktree", func(t *testing.T) {
		dir := lookupRepo(t, "feature", []string{"origin=gh:o/r"}, []string{"extensions.worktreeConfig=true"}, nil, nil)
		wt := filepath.Join(t.TempDir(), "wt")
		testenv.Git(t, dir, "worktree", "add", "-q", "-b", "side", wt)
		gitHere(t, wt, "config", "--worktree", "url.https://github.com/.insteadOf", "gh:")
		for _, d := range []string{dir, wt} {
			info, err := Find(d, env.Process())
			if err != nil {
				t.Fatal(err)
			}
			if want := gitURL(t, d, WhyUpstream, "origin"); info.Remotes[0].URL != want {
				t.Errorf("%s: Find %q, git %q", d, info.Remotes[0].URL, want)
			}
		}
	})
}

// FuzzWildmatch: without what only git's wildmatch has ("**", '!'
// classes, quoting, classes that never match '/'), it agrees with
// path.Match, whose '*' and '?' stop at '/' as WM_PATHNAME's do.
func FuzzWildmatch(f *testing.F) {
	for _, s := range [][2]string{{"feat*", "feature"}, {"*/y", "a/y"}, {"[a-f]x", "cx"}, {"[^a]?", "b/"}, {"a*b*c", "aXbYc"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pat, text string) {
		got := wildmatch(pat, text, false)
		if len(pat) > 64 || len(text) > 64 || strings.Contains(pat, "**") || strings.ContainsAny(pat, "!\\") ||
			!ascii(pat) || !ascii(text) {
			return // git's matches bytes, path.Match runes
		}
		want, err := path.Match(pat, text)
		if err != nil || strings.Contains(pat, "[]") || strings.Contains(pat, "[^]") ||
			strings.Contains(pat, "[") && strings.Contains(text, "/") {
			return // malformed for path.Match, a class git reads otherwise, or one facing a '/' (never matched by git's)
		}
		if got != want {
			t.Fatalf("wildmatch(%q, %q) = %v, path.Match %v", pat, text, got, want)
		}
	})
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// TestPullNumber: only refs/pull/N/head with N a positive number as
// GitHub writes it (no leading zero, at most nine digits) names
// a pull request.
func TestPullNumber(t *testing.T) {
	for ref, want := range map[string]int{
		"refs/pull/42/head": 42, "refs/pull/1/head": 1, "refs/pull/123456789/head": 123456789,
		"refs/pull/042/head": 0, "refs/pull/0/head": 0, "refs/pull/-1/head": 0,
		"refs/pull/1234567890/head": 0, "refs/pull//head": 0, "refs/pull/42/merge": 0,
		"refs/heads/42": 0, "refs/pull/4x/head": 0, "pull/42/head": 0,
	} {
		if n, ok := pullNumber(ref); n != want || ok != (want > 0) {
			t.Errorf("pullNumber(%q) = %d, %v; want %d", ref, n, ok, want)
		}
	}
}
