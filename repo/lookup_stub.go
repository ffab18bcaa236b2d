package repo

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

func (info *Info) Plan() (*Plan, error) { return &Plan{Branch: info.Branch}, nil }

func RepoPath(url string) (owner, name string, ok bool) { return "", "", false }

func CutFrom(info *Info, remote string, bases []string) string { return "" }
