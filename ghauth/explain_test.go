package ghauth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/repo"
)

// ExplainRemotes agrees with GitHubRemote on which remotes count, and for
// the others says why: a local path, another forge (no login advice), an
// SSH alias for another forge, a host gh does not know (the login host
// to advise), or, with GH_HOST set, not GH_HOST (no login advice either:
// logging in elsewhere would not help).
func TestExplainRemotes(t *testing.T) {
	setupGh(t, "ghe.known.example:\n  user: me\n")
	home := t.TempDir()
	t.Setenv("HOME", home)
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "config"), []byte("Host lab\n  HostName gitlab.com\nHost work\n  HostName GHE.Corp.Example\n"), 0o600)
	cases := []struct {
		url, why, login string
		counts          bool
	}{
		{url: "https://github.com/o/r", counts: true},
		{url: "git@ghe.known.example:o/r.git", counts: true},
		{url: "https://acme.ghe.com/o/r", counts: true},
		{url: "https://gitlab.com/o/r.git", why: "gitlab.com is GitLab, not GitHub"},
		{url: "git@gitlab.acme.io:o/r.git", why: "gitlab.acme.io is GitLab, not GitHub"},
		{url: "https://bitbucket.org/o/r", why: "bitbucket.org is Bitbucket, not GitHub"},
		{url: "git@lab:o/r.git", why: "gitlab.com is GitLab, not GitHub"},
		{url: "https://ghe.corp.example/o/r.git", why: "ghe.corp.example is not a GitHub host gh knows", login: "ghe.corp.example"},
		{url: "git@work:o/r.git", why: "ghe.corp.example is not a GitHub host gh knows", login: "ghe.corp.example"},
		{url: "/srv/git/r.git", why: "a local path"},
		{url: "file:///srv/git/r.git", why: "a local path"},
	}
	check := func(t *testing.T, s *Setup, url, why, login string, counts bool) {
		t.Helper()
		info := &repo.Info{Remotes: []repo.Remote{{Name: "origin", URL: url}}}
		v := s.ExplainRemotes(info)
		if len(v) != 1 {
			t.Fatalf("%s: %d verdicts", url, len(v))
		}
		_, ok := s.GitHubRemote(info)
		if v[0].Counts != ok || v[0].Counts != counts || !strings.HasPrefix(v[0].Why, why) || v[0].Login != login || counts && v[0].Why != "" {
			t.Errorf("%s: %+v (GitHubRemote %v), want counts %v, why %q, login %q", url, v[0], ok, counts, why, login)
		}
	}
	s := ReadSetup(env.Process())
	for _, c := range cases {
		check(t, s, c.url, c.why, c.login, c.counts)
	}
	t.Setenv("GH_HOST", "ghe.known.example")
	s = ReadSetup(env.Process())
	check(t, s, "https://ghe.known.example/o/r", "", "", true)
	for _, url := range []string{"https://github.com/o/r", "https://ghe.corp.example/o/r.git", "https://gitlab.com/o/r.git"} {
		check(t, s, url, strings.Split(strings.TrimPrefix(url, "https://"), "/")[0]+" is not GH_HOST (ghe.known.example)", "", false)
	}
	if v := s.ExplainRemotes(&repo.Info{Remotes: []repo.Remote{{Name: "a", URL: "/x"}, {Name: "b", URL: "https://github.com/o/r"}}}); len(v) != 2 || v[0].Name != "a" || v[1].Name != "b" {
		t.Errorf("not one verdict per remote, in order: %+v", v)
	}
}
