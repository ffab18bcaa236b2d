package chip

// Which pull request is the branch's (SPEC 3): prchip decides the head and
// the base from local git facts (repo.Plan) and asks gh exactly that, so
// every gh version answers the same question; then it checks the answer
// against the local history, so a PR of an earlier life of a reused branch
// name never shows. Everything here runs in the background refresh.

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/chip/state"
	"github.com/prchip/prchip/internal/repo"
	"github.com/prchip/prchip/internal/sanitize"
)

// ghRepo is a repository on a GitHub host.
type ghRepo struct {
	Host, Owner, Name string
	Remote            string // the local remote for it: "" for a fork's parent, a URL remote
}

func (r ghRepo) nwo() string { return r.Owner + "/" + r.Name }

// ask is one question for gh: a head in a base repository.
type ask struct {
	Base   ghRepo
	Head   ghRepo
	Branch string
	Number int // > 0: the PR by number (merge ref, or found before)
	Why    string
	exact  bool // the number came from the exact lookup, now or before (Lookup.Exact)
}

// head is how status names the head: "#N", else OWNER:BRANCH.
func (a ask) head() string {
	if a.Number > 0 {
		return "#" + strconv.Itoa(a.Number)
	}
	return a.Head.Owner + ":" + a.Branch
}

// label is the head as gh's finder matches it (PullRequest.HeadLabel):
// the branch alone for a head in the base repository.
func (a ask) label() string {
	if h, b := a.Head, a.Base; a.Number == 0 && strings.EqualFold(h.Host, b.Host) && strings.EqualFold(h.nwo(), b.nwo()) {
		return a.Branch
	}
	return a.head()
}

func (a ask) shown() string { return a.head() + " in " + a.Base.nwo() }

// lookup records the question for status (SPEC 6, lookup).
func (a ask) lookup(tried []string) *classify.Lookup {
	return &classify.Lookup{Head: a.head(), Base: a.Base.nwo(), Why: a.Why, Tried: tried}
}

// numeric: gh would read the label (a branch "123" or "#123") as a PR
// number, so only the exact lookup can ask it.
func (a ask) numeric() bool {
	if a.Number > 0 {
		return false
	}
	_, err := strconv.Atoi(strings.TrimPrefix(a.label(), "#"))
	return err == nil
}

// maxViews bounds the `gh pr view` runs of one refresh: a plan with many
// candidates must not turn one prompt into many API calls.
const maxViews = 4

// plan turns the repository's git facts into the questions to ask, in
// order, and the bases PRs may live in; why says what is missing when
// there is nothing to ask.
func (e *Engine) plan(ctx context.Context, f *Facts, p state.Policy, rs *lookupMemory) (asks []ask, bases []ghRepo, why string, failed *classify.Outcome) {
	pl, err := f.Repo.Plan()
	if err != nil {
		return nil, nil, "the repository's git config could not be read: " + sanitize.Detail(err.Error()), nil
	}
	base, baseWhy, ok := e.baseRepo(f, pl)
	if !ok {
		return nil, nil, "no remote on a GitHub host", nil
	}
	if pl.PRNumber > 0 {
		// gh pr checkout's merge ref: the PR lives where the branch is
		// fetched from.
		if r, ok := e.remoteRepo(f, pl.PRRemoteURL, pl); ok {
			return []ask{{Base: r, Head: r, Number: pl.PRNumber, Why: "merge ref refs/pull/" + strconv.Itoa(pl.PRNumber) + "/head"}}, []ghRepo{r}, "", nil
		}
	}
	if len(pl.Heads) == 0 {
		// Nothing to ask: GitHub is not asked about forks either.
		return nil, []ghRepo{base}, "the branch has no push target or upstream (push it with `git push -u`)", nil
	}
	bases, whys := []ghRepo{base}, []string{baseWhy}
	if f.Target == "" {
		parent, ok, o := e.parentOf(ctx, f, p, base, rs)
		if o != nil {
			// GitHub could not be asked (offline, logged out): the refresh's
			// outcome, as gh pr view would fare no better.
			return nil, nil, "", o
		}
		if ok {
			bases, whys = []ghRepo{parent, base}, []string{"fork parent of " + base.nwo(), baseWhy}
		}
	}
	during := ""
	if pl.Rebasing {
		during = ", during a rebase"
	}
	for _, h := range pl.Heads {
		head, ok := e.remoteRepo(f, h.URL, pl)
		if !ok {
			continue
		}
		head.Remote = h.Remote
		for i, b := range bases {
			asks = append(asks, ask{Base: b, Head: head, Branch: h.Branch, Why: h.Why + during + ", " + whys[i]})
		}
	}
	if len(asks) == 0 {
		return nil, bases, "the branch's push target and upstream are not on a GitHub host", nil
	}
	return asks, bases, "", nil
}

