package repo

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/testenv"
)

// gitEnvNames are the variables that change how git finds a repository or
// its configuration: every test below sets each or unsets it.
var gitEnvNames = []string{"HOME", "XDG_CONFIG_HOME", "GIT_DIR", "GIT_WORK_TREE", "GIT_CONFIG_GLOBAL",
	"GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0",
	"GIT_CONFIG_PARAMETERS", "GIT_CEILING_DIRECTORIES", "SUDO_UID"}

// setGitEnv sets exactly env of gitEnvNames, unsetting the others, for
// the rest of the test (Find and the git run after it read the same).
func setGitEnv(t *testing.T, env map[string]string) {
	t.Helper()
	for _, n := range gitEnvNames {
		t.Setenv(n, "") // restored after the test
		if v, ok := env[n]; ok {
			os.Setenv(n, v)
		} else {
			os.Unsetenv(n)
		}
	}
}

// gitVersion is the installed git's version as numbers (2.39.5 → 2,39,5).
func gitVersion(t *testing.T) [3]int {
	t.Helper()
	out, err := exec.Command("git", "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	var v [3]int
	f := strings.Fields(string(out))
	for i, p := range strings.SplitN(f[len(f)-1], ".", 3) {
		v[i], _ = strconv.Atoi(strings.TrimFunc(p, func(r rune) bool { return r < '0' || r > '9' }))
	}
	return v
}

func atLeast(have [3]int, want string) bool {
	if want == "" {
		return true
	}
	var w [3]int
	for i, p := range strings.SplitN(want, ".", 3) {
		w[i], _ = strconv.Atoi(p)
	}
	for i := range have {
		if have[i] != w[i] {
			return have[i] > w[i]
		}
	}
	return true
}

// gitTrusts is the real git's verdict on dir: whether it opens the
// repository, and the safe.directory value its refusal suggests.
func gitTrusts(t *testing.T, dir string) (bool, string) {
	t.Helper()
	c := exec.Command("git", "-C", dir, "rev-parse", "--git-dir")
	out, err := c.CombinedOutput()
	if err == nil {
		return true, ""
	}
	if !strings.Contains(string(out), "dubious ownership") {
		t.Fatalf("git rev-parse in %s: %v\n%s", dir, err, out)
	}
	_, advice, _ := strings.Cut(string(out), "safe.directory ")
	advice = strings.TrimSpace(advice)
	// git quotes it for sh when it holds more than letters, digits and +,-./:=@_^.
	if q, ok := strings.CutPrefix(advice, "'"); ok {
		advice = strings.ReplaceAll(strings.TrimSuffix(q, "'"), `'\''`, "'")
	}
	return false, advice
}

// TestOwnershipFollowsGit: repositories that belong to another user (uid
// 65534) and safe.directory settings, each judged by Find and by the real
// git in the same environment: they must agree, and the command Find's
// refusal suggests names what git's names. Rows whose rule is newer than
// the installed git (trailing "/*", normalised paths) check Find against
// the table alone.
func TestOwnershipFollowsGit(t *testing.T) {
	testenv.Need(t, "git")
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI runs as root: this test chowns to another user")
		}
		t.Skip("needs root to chown a repository to another user")
	}
	version := gitVersion(t)
	const nobody = "65534"
	cases := []struct {
		name string
		// chown: whose owner changes to nobody: "all" (the repository,
		// recursively), "top" (the work tree's top only), "gitdir" (.git
		// only), "wt" (a linked worktree's top), "wtfile" (its .git file).
		chown string
		// global is ~/.gitconfig; files are other files under home.
		global string
		files  map[string]string
		local  string // appended to the repository's .git/config
		env    map[string]string
		// worktree: judge a linked worktree of the repository instead.
		worktree bool
		want     bool
		minGit   string
	}{
		{name: "mine", want: true},
		{name: "someone else's", chown: "all"},
		{name: "only .git someone else's", chown: "gitdir"},
		{name: "only the work tree someone else's", chown: "top"},
		{name: "star", chown: "all", global: "[safe]\n\tdirectory = *\n", want: true},
		{name: "exact path", chown: "all", global: "[safe]\n\tdirectory = {repo}\n", want: true},
		{name: "quoted path, key in capitals", chown: "all", global: "[Safe]\n\tDirectory = \"{repo}\" ; mine\n", want: true},
		{name: "home-relative path", chown: "all", global: "[safe]\n\tdirectory = ~/src/repo\n", want: true},
		{name: "another path", chown: "all", global: "[safe]\n\tdirectory = {home}/src/other\n"},
		{name: "a name's prefix is no prefix", chown: "all", global: "[safe]\n\tdirectory = {home}/src/re*\n"},
		{name: "leading path", chown: "all", global: "[safe]\n\tdirectory = {home}/src/*\n", want: true, minGit: "2.46.0"},
		{name: "leading path is not itself", chown: "all", global: "[safe]\n\tdirectory = {repo}/*\n"},
		{name: "trailing slash", chown: "all", global: "[safe]\n\tdirectory = {repo}/\n", want: true, minGit: "2.46.1"},
		{name: "through a symlink", chown: "all", global: "[safe]\n\tdirectory = {home}/link\n", want: true, minGit: "2.46.1"},
		{name: "reset by an empty value", chown: "all", global: "[safe]\n\tdirectory = *\n\tdirectory =\n"},
		{name: "reset by a bare key", chown: "all", global: "[safe]\n\tdirectory = *\n\tdirectory\n"},
		{name: "allowed again after a reset", chown: "all", global: "[safe]\n\tdirectory =\n\tdirectory = {repo}\n", want: true},
		{name: "the repository's own setting does not count", chown: "all", local: "[safe]\n\tdirectory = *\n"},
		{name: "subsection is another key", chown: "all", global: "[safe \"x\"]\n\tdirectory = *\n"},
		{name: "XDG config", chown: "all", env: map[string]string{"XDG_CONFIG_HOME": "{home}/xdg"},
			files: map[string]string{"xdg/git/config": "[safe]\n\tdirectory = *\n"}, want: true},
		{name: "GIT_CONFIG_GLOBAL replaces ~/.gitconfig", chown: "all", global: "[safe]\n\tdirectory = *\n",
			env: map[string]string{"GIT_CONFIG_GLOBAL": "{home}/empty"}, files: map[string]string{"empty": ""}},
		{name: "GIT_CONFIG_GLOBAL", chown: "all", env: map[string]string{"GIT_CONFIG_GLOBAL": "{home}/g"},
			files: map[string]string{"g": "[safe]\n\tdirectory = {repo}\n"}, want: true},
		{name: "system config", chown: "all", env: map[string]string{"GIT_CONFIG_SYSTEM": "{home}/sys"},
			files: map[string]string{"sys": "[safe]\n\tdirectory = *\n"}, want: true},
		{name: "system config switched off", chown: "all", env: map[string]string{"GIT_CONFIG_SYSTEM": "{home}/sys", "GIT_CONFIG_NOSYSTEM": "1"},
			files: map[string]string{"sys": "[safe]\n\tdirectory = *\n"}},
		{name: "GIT_CONFIG_NOSYSTEM false", chown: "all", env: map[string]string{"GIT_CONFIG_SYSTEM": "{home}/sys", "GIT_CONFIG_NOSYSTEM": "false"},
			files: map[string]string{"sys": "[safe]\n\tdirectory = *\n"}, want: true},
		{name: "empty GIT_CONFIG_GLOBAL names no file", chown: "all", global: "[safe]\n\tdirectory = *\n",
			env: map[string]string{"GIT_CONFIG_GLOBAL": ""}},
		{name: "global resets system", chown: "all", global: "[safe]\n\tdirectory =\n", env: map[string]string{"GIT_CONFIG_SYSTEM": "{home}/sys"},
			files: map[string]string{"sys": "[safe]\n\tdirectory = *\n"}},
		{name: "command line", chown: "all",
			env: map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory", "GIT_CONFIG_VALUE_0": "{repo}"}, want: true},
		{name: "command line resets global", chown: "all", global: "[safe]\n\tdirectory = *\n",
			env: map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory", "GIT_CONFIG_VALUE_0": ""}},
		{name: "include.path", chown: "all", global: "[include]\n\tpath = inc\n", files: map[string]string{"inc": "[safe]\n\tdirectory = *\n"}, want: true},
		{name: "include.path in order", chown: "all", global: "[include]\n\tpath = inc\n[safe]\n\tdirectory =\n", files: map[string]string{"inc": "[safe]\n\tdirectory = *\n"}},
		{name: "sudo from the owner", chown: "all", env: map[string]string{"SUDO_UID": nobody}, want: true},
		{name: "sudo from another user", chown: "all", env: map[string]string{"SUDO_UID": "1234"}},
		{name: "GIT_DIR is not checked", chown: "all", env: map[string]string{"GIT_DIR": "{repo}/.git"}, want: true},
		{name: "GIT_WORK_TREE alone is", chown: "all", env: map[string]string{"GIT_WORK_TREE": "{repo}"}},
		{name: "linked worktree of someone else's repository", chown: "all", worktree: true},
		{name: "linked worktree someone else's", chown: "wt", worktree: true},
		{name: "linked worktree's .git file someone else's", chown: "wtfile", worktree: true},
		{name: "linked worktree allowed", chown: "all", worktree: true, global: "[safe]\n\tdirectory = {home}/src/wt\n", want: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			repo := filepath.Join(home, "src", "repo")
			expand := func(s string) string {
				return strings.NewReplacer("{repo}", repo, "{home}", home).Replace(s)
			}
			setGitEnv(t, map[string]string{"HOME": home, "GIT_CONFIG_NOSYSTEM": "1"})
			os.MkdirAll(repo, 0o755)
			testenv.Git(t, repo, "init", "-q", "-b", "main")
			testenv.Git(t, repo, "commit", "-q", "--allow-empty", "-m", "init")
			testenv.Git(t, repo, "remote", "add", "origin", "https://github.com/o/r")
			dir := repo
			if c.worktree {
				dir = filepath.Join(home, "src", "wt")
				testenv.Git(t, repo, "worktree", "add", "-q", "-b", "side", dir)
			}
			if err := os.Symlink(repo, filepath.Join(home, "link")); err != nil {
				t.Fatal(err)
			}
			if c.local != "" {
				appendFile(t, filepath.Join(repo, ".git", "config"), c.local)
			}
			if c.global != "" {
				writeFile(t, filepath.Join(home, ".gitconfig"), expand(c.global))
			}
			for name, body := range c.files {
				writeFile(t, filepath.Join(home, name), expand(body))
			}
			switch c.chown {
			case "all":
				run(t, "chown", "-R", nobody, repo)
			case "top":
				run(t, "chown", nobody, repo)
			case "gitdir":
				run(t, "chown", nobody, filepath.Join(repo, ".git"))
			case "wt":
				run(t, "chown", nobody, dir)
			case "wtfile":
				run(t, "chown", nobody, filepath.Join(dir, ".git"))
			}
			vars := map[string]string{"HOME": home, "GIT_CONFIG_NOSYSTEM": "1"}
			for k, v := range c.env {
				vars[k] = expand(v)
			}
			if _, ok := c.env["GIT_CONFIG_SYSTEM"]; ok {
				if _, off := c.env["GIT_CONFIG_NOSYSTEM"]; !off {
					delete(vars, "GIT_CONFIG_NOSYSTEM")
				}
			}
			setGitEnv(t, vars)

			info, err := Find(dir, env.Process())
			var unsafe *UnsafeError
			if err != nil && !errors.As(err, &unsafe) {
				t.Fatalf("Find: %v", err)
			}
			if got := err == nil; got != c.want {
				t.Fatalf("Find trusts the repository: %v, want %v (%v)", got, c.want, err)
			}
			if info != nil && info.Branch == "" {
				t.Fatalf("trusted, but no branch read: %+v", info)
			}
			if !atLeast(version, c.minGit) {
				t.Logf("git %v predates this rule (git %s): checked against the table only", version, c.minGit)
				return
			}
			gitOK, advice := gitTrusts(t, dir)
			if gitOK != c.want {
				t.Fatalf("the table says %v, git says %v", c.want, gitOK)
			}
			if unsafe != nil && unsafe.Allow != advice {
				t.Errorf("Find suggests safe.directory %q, git suggests %q", unsafe.Allow, advice)
			}
		})
	}
}

