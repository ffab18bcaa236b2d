package ghauth

import (
	"fmt"
	"github.com/prchip/prchip/internal/testenv"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	ghauth "github.com/cli/go-gh/v2/pkg/auth"
	goghconfig "github.com/cli/go-gh/v2/pkg/config"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/repo"
)

// go-gh reads its configuration once per process, so the oracle runs in a
// fresh copy of the test binary for each case.
func TestMain(m *testing.M) {
	if os.Getenv("PRCHIP_GOGH_ORACLE") == "1" {
		fmt.Println(strings.Join(ghauth.KnownHosts(), "\n"))
		os.Exit(0)
	}
	testenv.Main(m)
}

func goGhKnownHosts(t *testing.T) []string {
	t.Helper()
	c := exec.Command(os.Args[0], "-test.run=^$")
	c.Env = append(os.Environ(), "PRCHIP_GOGH_ORACLE=1")
	out, err := c.Output()
	if err != nil {
		t.Fatalf("go-gh oracle: %v", err)
	}
	return strings.Fields(string(out))
}

func TestNormalizeHostnameMatchesGoGh(t *testing.T) {
	for _, h := range []string{"github.com", "GitHub.COM", "api.github.com", "www.github.com", "github.localhost",
		"api.github.localhost", "octo.ghe.com", "api.octo.ghe.com", "x.y.octo.ghe.com", "ghe.corp.example", "GHE.Corp.Example", "ghe.com"} {
		if got, want := NormalizeHostname(h), ghauth.NormalizeHostname(h); got != want {
			t.Errorf("NormalizeHostname(%q) = %q, go-gh says %q", h, got, want)
		}
	}
}

