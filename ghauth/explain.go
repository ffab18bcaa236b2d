package ghauth

import (
	"cmp"
	"strings"

	"github.com/prchip/prchip/internal/repo"
)

// RemoteVerdict says whether gh would take a remote, and why not: for
// `status`, when no remote counts. It goes by GitHubRemote's rules, and
// is never built on the render path.
type RemoteVerdict struct {
	Name string
	URL  string // as configured: the caller redacts and sanitises it
	// Host is the URL's host, "" for a local path; Alias the HostName an
	// SSH alias stands for in ~/.ssh/config, when it names another.
	Host, Alias string
	Counts      bool
	Why         string // why it does not count
	Login       string // for `gh auth login --hostname`: maybe a GHES gh does not know yet
}

// ExplainRemotes judges each of info's remotes as GitHubRemote does, and
// says for each one that does not count why not.
func (s *Setup) ExplainRemotes(info *repo.Info) []RemoteVerdict {
	counts, ghHost := s.counts(), s.env.Get("GH_HOST")
	var out []RemoteVerdict
	for _, r := range info.Remotes {
		v := RemoteVerdict{Name: r.Name, URL: r.URL, Host: repo.Host(r.URL)}
		host := v.Host
		if host != "" && repo.IsSSH(r.URL) {
			if a := SSHHostName(host, s.env.Get("HOME"), s.env.Files()); a != "" && a != host { // lowercase already
				v.Alias = a
			}
		}
		v.Counts = counts(host) || v.Alias != "" && counts(v.Alias)
		host = cmp.Or(v.Alias, host) // the host ssh, and so git and gh, would reach
		switch n := NormalizeHostname(host); {
		case v.Counts:
		case host == "":
			v.Why = "a local path, not a hosted repository"
		case ghHost != "":
			v.Why = host + " is not GH_HOST (" + ghHost + "), and while GH_HOST is set gh takes only remotes on it"
		case otherForge(n) != "":
			v.Why = host + " is " + otherForge(n) + ", not GitHub"
		default:
			v.Why = host + " is not a GitHub host gh knows: not github.com, not *.ghe.com, not GH_HOST, not in gh's hosts.yml"
			v.Login = n
		}
		out = append(out, v)
	}
	return out
}

// otherForge names the forge a host belongs to when it is plainly not a
// GitHub Enterprise Server, "" when it may be one.
func otherForge(host string) string {
	has := func(word string) bool { return strings.Contains(host, word) } // in some label: words hold no dot
	switch {
	case has("gitlab"):
		return "GitLab"
	case has("bitbucket"):
		return "Bitbucket"
	case host == "codeberg.org":
		return "Codeberg"
	case host == "sr.ht" || strings.HasSuffix(host, ".sr.ht"):
		return "SourceHut"
	case host == "dev.azure.com" || strings.HasSuffix(host, ".dev.azure.com") || strings.HasSuffix(host, ".visualstudio.com"):
		return "Azure DevOps"
	case strings.HasSuffix(host, ".googlesource.com"):
		return "Gerrit (googlesource.com)"
	case has("gitea") || has("forgejo"):
		return "Gitea or Forgejo"
	case host == "sourceforge.net" || strings.HasSuffix(host, ".sourceforge.net"):
		return "SourceForge"
	}
	return ""
}
