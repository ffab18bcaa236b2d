package repo

import (
	"cmp"
	"errors"
	"strconv"
	"strings"
)

// Plan is which pull request is the branch's, as local git facts say (SPEC 3).
// Computed in the background refresh only (never on the render path).
type Plan struct {
	Branch   string // the branch whose PR is looked for (during a rebase: the branch being rebased)
	Rebasing bool
	// PRNumber > 0 when branch.<b>.merge is refs/pull/N/head (what `gh pr checkout` writes);
	// PRRemoteURL is then the URL of branch.<b>.remote (a remote's URL with insteadOf applied, or a URL remote itself).
	PRNumber    int
	PRRemoteURL string
	// Heads are the head candidates in order, duplicates (same URL and branch) removed:
	// the push target first, then the upstream.
	Heads []Head
	// Remotes are all remotes in config order with fetch URL (insteadOf applied) and,
	// when set, GhResolved: the value of remote.<name>.gh-resolved ("base", or OWNER/REPO as older gh wrote).
	Remotes []PlanRemote
	// PushDefault is push.default as git reads it ("simple" when unset),
	// for status to explain the push target.
	PushDefault string
	// Triangular is set when the branch pushes to another remote than it
	// fetches from (git's triangular workflow).
	Triangular bool
}

// Head is one candidate for the pull request's head.
type Head struct {
	Why    string // "push target" or "upstream"
	Remote string // remote name, or "" when branch.<b>.remote / pushRemote is a URL
	URL    string // for a push target: the push URL (remote.<r>.pushurl, else url; pushInsteadOf then insteadOf applied as git does); for an upstream: the fetch URL (insteadOf applied)
	Branch string // the branch name on that remote
}

// Why values of a Head.
const (
	WhyPushTarget = "push target"
	WhyUpstream   = "upstream"
)

// PlanRemote is one remote as the lookup sees it.
type PlanRemote struct {
	Name, URL, GhResolved string
}

// planRemote is what the configuration says of one remote.
type planRemote struct {
	name, ghResolved string
	urls, pushurls   []string
}

// planConfig is the configuration Plan and the render read (every key
// decidesLookup names), last value winning where git's does, the first
// where git takes the first of several, and the digest of those keys
// (Info.LookupID).
type planConfig struct {
	branch                     string
	remotes                    []planRemote // every remote.<name>.*, in order of first appearance
	index                      map[string]int
	branchRemote, pushRemote   string
	merge                      string
	hasMerge                   bool
	pushDefault, remotePushDef string
	insteadOf, pushInsteadOf   rewrites
	digest                     uint64
	render                     bool // the render rewrites no push URL: pushInsteadOf is only digested
}

func newPlanConfig(info *Info) *planConfig {
	return &planConfig{branch: info.Branch, index: map[string]int{},
		digest: fnvAdd(fnvOffset, info.Branch, strconv.FormatBool(info.Rebasing))}
}

func (c *planConfig) entry(section, sub, key, val string, hasVal bool) {
	var r *planRemote
	if section == "remote" && sub != "" {
		i, ok := c.index[sub]
		if !ok {
			// git makes a remote for any key under remote.<name>, and
			// counts it for the one-remote default.
			i, c.index[sub] = len(c.remotes), len(c.remotes)
			c.remotes = append(c.remotes, planRemote{name: sub})
		}
		r = &c.remotes[i]
	}
	if !decidesLookup(section, sub, key, c.branch) {
		return
	}
	v := configValue(val)
	c.digest = fnvAdd(c.digest, section, sub, key, strconv.FormatBool(hasVal), v)
	if !hasVal || c.render && key == "pushinsteadof" {
		return
	}
	switch key {
	case "pushdefault":
		c.remotePushDef = v
	case "url":
		r.urls = append(r.urls, v)
	case "pushurl":
		r.pushurls = append(r.pushurls, v)
	case "gh-resolved":
		r.ghResolved = v
	case "remote":
		c.branchRemote = v
	case "pushremote":
		c.pushRemote = v
	case "merge":
		// git keeps every value and its upstream is the first.
		if !c.hasMerge {
			c.merge, c.hasMerge = v, true
		}
	case "default":
		// git's words, case and all; "tracking" is upstream's old name.
		if c.pushDefault = v; v == "tracking" {
			c.pushDefault = "upstream"
		}
	case "insteadof":
		c.insteadOf.add(sub, v)
	case "pushinsteadof":
		c.pushInsteadOf.add(sub, v)
	}
}