// baseRepo is where PRs are looked for (before a fork's parent): GH_REPO's
// repository, the one `gh repo set-default` chose, else the remote gh's
// order picks.
func (e *Engine) baseRepo(f *Facts, pl *repo.Plan) (ghRepo, string, bool) {
	if f.Target != "" {
		r, ok := e.remoteRepo(f, f.Remote.URL, pl)
		return r, "GH_REPO", ok
	}
	for _, rm := range pl.Remotes {
		if rm.GhResolved == "" {
			continue
		}
		r, ok := e.remoteRepo(f, rm.URL, pl)
		if !ok {
			continue
		}
		r.Remote = rm.Name
		if rm.GhResolved != "base" {
			// Older gh wrote OWNER/REPO there.
			owner, name, ok := strings.Cut(rm.GhResolved, "/")
			if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
				continue
			}
			r.Owner, r.Name, r.Remote = owner, name, remoteFor(pl, r.Host, owner, name)
		}
		return r, "set-default (remote " + rm.Name + ")", true
	}
	r, ok := e.remoteRepo(f, f.Remote.URL, pl) // none without a remote URL
	r.Remote = f.Remote.Name
	return r, "remote " + f.Remote.Name, ok
}

// remoteRepo reads a remote URL as a repository on a GitHub host gh
// knows (an SSH alias resolved as gh does).
func (e *Engine) remoteRepo(f *Facts, url string, pl *repo.Plan) (ghRepo, bool) {
	owner, name, ok := repo.RepoPath(url)
	if !ok {
		return ghRepo{}, false
	}
	r, ok := f.Setup.GitHubRemote(&repo.Info{Remotes: []repo.Remote{{Name: "x", URL: url}}})
	if !ok {
		return ghRepo{}, false
	}
	return ghRepo{Host: r.Host, Owner: owner, Name: name, Remote: remoteFor(pl, r.Host, owner, name)}, true
}

// remoteFor is the local remote that points at a repository, "" if none.
func remoteFor(pl *repo.Plan, host, owner, name string) string {
	for _, rm := range pl.Remotes {
		o, n, ok := repo.RepoPath(rm.URL)
		if ok && strings.EqualFold(o, owner) && strings.EqualFold(n, name) && strings.EqualFold(repo.Host(rm.URL), host) {
			return rm.Name
		}
	}
	return ""
}

// lookupMemory is what a refresh reads of, and adds to, the repository's
// record for the lookup: forks' parents, asked of GitHub once.
type lookupMemory struct {
	Parents map[string]string
	changed bool
	Prev    *classify.Lookup // the branch's last lookup (its Exact number)
	probe   probePlan        // what the next probes ask about the answer
}

