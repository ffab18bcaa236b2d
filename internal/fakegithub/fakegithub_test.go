package fakegithub

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/testenv"
)

// ghVersions are the two gh releases every fact is checked with: Debian's
// (2.23) and a current one (gh-current, built by scripts/gh-current).
var ghVersions = []string{"gh", "gh-current"}

// t0 is when the oldest PR below was opened; the rest follow by the hour.
var t0 = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

func hours(n int) time.Time { return t0.Add(time.Duration(n) * time.Hour) }

// busy is a server whose base repository octo/demo has several PRs per
// head name: open and merged, from octo/demo itself and from forks, into
// main and into release/1.x, and one older than the 30 newest of its
// head name.
func busy(t *testing.T) *Server {
	t.Helper()
	s, err := Start(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	const base = "octo/demo"
	s.SetRepo("alice/demo", Repo{Parent: base})
	for _, pr := range []PR{
		// feature: a merged one, two open ones into two bases, a fork's.
		{Number: 11, HeadRef: "feature", State: "MERGED", Created: hours(0)},
		{Number: 10, HeadRef: "feature", Created: hours(1)},
		{Number: 12, HeadRef: "feature", HeadOwner: "alice", Created: hours(2)},
		{Number: 13, HeadRef: "feature", Base: "release/1.x", Created: hours(3)},
		// a numeric-looking branch name, and a PR whose number it is.
		{Number: 20, HeadRef: "123", Created: hours(4)},
		{Number: 123, HeadRef: "other", Created: hours(5)},
		// the default branch's name: merged from octo/demo and from a fork.
		{Number: 60, HeadRef: "main", State: "MERGED", Created: hours(6)},
		{Number: 61, HeadRef: "main", HeadOwner: "alice", State: "MERGED", Created: hours(7)},
		// only a merged one, and only a closed one from a fork.
		{Number: 70, HeadRef: "old", State: "MERGED", Created: hours(8), HeadDeleted: true},
		{Number: 71, HeadRef: "gone", HeadOwner: "alice", State: "CLOSED", Created: hours(9)},
		// patch-1: octo/demo's own, older than 30 forks' of the same name.
		{Number: 50, HeadRef: "patch-1", Created: hours(10)},
	} {
		s.AddPR(base, pr)
	}
	for i := range 30 {
		s.AddPR(base, PR{Number: 200 + i, HeadRef: "patch-1", HeadOwner: fmt.Sprintf("user%d", i), Created: hours(20 + i)})
	}
	return s
}

// ghView runs `gh pr view SEL -R github.localhost/octo/demo --json ...`
// outside any git repository and says which PR gh printed ("#N head
// base state") or the first line of its error.
func ghView(t *testing.T, s *Server, gh, sel string) string {
	t.Helper()
	home := t.TempDir()
	c := exec.Command(gh, "pr", "view", sel, "-R", Host+"/octo/demo", "--json", "number,headRefName,baseRefName,state")
	c.Dir = home
	c.Env = append(s.GhEnv(filepath.Join(home, "gh")), "HOME="+home, "PATH="+os.Getenv("PATH"),
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_STATE_HOME="+filepath.Join(home, "state"),
		"XDG_CACHE_HOME="+filepath.Join(home, "cache"), "GH_PROMPT_DISABLED=1", "GH_NO_UPDATE_NOTIFIER=1", "NO_COLOR=1")
	out, err := c.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg, _, _ = strings.Cut(strings.TrimSpace(string(ee.Stderr)), "\n")
		}
		return "error: " + msg
	}
	var pr struct {
		Number                   int
		HeadRefName, BaseRefName string
		State                    string
	}
	if err := json.Unmarshal(out, &pr); err != nil {
		t.Fatalf("gh printed %q: %v", out, err)
	}
	return fmt.Sprintf("#%d %s %s %s", pr.Number, pr.HeadRefName, pr.BaseRefName, pr.State)
}

