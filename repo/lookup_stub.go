package repo

import "strings"

// TEMPORARY stub of the h-lookup branch's API, removed at merge.

type Plan struct {
	Branch      string
	Rebasing    bool
	PRNumber    int
	PRRemoteURL string
	Heads       []Head
	Remotes     []PlanRemote
}

type Head struct {
	Why    string
	Remote string
	URL    string
	Branch string
}

type PlanRemote struct {
	Name, URL, GhResolved string
}

func (info *Info) Plan() (*Plan, error) {
	p := &Plan{Branch: info.Branch, Rebasing: info.Rebasing}
	for _, r := range info.Remotes {
		p.Remotes = append(p.Remotes, PlanRemote{Name: r.Name, URL: r.URL})
	}
	if info.BranchRemote != "" {
		for _, r := range info.Remotes {
			if r.Name == info.BranchRemote {
				p.Heads = append(p.Heads, Head{Why: "upstream", Remote: r.Name, URL: r.URL, Branch: info.Branch})
			}
		}
	}
	return p, nil
}

func RepoPath(url string) (owner, name string, ok bool) {
	url = strings.TrimSuffix(strings.TrimSuffix(url, "/"), ".git")
	parts := strings.Split(url, "/")
	if len(parts) < 2 {
		return "", "", false
	}
	owner, name = parts[len(parts)-2], parts[len(parts)-1]
	if i := strings.LastIndexByte(owner, ':'); i >= 0 {
		owner = owner[i+1:]
	}
	return owner, name, owner != "" && name != ""
}

func CutFrom(info *Info, remote string, bases []string) string { return "" }