// setupGh points gh's configuration at a temp dir with hostsYml.
func setupGh(t *testing.T, hostsYml string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("GH_CONFIG_DIR", dir)
	for _, v := range append(TokenVars, "GH_HOST") {
		t.Setenv(v, "")
	}
	if hostsYml != "" {
		if err := os.WriteFile(filepath.Join(dir, "hosts.yml"), []byte(hostsYml), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestKnownHostsMatchGoGh(t *testing.T) {
	cases := []struct {
		name   string
		hosts  string
		ghHost string
		token  string
	}{
		{"hosts file", "github.com:\n    user: me\n    oauth_token: gho_x\n    git_protocol: https\nghe.corp.example:\n    user: me\n", "", ""},
		{"GH_HOST", "", "ghe.other.example", ""},
		{"token only", "", "", "tok"},
		{"quoted keys and comments", "# gh hosts\n\"ghe.quoted.example\":\n  user: me\n", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			setupGh(t, c.hosts)
			t.Setenv("GH_HOST", c.ghHost)
			t.Setenv("GH_TOKEN", c.token)
			s := ReadSetup(env.Process())
			known := goGhKnownHosts(t)
			if len(known) == 0 {
				t.Fatal("the go-gh oracle knows no host: the comparison would prove nothing")
			}
			for _, h := range known {
				if !s.IsGitHubHost(h) {
					t.Errorf("go-gh knows %q, prchip does not (hosts %v)", h, s.Hosts())
				}
			}
			if s.IsGitHubHost("gitlab.com") || s.IsGitHubHost("") {
				t.Error("gitlab.com or empty host accepted")
			}
			if !s.IsGitHubHost("github.com") || !s.IsGitHubHost("acme.ghe.com") {
				t.Error("github.com or tenancy host rejected")
			}
		})
	}
}

func TestSetupNeverHoldsToken(t *testing.T) {
	setupGh(t, "")
	const secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
	t.Setenv("GH_TOKEN", secret)
	s := ReadSetup(env.Process())
	for _, v := range []string{s.Auth, s.GhIdentity, s.Identity(), strings.Join(s.Hosts(), ",")} {
		if strings.Contains(v, secret) || strings.Contains(v, "ghp_") {
			t.Fatalf("token in setup: %q", v)
		}
	}
}

func TestSetupIdentityChanges(t *testing.T) {
	setupGh(t, "")
	bin := t.TempDir()
	t.Setenv("PATH", bin)
	base := ReadSetup(env.Process()).Identity()
	if ReadSetup(env.Process()).GhPath != "" {
		t.Fatal("gh found in an empty PATH")
	}
	steps := []struct {
		name string
		do   func()
	}{
		{"token set", func() { t.Setenv("GH_TOKEN", "a") }},
		{"token changed", func() { t.Setenv("GH_TOKEN", "b") }},
		{"other token var", func() { t.Setenv("GITHUB_TOKEN", "c") }},
		{"token unset", func() { t.Setenv("GH_TOKEN", ""); t.Setenv("GITHUB_TOKEN", "") }},
		{"hosts.yml written", func() {
			os.WriteFile(filepath.Join(os.Getenv("GH_CONFIG_DIR"), "hosts.yml"), []byte("github.com:\n  user: me\n"), 0o600)
		}},
		{"gh appears", func() { os.WriteFile(filepath.Join(bin, "gh"), []byte("#!/bin/sh\n"), 0o755) }},
		{"gh changes", func() {
			p := filepath.Join(bin, "gh")
			os.WriteFile(p, []byte("#!/bin/sh\n# v2\n"), 0o755)
			os.Chtimes(p, time.Now().Add(time.Hour), time.Now().Add(time.Hour))
		}},
	}
	prev := base
	for _, s := range steps {
		s.do()
		id := ReadSetup(env.Process()).Identity()
		if id == prev {
			t.Fatalf("%s: identity unchanged", s.name)
		}
		if again := ReadSetup(env.Process()).Identity(); again != id {
			t.Fatalf("%s: identity not stable", s.name)
		}
		prev = id
	}
}

func TestLookPathRejectsDirsAndNonExecutables(t *testing.T) {
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(a, "gh"), 0o755)
	os.WriteFile(filepath.Join(b, "gh"), []byte("#!/bin/sh\n"), 0o644)
	t.Setenv("PATH", strings.Join([]string{a, b, "relative", ""}, ":"))
	if p, _ := LookPath("gh", env.Process()); p != "" {
		t.Fatalf("found %q", p)
	}
	os.WriteFile(filepath.Join(c, "gh"), []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("PATH", strings.Join([]string{a, b, c}, ":"))
	if p, _ := LookPath("gh", env.Process()); p != filepath.Join(c, "gh") {
		t.Fatalf("found %q", p)
	}
}

func TestGitHubRemotePriority(t *testing.T) {
	setupGh(t, "")
	s := ReadSetup(env.Process())
	info := &repo.Info{Remotes: []repo.Remote{
		{Name: "fork", URL: "https://github.com/me/r"},
		{Name: "lab", URL: "https://gitlab.com/x/r"},
		{Name: "origin", URL: "git@github.com:me/r.git"},
		{Name: "upstream", URL: "https://github.com/octo/r"},
	}}
	if r, ok := s.GitHubRemote(info); !ok || r.Name != "upstream" {
		t.Fatalf("picked %+v", r)
	}
	info.Remotes = info.Remotes[:2]
	if r, ok := s.GitHubRemote(info); !ok || r.Name != "fork" {
		t.Fatalf("picked %+v", r)
	}
	info.Remotes = info.Remotes[1:2]
	if _, ok := s.GitHubRemote(info); ok {
		t.Fatal("gitlab remote picked")
	}
}

// An SSH remote whose host is an alias in ~/.ssh/config for a GitHub host
// is a GitHub remote, as it is to gh; an HTTPS remote's host is never
// looked up, and neither is an alias for another host.
func TestGitHubRemoteThroughSSHAlias(t *testing.T) {
	setupGh(t, "")
	home := t.TempDir()
	t.Setenv("HOME", home)
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "config"), []byte(
		"Host github-work\n  HostName ssh.github.com\n  User git\nHost lab\n  HostName gitlab.com\n"), 0o600)
	s := ReadSetup(env.Process())
	cases := []struct {
		url, host string // host "": not a GitHub remote
	}{
		{"git@github-work:org/r.git", "github.com"},
		{"ssh://git@github-work:22/org/r.git", "github.com"},
		{"git+ssh://github-work/org/r", "github.com"},
		{"https://github-work/org/r", ""},
		{"git@lab:org/r.git", ""},
		{"git@unknown:org/r.git", ""},
		{"git@ssh.github.com:org/r.git", "github.com"},
		{"https://api.github.com/org/r", "github.com"},
		{"../local.git", ""},
	}
	for _, c := range cases {
		r, ok := s.GitHubRemote(&repo.Info{Remotes: []repo.Remote{{Name: "origin", URL: c.url}}})
		if ok != (c.host != "") || r.Host != c.host {
			t.Errorf("%s: found %v host %q, want host %q", c.url, ok, r.Host, c.host)
		}
	}
	// gh's priority holds across direct and aliased remotes.
	for _, c := range []struct {
		remotes []repo.Remote
		want    string
	}{
		{[]repo.Remote{{Name: "origin", URL: "https://github.com/o/r"}, {Name: "upstream", URL: "git@github-work:o/r"}}, "upstream"},
		{[]repo.Remote{{Name: "origin", URL: "git@github-work:o/r"}, {Name: "fork", URL: "https://github.com/o/r"}}, "origin"},
		{[]repo.Remote{{Name: "a", URL: "git@github-work:o/r"}, {Name: "b", URL: "https://github.com/o/r"}}, "a"},
		{[]repo.Remote{{Name: "b", URL: "https://github.com/o/r"}, {Name: "a", URL: "git@github-work:o/r"}}, "b"},
		{[]repo.Remote{{Name: "lab", URL: "git@lab:o/r"}, {Name: "z", URL: "git@github-work:o/r"}}, "z"},
	} {
		if r, ok := s.GitHubRemote(&repo.Info{Remotes: c.remotes}); !ok || r.Name != c.want {
			t.Errorf("%v: picked %+v, want %s", c.remotes, r, c.want)
		}
	}
}