// parentQuery asks whether a repository is a fork, and of what.
const parentQuery = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { isFork parent { name owner { login } } } }`

// parentOf is a fork's parent, asked of GitHub once per repository and
// kept (state.RepoState.Parents); ok is false for no fork. A failed run is
// classified as any gh run (failed) and asked again next refresh.
func (e *Engine) parentOf(ctx context.Context, f *Facts, p state.Policy, r ghRepo, mem *lookupMemory) (_ ghRepo, ok bool, failed *classify.Outcome) {
	key := strings.ToLower(r.Host + "/" + r.nwo())
	v, known := mem.Parents[key]
	if !known {
		res := e.graphql(ctx, f, p, r.Host, parentQuery, "owner="+r.Owner, "name="+r.Name)
		if res.ExitCode != 0 {
			o := classify.ClassifyPR(res, e.now())
			if o.Class == classify.Validated {
				// gh api's own errors ("Could not resolve to a
				// Repository") are no PR answer: the repository is
				// looked up as if it were no fork.
				return ghRepo{}, false, nil
			}
			return ghRepo{}, false, o
		}
		var out struct {
			Data struct {
				Repository *struct {
					IsFork bool      `json:"isFork"`
					Parent *nodeRepo `json:"parent"`
				} `json:"repository"`
			} `json:"data"`
		}
		if json.Unmarshal(res.Stdout, &out) != nil || out.Data.Repository == nil {
			return ghRepo{}, false, nil
		}
		v = "-"
		if pr := out.Data.Repository.Parent; out.Data.Repository.IsFork && pr != nil && repo.ValidNWO(pr.Owner.Login+"/"+pr.Name) {
			v = pr.Owner.Login + "/" + pr.Name
		}
		if mem.Parents == nil {
			mem.Parents = map[string]string{}
		}
		mem.Parents[key], mem.changed = v, true
	}
	owner, name, isFork := strings.Cut(v, "/") // "-": no fork
	return ghRepo{Host: r.Host, Owner: owner, Name: name}, isFork, nil
}

// judge checks a PR against the local history (SPEC 3): an open PR is
// the branch's whatever its head (sync marks it, never hides it); a merged
// or closed one only while the branch has not gone beyond its head, else
// it is an earlier life of a reused branch name. It is why a PR is set
// aside, "" for one that is the branch's.
func judge(pr *classify.PR) string {
	if pr.State == "open" || pr.Sync == repo.SyncSame || pr.Sync == repo.SyncBehind {
		return ""
	}
	return cmp.Or(map[string]string{
		repo.SyncAhead:      "the branch has new commits beyond its head: an earlier use of this branch name",
		repo.SyncDiverged:   "its head is not in the branch's history: an earlier use of this branch name",
		repo.SyncNotFetched: "its head commit is not in this repository: not this branch's work, or not fetched",
	}[pr.Sync], "its head could not be compared with the branch")
}

// keep checks pr against the local history (judge); one not the branch's
// is set aside once, at most 4 for status.
func (e *Engine) keep(ctx context.Context, f *Facts, pr *classify.PR, aside *[]classify.SetAside) bool {
	e.addSync(ctx, f, pr)
	why := judge(pr)
	if why != "" && len(*aside) < 4 && !slices.ContainsFunc(*aside, func(s classify.SetAside) bool { return s.Number == pr.Number }) {
		*aside = append(*aside, classify.SetAside{Number: pr.Number, State: pr.State, Reason: why})
	}
	return why == ""
}

// headPRsQuery is the exact lookup: the PRs whose head is this ref of this
// head repository, into any base. gh pr view finds a head by name among the
// 30 newest PRs with that head name in the base, so an older PR of a busy
// name (patch-1) is out of its reach.
const headPRsQuery = `query($owner: String!, $name: String!, $ref: String!) { repository(owner: $owner, name: $name) { ref(qualifiedName: $ref) { associatedPullRequests(first: 100, orderBy: {field: CREATED_AT, direction: DESC}) { nodes { number url state isDraft title createdAt headRefName headRefOid baseRefName isCrossRepository headRepositoryOwner { login } headRepository { name owner { login } } baseRepository { name owner { login } } } } } } }`

// nodeRepo is a repository in a GraphQL answer.
type nodeRepo struct {
	Name  string `json:"name"`
	Owner struct {
		Login string `json:"login"`
	} `json:"owner"`
}

func (n *nodeRepo) is(r ghRepo) bool {
	return n != nil && strings.EqualFold(n.Owner.Login, r.Owner) && strings.EqualFold(n.Name, r.Name)
}

// exactPRs runs the exact lookup for a head; !ok: gh failed (gh pr
// view's answer stands).
func (e *Engine) exactPRs(ctx context.Context, f *Facts, p state.Policy, a ask, bases []ghRepo) (prs []*classify.PR, ok bool) {
	res := e.graphql(ctx, f, p, a.Head.Host, headPRsQuery, "owner="+a.Head.Owner, "name="+a.Head.Name, "ref=refs/heads/"+a.Branch)
	if res.ExitCode != 0 {
		return nil, false
	}
	var out struct {
		Data struct {
			Repository *struct {
				Ref *struct {
					AssociatedPullRequests struct {
						Nodes []json.RawMessage `json:"nodes"`
					} `json:"associatedPullRequests"`
				} `json:"ref"`
			} `json:"repository"`
		} `json:"data"`
	}
	if json.Unmarshal(res.Stdout, &out) != nil {
		return nil, false
	}
	if out.Data.Repository == nil || out.Data.Repository.Ref == nil {
		return nil, true
	}
	for _, raw := range out.Data.Repository.Ref.AssociatedPullRequests.Nodes {
		// Only this head's ref, into a base the plan named.
		var n struct {
			Number         int       `json:"number"`
			HeadRefName    string    `json:"headRefName"`
			BaseRepository *nodeRepo `json:"baseRepository"`
			HeadRepository *nodeRepo `json:"headRepository"`
		}
		if json.Unmarshal(raw, &n) != nil || n.Number <= 0 || n.HeadRefName != a.Branch ||
			!n.HeadRepository.is(a.Head) || !slices.ContainsFunc(bases, n.BaseRepository.is) {
			continue
		}
		if pr, err := classify.ParsePR(raw); err == nil {
			prs = append(prs, pr)
		}
		if len(prs) == 20 {
			break
		}
	}
	return prs, true
}

// pushed: the head's branch is known on its remote (a remote-tracking
// ref), so the exact lookup may find what gh pr view did not.
func pushed(f *Facts, a ask) bool {
	if a.Head.Remote == "" {
		return true // a URL remote (gh pr checkout of a fork): no tracking refs to tell
	}
	return f.Repo.RefOid("refs/remotes/"+a.Head.Remote+"/"+a.Branch) != ""
}

// defaultBase is the base repository remote's default branch as the clone
// knows it (refs/remotes/R/HEAD), else main or master if fetched.
func defaultBase(f *Facts, remote string) string {
	if remote == "" {
		return ""
	}
	if b, err := repo.Symref(f.Repo, "refs/remotes/"+remote+"/HEAD"); err == nil && b != "" {
		return strings.TrimPrefix(b, "refs/remotes/"+remote+"/")
	}
	for _, b := range []string{"main", "master"} {
		if f.Repo.RefOid("refs/remotes/"+remote+"/"+b) != "" {
			return b
		}
	}
	return ""
}

// lookupPR decides which PR is the branch's and asks gh for it: the
// outcome, and the --json fields gh refused (runGhPR).
func (e *Engine) lookupPR(ctx context.Context, f *Facts, p state.Policy, g *state.Global, mem *lookupMemory) (*classify.Outcome, []string) {
	fields := e.prFields(f, g)
	fields = append(fields, slices.DeleteFunc(slices.Clone(baseFields), func(b string) bool { return slices.Contains(fields, b) })...)
	asks, bases, why, failed := e.plan(ctx, f, p, mem)
	if failed != nil {
		return failed, nil
	}
	if len(asks) == 0 {
		o := classify.NoPROutcome(e.now(), why)
		o.Lookup = &classify.Lookup{Why: why}
		return o, nil
	}
	first := asks[0]
	// The head as Lookup.Head records it for the exact lookup: OWNER:BRANCH
	// (for a merge ref too, unlike first.head()).
	firstHead := first.Head.Owner + ":" + first.Branch
	if prev := mem.Prev; prev != nil && prev.Exact > 0 && prev.Head == firstHead {
		// A PR only the exact lookup could find (a busy head name): asked
		// by number, so the chip gets every field the template shows.
		if i := slices.IndexFunc(bases, func(b ghRepo) bool { return strings.EqualFold(b.nwo(), prev.Base) }); i >= 0 {
			asks = slices.Insert(asks, 0, ask{Base: bases[i], Head: first.Head, Branch: first.Branch, Number: prev.Exact, exact: true,
				Why: first.Why + ", found before by the exact lookup of the head"})
		}
	}
	var (
		tried    []string
		aside    []classify.SetAside
		refused  []string
		views    int
		found    *classify.Outcome // a PR to show
		foundAt  ask
		provisnl bool // found is into another base than the branch was cut from
		lastNoPR *classify.Outcome
		exact    bool
	)
	for _, a := range asks {
		if a.numeric() {
			exact = true
			tried = append(tried, a.shown()+" (a number to gh: asked exactly)")
			continue
		}
		if views == maxViews {
			break
		}
		views++
		r, ref := e.runGhPR(ctx, f, p, fields, a)
		refused = append(refused, ref...)
		o := classify.ClassifyPR(r, e.now())
		if o.Class != classify.Validated {
			// gh failed: that is the refresh's outcome, as before.
			o.Lookup = a.lookup(tried)
			return o, refused
		}
		if o.PR == nil {
			lastNoPR = o
		}
		if o.PR == nil || !e.keep(ctx, f, o.PR, &aside) {
			tried = append(tried, a.shown())
			continue
		}
		found, foundAt = o, a
		if o.PR.State == "open" && a.Number == 0 {
			// Two open PRs from one head: gh answers with the newest,
			// the branch's is the one into the base it was cut from.
			if def := defaultBase(f, a.Base.Remote); def != "" && o.PR.Base != "" && def != o.PR.Base {
				cut := e.cutFrom(ctx, f, a.Base.Remote, []string{o.PR.Base, def})
				provisnl = cut != "" && cut != o.PR.Base
			}
		}
		break
	}
	// At most one exact lookup, only when gh pr view found nothing, only
	// PRs set aside, or a PR into another base than the branch's.
	if first.Number == 0 && (found == nil && (exact || pushed(f, first)) || provisnl) {
		if prs, ok := e.exactPRs(ctx, f, p, first, bases); ok {
			if o, a2 := e.chooseExact(ctx, f, prs, first, bases, &aside, found); o != nil {
				found, foundAt = o, a2
			}
		}
	}
	if found == nil {
		o := cmp.Or(lastNoPR, classify.NoPROutcome(e.now(), ""))
		o.Lookup = first.lookup(tailTried(tried, first))
		o.Lookup.Head, o.SetAside = firstHead, aside
		mem.probe = probeFor(nil, ask{}, first, fields)
		return o, refused
	}
	found.Lookup, found.SetAside = foundAt.lookup(tailTried(tried, foundAt)), aside
	if foundAt.exact {
		found.Lookup.Head, found.Lookup.Exact = firstHead, found.PR.Number
	}
	if found.PR.ID != "" && slices.Contains(fields, "id") {
		e.addQueue(ctx, f, p, found.PR)
	}
	mem.probe = probeFor(found.PR, foundAt, first, fields)
	return found, refused
}

// tailTried is what was tried before the question that answered.
func tailTried(tried []string, a ask) []string {
	return slices.DeleteFunc(slices.Clone(tried), func(s string) bool { return s == a.shown() })
}

// chooseExact picks from the exact lookup's PRs: an open one (of two, the
// one into the base the branch was cut from, the others as a hint), else
// the newest merged or closed one the history check keeps. Sync (git
// runs) only for the PRs it decides about.
func (e *Engine) chooseExact(ctx context.Context, f *Facts, prs []*classify.PR, a ask, bases []ghRepo, aside *[]classify.SetAside, found *classify.Outcome) (*classify.Outcome, ask) {
	pick := func(pr *classify.PR) (*classify.Outcome, ask) {
		b := a
		b.Why += ", exact lookup of the head"
		b.exact = true
		for _, r := range bases {
			if strings.EqualFold(r.nwo(), pr.BaseRepo) {
				b.Base = r
			}
		}
		return classify.PROutcome(pr, e.now()), b
	}
	open := slices.DeleteFunc(slices.Clone(prs), func(pr *classify.PR) bool { return pr.State != "open" })
	if len(open) == 0 {
		for _, pr := range prs {
			if found != nil {
				break // an open PR from gh pr view stands
			}
			if e.keep(ctx, f, pr, aside) {
				return pick(pr)
			}
		}
		return nil, a
	}
	chosen := open[0]
	if len(open) > 1 {
		remote := ""
		for _, b := range bases {
			remote = cmp.Or(b.Remote, remote)
		}
		var names []string
		for _, pr := range open {
			if !slices.Contains(names, pr.Base) {
				names = append(names, pr.Base)
			}
		}
		want := cmp.Or(e.cutFrom(ctx, f, remote, names), defaultBase(f, remote))
		if i := slices.IndexFunc(open, func(pr *classify.PR) bool { return pr.Base == want }); want != "" && i >= 0 {
			chosen = open[i]
		}
		for _, pr := range open {
			if pr != chosen && len(chosen.Others) < 4 {
				chosen.Others = append(chosen.Others, pr.Number)
			}
		}
	}
	if found != nil && found.PR.Number == chosen.Number {
		found.PR.Others = chosen.Others
		return found, a
	}
	e.addSync(ctx, f, chosen)
	return pick(chosen)
}