// TestGhSelectorFacts records which PR each gh version picks for each
// selector form of `gh pr view SEL -R HOST/OWNER/REPO`, from a server with
// several PRs per head name. The expectations are what the two gh
// versions were observed to do (facts about gh, that prchip's engine is
// built on), not what they should do; "What gh sends" in
// fakegithub.go sums them up. No fact below differs between 2.23 and
// 2.83 but the owner:branch:more one, where gh 2.83 refuses the selector.
func TestGhSelectorFacts(t *testing.T) {
	type want struct {
		answer string
		kind   Kind
		vars   map[string]any // what gh asked, besides owner and repo
	}
	forBranch := func(answer, head string) want {
		return want{answer, KindForBranch, map[string]any{"headRefName": head, "states": nil}}
	}
	byNumber := func(answer string, n int) want {
		return want{answer, KindByNumber, map[string]any{"pr_number": float64(n)}}
	}
	notFound := func(sel string) string {
		return fmt.Sprintf("error: no pull requests found for branch %q", sel)
	}
	for _, tc := range []struct {
		sel  string
		why  string
		want map[string]want // by gh name; "" for both
	}{
		{"10", "a number is the PR number", map[string]want{"": byNumber("#10 feature main OPEN", 10)}},
		{"#10", "so is #N", map[string]want{"": byNumber("#10 feature main OPEN", 10)}},
		{"feature", "BRANCH: only same-repository PRs; open before merged; the newest open one, whatever its base",
			map[string]want{"": forBranch("#13 feature release/1.x OPEN", "feature")}},
		{"octo:feature", "OWNER:BRANCH with the base's owner finds nothing: gh compares with the head label, which is BRANCH alone when the head is in the base repository",
			map[string]want{"": forBranch(notFound("octo:feature"), "feature")}},
		{"alice:feature", "OWNER:BRANCH with a fork's owner: that fork's PR",
			map[string]want{"": forBranch("#12 feature main OPEN", "feature")}},
		{"bob:feature", "a fork with no PR of that name: none", map[string]want{"": forBranch(notFound("bob:feature"), "feature")}},
		{"123", "a numeric-looking branch name is taken for the PR number",
			map[string]want{"": byNumber("#123 other main OPEN", 123)}},
		{"octo:123", "and owner:123 in the base repository finds nothing either: the branch's PR cannot be named by branch",
			map[string]want{"": forBranch(notFound("octo:123"), "123")}},
		{"patch-1", "the base repository's own PR older than the 30 newest of its head name is never seen",
			map[string]want{"": forBranch(notFound("patch-1"), "patch-1")}},
		{"user3:patch-1", "a fork's PR among the 30 newest is", map[string]want{"": forBranch("#203 patch-1 main OPEN", "patch-1")}},
		{"main", "the default branch's name: a merged PR is left out",
			map[string]want{"": forBranch(notFound("main"), "main")}},
		{"alice:main", "but a fork's merged main is not (gh compares the default branch with OWNER:main)",
			map[string]want{"": forBranch("#61 main main MERGED", "main")}},
		{"old", "a branch with only a merged PR: the merged PR", map[string]want{"": forBranch("#70 old main MERGED", "old")}},
		{"alice:gone", "a fork's closed PR", map[string]want{"": forBranch("#71 gone main CLOSED", "gone")}},
		{"alice:x:y", "two colons: 2.23 looks for branch x:y of alice, 2.83 refuses the selector", map[string]want{
			"gh":         forBranch(notFound("alice:x:y"), "x:y"),
			"gh-current": {"error: invalid qualified head ref format 'alice:x:y'", "", nil}}},
	} {
		for _, name := range ghVersions {
			t.Run(name+"/"+tc.sel, func(t *testing.T) {
				gh := testenv.Need(t, name)
				w, ok := tc.want[name]
				if !ok {
					w = tc.want[""]
				}
				s := busy(t)
				got := ghView(t, s, gh, tc.sel)
				if got != w.answer {
					t.Errorf("%s pr view %s: %s, want %s (%s)", name, tc.sel, got, w.answer, tc.why)
				}
				qs := s.Queries()
				if w.kind == "" {
					if len(qs) != 0 {
						t.Errorf("gh asked %d queries, want none: %+v", len(qs), qs)
					}
					return
				}
				if len(qs) != 1 || qs[0].Kind != w.kind || qs[0].Name != string(w.kind) {
					t.Fatalf("gh asked %+v, want one %s", qs, w.kind)
				}
				if _, err := selection(qs[0].Text); err != nil {
					t.Errorf("the answer to gh's %s is not cut to its selection: %v", w.kind, err)
				}
				if len(qs[0].Missing) > 0 {
					t.Errorf("gh asked fields the fake does not hold: %v", qs[0].Missing)
				}
				if s.Count(w.kind) != 1 {
					t.Errorf("Count(%s) = %d", w.kind, s.Count(w.kind))
				}
				vars := map[string]any{"owner": "octo", "repo": "demo"}
				for k, v := range w.vars {
					vars[k] = v
				}
				if g, e := fmt.Sprint(qs[0].Variables), fmt.Sprint(vars); g != e {
					t.Errorf("variables %s, want %s", g, e)
				}
			})
		}
	}
}