// Digests of different part lists differ, however the parts split the
// same bytes.
func TestDigestSeparatesParts(t *testing.T) {
	seen := map[string][]string{}
	for _, parts := range [][]string{{}, {""}, {"", ""}, {"ab", "c"}, {"a", "bc"}, {"abc"}, {"a;b"}, {"a", "b"}, {"1:a;"}, {"1:a;", ""}} {
		d := Digest(parts...)
		if prev, ok := seen[d]; ok {
			t.Errorf("%q and %q share digest %s", prev, parts, d)
		}
		seen[d] = parts
		if d != Digest(parts...) {
			t.Errorf("%q: digest not stable", parts)
		}
	}
}

// A hosts.yml that is not YAML is a problem status reports; one that is a
// FIFO is refused at once, never waited on.
func TestHostsFileProblems(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GH_CONFIG_DIR", dir)
	hosts := filepath.Join(dir, "hosts.yml")
	os.WriteFile(hosts, []byte("ghe.example: [unclosed\n"), 0o600)
	if err := ReadSetup(env.Process()).HostsErr(); err == nil {
		t.Error("a broken hosts.yml gave no problem")
	}
	os.Remove(hosts)
	if err := syscall.Mkfifo(hosts, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		s := ReadSetup(env.Process())
		s.TokenSource("github.com")
		done <- s.HostsErr()
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a FIFO as hosts.yml gave no problem")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("reading a FIFO as hosts.yml blocked")
	}
}

// With GH_HOST set, only remotes on that host count, as gh has it: no gh
// run where gh would answer that none of the remotes correspond.
func TestGitHubRemoteFollowsGHHost(t *testing.T) {
	t.Setenv("GH_CONFIG_DIR", t.TempDir())
	info := &repo.Info{Remotes: []repo.Remote{{Name: "origin", URL: "https://github.com/o/r.git"}}}
	t.Setenv("GH_HOST", "")
	if _, ok := ReadSetup(env.Process()).GitHubRemote(info); !ok {
		t.Fatal("a github.com remote without GH_HOST does not count")
	}
	t.Setenv("GH_HOST", "ghe.corp.example")
	if r, ok := ReadSetup(env.Process()).GitHubRemote(info); ok {
		t.Fatalf("with GH_HOST=ghe.corp.example the github.com remote counts: %+v", r)
	}
	info.Remotes = append(info.Remotes, repo.Remote{Name: "ghe", URL: "https://ghe.corp.example/o/r.git"})
	if r, ok := ReadSetup(env.Process()).GitHubRemote(info); !ok || r.Name != "ghe" {
		t.Fatalf("the GH_HOST remote: %+v %v", r, ok)
	}
}