// decidesLookup reports whether the config key section.sub.key (section
// and key lower-cased) takes part in deciding which pull request is
// branch's (SPEC 3): the branch's remote, merge ref and push remote, the
// default push remote and push.default, every remote's URLs and gh repo
// set-default's mark, and the URL rewrites. Each key belongs to one
// section only, so entry tells them apart by the key.
func decidesLookup(section, sub, key, branch string) bool {
	switch key {
	case "pushdefault":
		return section == "remote" && sub == ""
	case "url", "pushurl", "gh-resolved":
		return section == "remote" && sub != ""
	case "remote", "merge", "pushremote":
		return section == "branch" && sub != "" && sub == branch
	case "default":
		return section == "push" && sub == ""
	case "insteadof", "pushinsteadof":
		return section == "url" && sub != ""
	}
	return false
}

// Plan reads every config file git reads for the repository, as git reads
// them (walkConfig), and returns the plan.
func (info *Info) Plan() (*Plan, error) {
	if info.Detached || info.Branch == "" {
		return nil, errors.New("HEAD is detached: no branch to look up")
	}
	c := newPlanConfig(info)
	walkConfig(info, c.entry)
	p := &Plan{Branch: info.Branch, Rebasing: info.Rebasing, PushDefault: c.pushDefault}
	if p.PushDefault == "" {
		p.PushDefault = "simple"
	}
	for _, r := range c.remotes {
		if len(r.urls) > 0 { // git lists one without; nothing to ask there
			u, _ := c.insteadOf.apply(r.urls[0])
			p.Remotes = append(p.Remotes, PlanRemote{Name: r.name, URL: u, GhResolved: r.ghResolved})
		}
	}

	// The remote the branch fetches from: branch.<b>.remote, else the
	// only remote, else "origin" (git's remote_for_branch).
	fetchName, fetchExplicit := c.branchRemote, c.branchRemote != ""
	if !fetchExplicit {
		fetchName = "origin"
		if len(c.remotes) == 1 {
			fetchName = c.remotes[0].name
		}
	}
	// The remote it pushes to: branch.<b>.pushRemote, remote.pushDefault,
	// else the fetch remote.
	pushName := cmp.Or(c.pushRemote, c.remotePushDef)
	pushExplicit := pushName != ""
	if !pushExplicit {
		pushName, pushExplicit = fetchName, fetchExplicit
	}
	fetch, fetchOK := c.resolve(fetchName, fetchExplicit)
	push, pushOK := c.resolve(pushName, pushExplicit)
	// Triangular as git's push decides it: the push remote is not the
	// fetch remote (a missing fetch remote included).
	p.Triangular = pushOK && (!fetchOK || fetchName != pushName)

	// The upstream: branch.<b>.remote and the branch in branch.<b>.merge
	// (both needed, as git needs both).
	var upstream *Head
	if c.hasMerge && fetchExplicit && fetchOK {
		if b, ok := strings.CutPrefix(c.merge, "refs/heads/"); ok && b != "" {
			upstream = &Head{Why: WhyUpstream, Remote: fetch.name, URL: fetch.fetchURL, Branch: b}
		} else if n, ok := pullNumber(c.merge); ok {
			p.PRNumber, p.PRRemoteURL = n, fetch.fetchURL
		}
	}

	if pushOK {
		branch := ""
		switch {
		case p.PushDefault == "nothing":
		case p.PushDefault == "current" || p.PushDefault == "matching" || p.Triangular:
			// git push refuses upstream in a triangular workflow, and
			// simple pushes as current there: the branch's own name.
			branch = info.Branch
		case upstream == nil:
		case p.PushDefault == "upstream" || upstream.Branch == info.Branch:
			// simple (and what git refuses to read, where every git
			// push fails) only to an upstream of the branch's name.
			branch = upstream.Branch
		}
		if branch != "" {
			p.Heads = append(p.Heads, Head{Why: WhyPushTarget, Remote: push.name, URL: push.pushURL, Branch: branch})
		}
	}
	if upstream != nil && !(len(p.Heads) == 1 && p.Heads[0].URL == upstream.URL && p.Heads[0].Branch == upstream.Branch) {
		p.Heads = append(p.Heads, *upstream)
	}
	return p, nil
}