// TestTrustReadsGitConfigOnlyForOthersRepositories: in one's own
// repository the trust check reads no git configuration (the owner check
// costs one stat): the files outside the repository are read once, for the
// lookup's settings (LookupID); only a repository that belongs to someone
// else has ~/.gitconfig read a second time, for safe.directory.
func TestTrustReadsGitConfigOnlyForOthersRepositories(t *testing.T) {
	home := t.TempDir()
	repo := filepath.Join(home, "repo")
	os.MkdirAll(repo, 0o755)
	setGitEnv(t, map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "xdg")})
	writeFile(t, filepath.Join(home, ".gitconfig"), "[safe]\n\tdirectory = *\n")
	testenv.Git(t, repo, "init", "-q", "-b", "main")
	var touched []string
	tracked := env.Process().Tracked(func(p string, _ bool) { touched = append(touched, p) })
	if _, err := Find(repo, tracked); err != nil {
		t.Fatal(err)
	}
	outside := map[string]int{}
	for _, p := range touched {
		if !strings.HasPrefix(p, repo) {
			outside[p]++
		}
	}
	for _, f := range ConfigFiles(env.Process()) {
		if outside[f] != 1 {
			t.Errorf("Find in one's own repository looked at %s %d times, want once (all: %v)", f, outside[f], touched)
		}
		delete(outside, f)
	}
	if len(outside) > 0 {
		t.Errorf("Find in one's own repository looked outside it at %v", outside)
	}
	if os.Geteuid() != 0 {
		return
	}
	touched = nil
	run(t, "chown", "-R", "65534", repo)
	if _, err := Find(repo, tracked); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.Join(touched, "\n")+"\n", filepath.Join(home, ".gitconfig")+"\n"); n != 2 {
		t.Errorf("someone else's repository: ~/.gitconfig read %d times, want twice (safe.directory, lookup): %v", n, touched)
	}
}

func writeFile(t *testing.T, p, body string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t *testing.T, p, body string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(body)
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}