// The two queries prchip sends with gh api graphql (issue #22): a
// repository's parent, and the PRs whose head is exactly one ref of one
// head repository.
const (
	parentQuery = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { isFork parent { name owner { login } } } }`
	refQuery    = `query($owner: String!, $name: String!, $ref: String!) { repository(owner: $owner, name: $name) { ref(qualifiedName: $ref) { associatedPullRequests(first: 100, orderBy: {field: CREATED_AT, direction: DESC}) { nodes { number url state isDraft title createdAt headRefName headRefOid baseRefName isCrossRepository headRepositoryOwner { login } headRepository { name owner { login } } baseRepository { name owner { login } } } } } } }`
)

// ghAPI runs `gh api graphql -f query=Q ARGS...` and returns its output.
func ghAPI(t *testing.T, s *Server, gh, query string, args ...string) []byte {
	t.Helper()
	home := t.TempDir()
	c := exec.Command(gh, append([]string{"api", "graphql", "-f", "query=" + query}, args...)...)
	c.Dir = home
	c.Env = append(s.GhEnv(filepath.Join(home, "gh")), "HOME="+home, "PATH="+os.Getenv("PATH"),
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_STATE_HOME="+filepath.Join(home, "state"),
		"XDG_CACHE_HOME="+filepath.Join(home, "cache"), "GH_PROMPT_DISABLED=1", "GH_NO_UPDATE_NOTIFIER=1", "NO_COLOR=1")
	out, err := c.Output()
	if err != nil {
		t.Fatalf("gh api graphql: %v\n%s", err, out)
	}
	return out
}

// TestPrchipQueries asks prchip's two queries through the real gh api
// graphql of both versions and checks the answers: exactly the fields
// asked (GitHub answers nothing more, and gh api prints what it got),
// the parent of a fork, and for a ref the PRs whose head it is, into any
// base repository, newest first, none for another head repository with
// the same branch name, null for a ref that does not exist.
func TestPrchipQueries(t *testing.T) {
	for _, name := range ghVersions {
		t.Run(name, func(t *testing.T) {
			gh := testenv.Need(t, name)
			s := busy(t)
			// A PR inside the fork itself, newer than the fork's PR into octo/demo.
			s.AddPR("alice/demo", PR{Number: 5, HeadRef: "feature", HeadOid: strings.Repeat("a", 40), Created: hours(30)})
			s.SetRepo("alice/demo", Repo{Parent: "octo/demo", Branches: []string{"pushed"}})

			for _, tc := range []struct{ nwo, want string }{
				{"alice/demo", `{"data":{"repository":{"isFork":true,"parent":{"name":"demo","owner":{"login":"octo"}}}}}`},
				{"octo/demo", `{"data":{"repository":{"isFork":false,"parent":null}}}`},
			} {
				owner, repo, _ := strings.Cut(tc.nwo, "/")
				// -F as prchip may send it; a typed value is still a string here.
				out := ghAPI(t, s, gh, parentQuery, "-F", "owner="+owner, "-f", "name="+repo)
				if got := compact(t, out); got != tc.want {
					t.Errorf("parent of %s: %s, want %s", tc.nwo, got, tc.want)
				}
			}
			if s.Count(KindRepoParent) != 2 {
				t.Errorf("Count(RepositoryParent) = %d, want 2", s.Count(KindRepoParent))
			}

			nodeKeys := "baseRefName baseRepository createdAt headRefName headRefOid headRepository headRepositoryOwner isCrossRepository isDraft number state title url"
			for _, tc := range []struct {
				nwo, ref string
				want     string // "#N base head-owner state" newest first; "null" for no ref
			}{
				{"alice/demo", "refs/heads/feature", "#5 alice/demo alice OPEN, #12 octo/demo alice OPEN"},
				{"octo/demo", "refs/heads/feature", "#13 octo/demo octo OPEN, #10 octo/demo octo OPEN, #11 octo/demo octo MERGED"},
				{"octo/demo", "refs/heads/patch-1", "#50 octo/demo octo OPEN"},
				{"user3/demo", "refs/heads/patch-1", "#203 octo/demo user3 OPEN"},
				{"octo/demo", "refs/heads/123", "#20 octo/demo octo OPEN"},
				{"alice/demo", "refs/heads/pushed", ""},
				{"alice/demo", "refs/heads/main", "#61 octo/demo alice MERGED"},
				{"octo/demo", "refs/heads/main", "#60 octo/demo octo MERGED"},
				{"alice/demo", "refs/heads/nope", "null"},
				{"octo/demo", "refs/heads/old", "null"}, // deleted after the merge
				{"bob/demo", "refs/heads/feature", "null"},
			} {
				owner, repo, _ := strings.Cut(tc.nwo, "/")
				out := ghAPI(t, s, gh, refQuery, "-f", "owner="+owner, "-f", "name="+repo, "-f", "ref="+tc.ref)
				var resp struct {
					Data struct {
						Repository struct {
							Ref *struct {
								AssociatedPullRequests struct {
									Nodes []map[string]any
								}
							}
						}
					}
				}
				if err := json.Unmarshal(out, &resp); err != nil {
					t.Fatalf("%s", out)
				}
				ref := resp.Data.Repository.Ref
				if ref == nil {
					if tc.want != "null" {
						t.Errorf("%s %s: ref null, want %s", tc.nwo, tc.ref, tc.want)
					}
					continue
				}
				var got []string
				for _, n := range ref.AssociatedPullRequests.Nodes {
					var keys []string
					for k := range n {
						keys = append(keys, k)
					}
					slices.Sort(keys)
					if strings.Join(keys, " ") != nodeKeys {
						t.Errorf("node keys %v, want exactly %s", keys, nodeKeys)
					}
					base := n["baseRepository"].(map[string]any)
					got = append(got, fmt.Sprintf("#%v %v/%v %v %v", n["number"], base["owner"].(map[string]any)["login"], base["name"],
						n["headRepositoryOwner"].(map[string]any)["login"], n["state"]))
				}
				if g := strings.Join(got, ", "); g != tc.want {
					t.Errorf("%s %s: %s, want %s", tc.nwo, tc.ref, g, tc.want)
				}
			}
			for _, q := range s.Queries() {
				if _, err := selection(q.Text); err != nil {
					t.Errorf("query %s: %v", q.Name, err)
				}
				if len(q.Missing) > 0 {
					t.Errorf("prchip's query %s asks fields the fake does not hold: %v", q.Name, q.Missing)
				}
			}
			if qs := s.Queries(); len(qs) != 13 || qs[2].Kind != KindRefPRs || qs[2].Name != "query($owner: String!, $name: String!, $ref: String!)" ||
				qs[2].Var("ref") != "refs/heads/feature" || s.Count(KindRefPRs) != 11 {
				t.Errorf("queries %d, third %+v", len(qs), qs[2])
			}
		})
	}
}

func compact(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// TestPrune cuts an answer to a query's selection as GitHub answers: only
// the fields asked, under their aliases, through inline fragments and
// named ones; a field the fake lacks is null; a query it cannot read is
// an error (the answer is then sent whole).
func TestPrune(t *testing.T) {
	data := map[string]any{"repository": map[string]any{
		"name": "demo", "isFork": false, "owner": map[string]any{"login": "octo", "id": "U_1"},
		"pullRequests": map[string]any{"nodes": []any{
			map[string]any{"__typename": "PullRequest", "number": 1, "title": "t", "state": "OPEN"},
			map[string]any{"__typename": "PullRequest", "number": 2, "title": "u", "state": "MERGED"},
		}},
	}}
	for _, tc := range []struct{ query, want string }{
		{`query { repository(owner: "o", name: "n") { name } }`, `{"repository":{"name":"demo"}}`},
		{`{ repository { owner { login } } }`, `{"repository":{"owner":{"login":"octo"}}}`},
		{`query Q($a: String!) { r: repository(owner: $a, name: "x,y{") { isFork, nope } }`, `{"r":{"isFork":false,"nope":null}}`},
		{`query { repository { pullRequests(first: 30, orderBy: {field: CREATED_AT, direction: DESC}) { nodes { __typename ...on PullRequest { number } } } } }`,
			`{"repository":{"pullRequests":{"nodes":[{"__typename":"PullRequest","number":1},{"__typename":"PullRequest","number":2}]}}}`},
		{`query { repository { ...R } } fragment R on Repository { name owner { id } }`, `{"repository":{"name":"demo","owner":{"id":"U_1"}}}`},
		{`query { repository { name @include(if: true) } }`, `{"repository":{"name":"demo"}}`},
		{`query { repository { ...Missing } }`, `error`},
		{`query { repository { name }`, `error`},
	} {
		got := "error"
		if sel, err := selection(tc.query); err == nil {
			var missing []string
			b, _ := json.Marshal(prune(data, sel, "", &missing))
			if strings.Contains(tc.query, "nope") != slices.Equal(missing, []string{"repository.nope"}) {
				t.Errorf("%s: missing %v", tc.query, missing)
			}
			got = string(b)
		}
		if got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.query, got, tc.want)
		}
	}
}

// TestPullRequestsArguments asks pullRequests as another caller might
// (gh api graphql): PRs of every head repository with that head name,
// newest first, filtered by states given literally or as a variable, at
// most first N.
func TestPullRequestsArguments(t *testing.T) {
	for _, name := range ghVersions {
		t.Run(name, func(t *testing.T) {
			gh := testenv.Need(t, name)
			s := busy(t)
			for _, tc := range []struct {
				query string
				args  []string
				want  string
			}{
				{`{ repository(owner: "octo", name: "demo") { pullRequests(headRefName: "feature", first: 30) { nodes { number } } } }`, nil,
					`{"data":{"repository":{"pullRequests":{"nodes":[{"number":13},{"number":12},{"number":10},{"number":11}]}}}}`},
				{`{ repository(owner: "octo", name: "demo") { pullRequests(headRefName: "feature", states: [OPEN], first: 2) { nodes { number } } } }`, nil,
					`{"data":{"repository":{"pullRequests":{"nodes":[{"number":13},{"number":12}]}}}}`},
				{`{ repository(owner: "octo", name: "demo") { pullRequests(headRefName: "feature", states: [MERGED, CLOSED], first: 30) { nodes { number } } } }`, nil,
					`{"data":{"repository":{"pullRequests":{"nodes":[{"number":11}]}}}}`},
				{`query($states: [PullRequestState!]) { repository(owner: "octo", name: "demo") { pullRequests(headRefName: "feature", states: $states, first: 30) { nodes { number state } } } }`,
					[]string{"-f", "states[]=MERGED", "-f", "states[]=CLOSED"},
					`{"data":{"repository":{"pullRequests":{"nodes":[{"number":11,"state":"MERGED"}]}}}}`},
			} {
				if got := compact(t, ghAPI(t, s, gh, tc.query, tc.args...)); got != tc.want {
					t.Errorf("%s\n got %s\nwant %s", tc.query, got, tc.want)
				}
			}
		})
	}
}

// TestGhFieldsHeld asks, through gh pr view of both versions, for every
// field prchip may show or decide by, from a PR with check runs, a status
// context, a merge queue entry and auto-merge: the fake holds each field
// gh's query asks for them, so no answer is a silent null.
func TestGhFieldsHeld(t *testing.T) {
	fields := "number,url,state,isDraft,title,headRefOid,id,statusCheckRollup,mergeStateStatus,reviewDecision,baseRefName," +
		"headRefName,headRepository,headRepositoryOwner,isCrossRepository,createdAt,updatedAt,closed,closedAt,mergedAt,author,maintainerCanModify"
	for _, name := range ghVersions {
		t.Run(name, func(t *testing.T) {
			gh := testenv.Need(t, name)
			f := fields
			if name == "gh-current" {
				f += ",autoMergeRequest" // since gh 2.29
			}
			s := busy(t)
			s.AddPR("octo/demo", PR{Number: 90, HeadRef: "checked", HeadOwner: "alice", Review: "APPROVED", MergeState: "BLOCKED",
				AutoMerge: true, HeadOid: strings.Repeat("c", 40), Queue: &QueueEntry{Position: 2, State: "QUEUED"},
				Checks: []Check{{Name: "test", Status: "COMPLETED", Conclusion: "SUCCESS", Workflow: "ci", Started: t0},
					{Context: "lint", State: "PENDING", Started: t0}}})
			for _, sel := range []string{"90", "alice:checked"} {
				home := t.TempDir()
				c := exec.Command(gh, "pr", "view", sel, "-R", Host+"/octo/demo", "--json", f)
				c.Env = append(s.GhEnv(filepath.Join(home, "gh")), "HOME="+home, "PATH="+os.Getenv("PATH"))
				out, err := c.CombinedOutput()
				if err != nil {
					t.Fatalf("gh pr view %s: %v\n%s", sel, err, out)
				}
				var pr map[string]any
				if err := json.Unmarshal(out, &pr); err != nil || pr["number"] != float64(90) || len(pr["statusCheckRollup"].([]any)) != 2 {
					t.Errorf("gh pr view %s printed %s", sel, out)
				}
				// prchip's merge queue query, by the node id gh printed.
				id, _ := pr["id"].(string)
				q := `query($id: ID!) { node(id: $id) { ... on PullRequest { mergeQueueEntry { position state } } } }`
				if got, want := compact(t, ghAPI(t, s, gh, q, "-f", "id="+id)), `{"data":{"node":{"mergeQueueEntry":{"position":2,"state":"QUEUED"}}}}`; got != want {
					t.Errorf("merge queue of %s: %s, want %s", id, got, want)
				}
			}
			for _, q := range s.Queries() {
				if len(q.Missing) > 0 {
					t.Errorf("gh's %s asks fields the fake does not hold: %v", q.Name, q.Missing)
				}
			}
			if s.Count(KindMergeQueue) != 2 {
				t.Errorf("Count(MergeQueueEntry) = %d, want 2", s.Count(KindMergeQueue))
			}
		})
	}
}