// resolvedRemote is a remote name (or URL) resolved as git resolves it.
type resolvedRemote struct {
	name              string // "" for a URL remote
	fetchURL, pushURL string
}

// resolve is git's remote_get: a configured remote with a URL by its
// name; a name the configuration gave (branch.<b>.remote, pushRemote,
// remote.pushDefault) that is no such remote is a URL itself; a default
// name ("origin") that is no remote is none.
func (c *planConfig) resolve(name string, explicit bool) (resolvedRemote, bool) {
	var urls, pushurls []string
	r := resolvedRemote{name: name}
	if i, ok := c.index[name]; ok && len(c.remotes[i].urls) > 0 {
		urls, pushurls = c.remotes[i].urls, c.remotes[i].pushurls
	} else if explicit {
		urls, r.name = []string{name}, ""
	} else {
		return resolvedRemote{}, false
	}
	r.fetchURL, _ = c.insteadOf.apply(urls[0])
	// git's push URLs: the pushurls with insteadOf applied; without any,
	// each url that a pushInsteadOf rule matches, rewritten by it alone;
	// without such, the urls (insteadOf applied). The first one is used.
	if len(pushurls) > 0 {
		r.pushURL, _ = c.insteadOf.apply(pushurls[0])
	} else {
		r.pushURL = r.fetchURL
		for _, u := range urls {
			if pu, ok := c.pushInsteadOf.apply(u); ok {
				r.pushURL = pu
				break
			}
		}
	}
	return r, true
}

// pullNumber is N of refs/pull/N/head.
func pullNumber(ref string) (int, bool) {
	s, ok1 := strings.CutPrefix(ref, "refs/pull/")
	s, ok2 := strings.CutSuffix(s, "/head")
	n, err := strconv.Atoi(s)
	if !ok1 || !ok2 || err != nil || s[0] == '0' || len(s) > 9 || n <= 0 {
		return 0, false
	}
	return n, true
}

// RepoPath is the OWNER and REPO of a remote URL in any of git's forms
// (https://host/OWNER/REPO(.git)(/), ssh://[user@]host[:port]/OWNER/REPO.git, [user@]host:OWNER/REPO.git);
// ok false for anything else (local paths, more or fewer path parts, empty parts).
// OWNER and REPO hold only the characters GitHub allows in them (letters,
// digits, '-', '_', and '.' in REPO), so they are safe to pass to gh and to show.
func RepoPath(url string) (owner, name string, ok bool) {
	scheme, host, path, ok := splitURL(url)
	switch scheme {
	case "", "https://", "http://", "ssh://", "git://", "git+ssh://", "ssh+git://":
	default:
		return "", "", false
	}
	if !ok || host == "" || host[0] == ':' {
		return "", "", false
	}
	if path = strings.TrimSuffix(strings.TrimSuffix(path, "/"), ".git"); !ValidNWO(path) {
		return "", "", false
	}
	owner, name, _ = strings.Cut(path, "/")
	return owner, name, true
}

// ValidNWO reports whether s is OWNER/REPO with names GitHub allows
// (nameChars): what reaches gh's arguments from GitHub's answers or the
// state file is held to it.
func ValidNWO(s string) bool {
	owner, name, ok := strings.Cut(s, "/")
	return ok && nameChars(owner, false) && nameChars(name, true)
}

// nameChars reports whether s is a possible GitHub owner or repository
// name: not empty, not "." or "..", of letters, digits, '-', '_' (and '.'
// in a repository's name).
func nameChars(s string, dots bool) bool {
	if s == "" || s == "." || s == ".." || len(s) > 100 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_':
		case c == '.' && dots:
		default:
			return false
		}
	}
	return true
}