// GH_REPO is read as gh reads it (go-gh's parser): OWNER/REPO on GH_HOST or
// github.com, HOST/OWNER/REPO, URLs and scp-like SSH addresses.
func TestGhRepoAsGhReadsIt(t *testing.T) {
	t.Setenv("GH_CONFIG_DIR", t.TempDir())
	cases := []struct {
		ghHost, value, url string
		ok                 bool
	}{
		{"", "octo/up", "https://github.com/octo/up", true},
		{"ghe.corp.example", "octo/up", "https://ghe.corp.example/octo/up", true},
		{"", "github.com/octo/up", "https://github.com/octo/up", true},
		{"", "https://github.com/octo/up.git", "https://github.com/octo/up", true},
		{"", "git@github.com:octo/up.git", "https://github.com/octo/up", true},
		{"", "gitlab.com/octo/up", "", false},
		{"", "not a repo", "", false},
		{"", "a/b/c/d", "", false},
	}
	for _, c := range cases {
		t.Setenv("GH_HOST", c.ghHost)
		t.Setenv("GH_REPO", c.value)
		r, set, ok := ReadSetup(env.Process()).GhRepo()
		if !set || ok != c.ok || ok && r.URL != c.url {
			t.Errorf("GH_HOST=%q GH_REPO=%q: %+v set %v ok %v", c.ghHost, c.value, r, set, ok)
		}
	}
}

// HostsTokens finds every oauth_token in gh's hosts.yml: per host, per
// account (gh 2.40 and later), quoted or not; nothing from a broken or
// missing file.
func TestHostsTokens(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GH_CONFIG_DIR", dir)
	cases := []struct {
		name, hosts string
		want        []string
	}{
		{"legacy host entry", "github.com:\n    oauth_token: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b\n    user: o\n",
			[]string{"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"}},
		{"accounts on two hosts", "github.com:\n    users:\n        a:\n            oauth_token: gho_aaaaaaaaaa\n        b:\n            oauth_token: 'gho_bbbbbbbbbb'\n" +
			"    oauth_token: gho_aaaaaaaaaa\nghe.example.com:\n    oauth_token: \"enterprise-token\"\n",
			[]string{"enterprise-token", "gho_aaaaaaaaaa", "gho_aaaaaaaaaa", "gho_bbbbbbbbbb"}},
		{"keyring: no token", "github.com:\n    user: o\n    git_protocol: https\n", nil},
		{"not YAML", "github.com: [\n", nil},
	}
	for _, c := range cases {
		os.WriteFile(filepath.Join(dir, "hosts.yml"), []byte(c.hosts), 0o600)
		got := HostsTokens(env.Process())
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	os.Remove(filepath.Join(dir, "hosts.yml"))
	if got := HostsTokens(env.Process()); got != nil {
		t.Errorf("no hosts.yml: %q", got)
	}
}

// ConfigDir reads the variables from the Env given (a worker request's)
// by go-gh's rule, which reads the process's: go-gh is the oracle.
func TestConfigDirIsGoGhs(t *testing.T) {
	home := t.TempDir()
	cases := []map[string]string{
		{"HOME": home},
		{"HOME": home, "XDG_CONFIG_HOME": home + "/xdg"},
		{"HOME": home, "XDG_CONFIG_HOME": home + "/xdg", "GH_CONFIG_DIR": home + "/ghc"},
		{"HOME": home, "GH_CONFIG_DIR": home + "/ghc"},
	}
	for _, vars := range cases {
		for _, n := range []string{"HOME", "XDG_CONFIG_HOME", "GH_CONFIG_DIR"} {
			t.Setenv(n, vars[n])
		}
		want := goghconfig.ConfigDir()
		// The request's variables decide, whatever the process has.
		t.Setenv("GH_CONFIG_DIR", "/elsewhere")
		if got := ConfigDir(env.Of(vars)); got != want {
			t.Errorf("%v: got %q, go-gh says %q", vars, got, want)
		}
	}
}

// Hosts are the hosts in gh's hosts.yml, sorted.
func (s *Setup) Hosts() []string { return slices.Sorted(maps.Keys(s.hosts())) }
