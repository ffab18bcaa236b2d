// Package fakegithub is a local stand-in for GitHub's GraphQL API that the
// real gh talks to in tests (SPEC 10): gh sends requests for the host
// github.localhost over plain HTTP to api.github.localhost, through
// HTTP_PROXY, which points here.
package fakegithub

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Host is the GitHub host gh is pointed at.
const Host = "github.localhost"

// PR is a pull request the server knows. Several may share a head name,
// in one base repository or many, as on GitHub.
type PR struct {
	Number int
	Title  string
	State  string // OPEN, MERGED, CLOSED; "" is OPEN
	Draft  bool
	// HeadRef is the head branch's name (headRefName).
	HeadRef string
	// HeadOwner and HeadRepo name the head repository; "" is the base
	// repository's owner and name. isCrossRepository follows from them.
	HeadOwner, HeadRepo string
	// Owner is the old name of HeadOwner, kept for callers of SetPR.
	Owner string
	// Base is the base branch (baseRefName); "" is "main".
	Base string
	// Created orders the answers, newest first, as GitHub's orderBy
	// CREATED_AT does; zero is a time derived from Number, so that a
	// higher number is newer.
	Created time.Time
	// HeadDeleted is true when the head branch was deleted (after a merge,
	// say): the head repository's ref is then gone, and asking for it
	// finds nothing.
	HeadDeleted bool
	// Review is the reviewDecision: APPROVED, CHANGES_REQUESTED, REVIEW_REQUIRED.
	Review string
	// Checks are the head commit's check runs and status contexts, when
	// CommitChecks has none for HeadOid.
	Checks []Check
	// MergeState is the mergeStateStatus: CLEAN, BEHIND, BLOCKED, DIRTY,
	// UNSTABLE, DRAFT, HAS_HOOKS, UNKNOWN; "" is UNKNOWN.
	MergeState string
	// AutoMerge answers autoMergeRequest with a request (else null).
	AutoMerge bool
	// HeadOid is the head commit (headRefOid).
	HeadOid string
	// CommitChecks are the checks of each commit by oid: the rollup
	// answers with HeadOid's, as GitHub answers with the head commit's.
	CommitChecks map[string][]Check
	// Queue is the merge queue entry (nil: not queued).
	Queue *QueueEntry
	// Removal is the last removal from the merge queue in the PR's
	// timeline (nil: none); HeadCommitted is the head commit's
	// committedDate (queue.go).
	Removal       *QueueRemoval
	HeadCommitted time.Time
}

// Repo is what the server knows of a repository beyond its pull
// requests. A repository it was told nothing about exists, is no fork,
// and has the default branch "main".
type Repo struct {
	// Parent is the fork's parent as "owner/name"; "" is not a fork.
	Parent string
	// DefaultBranch is defaultBranchRef's name; "" is "main".
	DefaultBranch string
	// Branches are branches that exist besides the default branch and the
	// heads of its PRs (a branch pushed without a PR).
	Branches []string
}

// QueueEntry is a merge queue entry: position and state (QUEUED,
// AWAITING_CHECKS, MERGEABLE, UNMERGEABLE, LOCKED).
type QueueEntry struct {
	Position int
	State    string
}

// Check is a CheckRun (Status, Conclusion) or, with Context set, a
// StatusContext (State). Started orders runs of one check.
type Check struct {
	Name, Status, Conclusion string
	Context, State           string
	Workflow                 string
	Started                  time.Time
}

// Mode selects how the server answers.
type Mode int

const (
	OK          Mode = iota // answer with the configured PRs
	BadCreds                // 401 Bad credentials
	RateLimited             // 403 API rate limit exceeded; rate_limit says it resets in RateLimitReset
	BadGateway              // 502
	Hang                    // accept and never answer
	Reset                   // close the connection without an answer
)

// RateLimitReset is how long after a request in RateLimited mode the
// rate_limit endpoint says the GraphQL budget is restored: longer than
// prchip's backoff cap, so a test tells the two apart.
const RateLimitReset = 20 * time.Minute

// Server is a running fake.
type Server struct {
	mu       sync.Mutex
	prs      []stored        // every PR, in the order added, under mu
	repos    map[string]Repo // by lower-case "owner/name", under mu
	mode     Mode
	delay    time.Duration
	requests atomic.Int64
	lastQry  atomic.Value
	queries  []Query      // every GraphQL request, under mu
	kinds    map[Kind]int // requests per kind, under mu
	ln       net.Listener
	srv      *http.Server
	addr     string
	hang     chan struct{}
	rest     restState // rest.go, under mu
}

// stored is a PR with the base repository it was added to; base "" is a
// PR of SetPR's, which every repository without its own PR of that head
// name answers with, its head in that repository.
type stored struct {
	base string // "owner/name" as given, or ""
	pr   PR
}

// sameRepo reports whether the PR's head is in its base repository.
func (p stored) sameRepo() bool {
	bo, bn, _ := strings.Cut(p.base, "/")
	ho := cmp.Or(p.pr.HeadOwner, p.pr.Owner, bo)
	hn := cmp.Or(p.pr.HeadRepo, bn)
	return strings.EqualFold(ho, bo) && strings.EqualFold(hn, bn)
}

// Start listens on 127.0.0.1 (port 0 picks one).
func Start(port int) (*Server, error) {
	s := &Server{repos: map[string]Repo{}, kinds: map[Kind]int{}, hang: make(chan struct{})}
	return s, s.listen(port)
}

func (s *Server) listen(port int) error {
	addr := "127.0.0.1:0"
	if port != 0 {
		addr = net.JoinHostPort("127.0.0.1", itoa(port))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	s.ln = ln
	s.addr = ln.Addr().String()
	s.srv = &http.Server{Handler: http.HandlerFunc(s.handle), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return nil
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// URL is the proxy URL to give gh as HTTP_PROXY.
func (s *Server) URL() string { return "http://" + s.addr }

// Port is the listening port (kept across Stop/Restart).
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// AddPR adds a pull request into the base repository baseNWO
// ("owner/name"). PRs with the same head name coexist, whatever their head
// repositories, bases, states and creation times, as on GitHub.
func (s *Server) AddPR(baseNWO string, pr PR) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prs = append(s.prs, stored{base: baseNWO, pr: pr})
}

// SetPR makes branch's PR answer with pr, in every repository that has
// no PR of its own with that head name (SetRepoPR, AddPR); its head is
// then in the repository asked about. It replaces an earlier SetPR of
// branch.
func (s *Server) SetPR(branch string, pr PR) {
	s.SetRepoPR("", branch, pr)
}

// SetRepoPR makes branch's PR in repository owner/name answer with pr,
// replacing the PRs of that head name whose head is in that repository;
// it wins over SetPR's for that repository.
func (s *Server) SetRepoPR(nwo, branch string, pr PR) {
	pr.HeadRef = branch
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.prs[:0]
	for _, p := range s.prs {
		if strings.EqualFold(p.base, nwo) && p.pr.HeadRef == branch && (nwo == "" || p.sameRepo()) {
			continue
		}
		kept = append(kept, p)
	}
	s.prs = append(kept, stored{base: nwo, pr: pr})
}

// SetRepo records a repository's parent and default branch.
func (s *Server) SetRepo(nwo string, r Repo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.repos[strings.ToLower(nwo)] = r
}

// SetMode changes how the server answers.
func (s *Server) SetMode(m Mode) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mode = m
}

// SetDelay makes every later answer wait d first: a slow but working
// GitHub, for what happens while a refresh runs.
func (s *Server) SetDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// Requests counts GraphQL requests received so far.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Stop closes the listener: gh then gets a real connection failure.
func (s *Server) Stop() {
	port := s.Port()
	s.srv.Close()
	s.addr = net.JoinHostPort("127.0.0.1", itoa(port))
}

// Restart listens again on the same port.
func (s *Server) Restart() error {
	var port int
	if _, p, err := net.SplitHostPort(s.addr); err == nil {
		json.Unmarshal([]byte(p), &port)
	}
	var err error
	for range 50 {
		if err = s.listen(port); err == nil {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return err
}

// Close stops the server and releases hanging requests.
func (s *Server) Close() {
	select {
	case <-s.hang:
	default:
		close(s.hang)
	}
	s.srv.Close()
}

type gqlRequest struct {
	Query     string         `json:"query"`
	Variables map[string]any `json:"variables"`
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if filepath.Base(r.URL.Path) == "rate_limit" {
		// Asking costs no budget, and does not count as a request.
		s.mu.Lock()
		mode := s.mode
		s.mu.Unlock()
		remaining, reset := 5000, time.Now().Add(time.Hour)
		if mode == RateLimited {
			remaining, reset = 0, time.Now().Add(RateLimitReset)
		}
		budget := map[string]any{"limit": 5000, "remaining": remaining, "reset": reset.Unix()}
		writeJSON(w, 200, map[string]any{"resources": map[string]any{"graphql": budget, "core": budget}})
		return
	}
	if s.handleREST(w, r) {
		return
	}
	if filepath.Base(r.URL.Path) != "graphql" {
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return
	}
	s.requests.Add(1)
	s.mu.Lock()
	mode, delay := s.mode, s.delay
	s.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	var q gqlRequest
	json.Unmarshal(body, &q)
	s.lastQry.Store(q.Query)
	qr := parseQuery(q)
	s.mu.Lock()
	s.queries = append(s.queries, qr)
	at := len(s.queries) - 1
	s.kinds[qr.Kind]++
	s.mu.Unlock()
	switch mode {
	case BadCreds:
		writeJSON(w, 401, map[string]any{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"})
		return
	case RateLimited:
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", itoa(int(time.Now().Add(time.Hour).Unix())))
		writeJSON(w, 403, map[string]any{"message": "API rate limit exceeded for user ID 1234567."})
		return
	case BadGateway:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(502)
		io.WriteString(w, "<html><body>502 Bad Gateway</body></html>")
		return
	case Hang:
		select {
		case <-s.hang:
		case <-r.Context().Done():
		}
		return
	case Reset:
		if hj, ok := w.(http.Hijacker); ok {
			conn, _, err := hj.Hijack()
			if err == nil {
				if tc, ok := conn.(*net.TCPConn); ok {
					tc.SetLinger(0)
				}
				conn.Close()
			}
		}
		return
	}
	s.mu.Lock()
	data, errs := s.answer(qr)
	if sel, err := selection(qr.Text); err == nil {
		var missing []string
		data = prune(data, sel, "", &missing)
		s.queries[at].Missing = missing
	}
	s.mu.Unlock()
	out := map[string]any{"data": data}
	if len(errs) > 0 {
		out["errors"] = errs
	}
	writeJSON(w, 200, out)
}

// What gh sends (logged from gh 2.23 and 2.83 against this server; both
// send the same queries for these commands):
//
//   - `gh pr view` with no selector, `gh pr view BRANCH -R H/O/R` and
//     `gh pr view OWNER:BRANCH -R H/O/R`: one PullRequestForBranch query,
//     variables owner and repo (the base repository: -R, else gh's
//     remote choice), headRefName (the branch, without "OWNER:") and
//     states (null for pr view). It asks `first: 30` newest by
//     CREATED_AT and then picks in gh itself: open before the rest, and
//     only a PR whose head label (OWNER:BRANCH when isCrossRepository,
//     else BRANCH) equals what it looks for.
//   - `gh pr view N -R H/O/R` (and a numeric-looking branch name, which
//     gh takes for a number) and a branch whose merge ref is
//     refs/pull/N/head: one PullRequestByNumber query, variables owner,
//     repo and pr_number.
//   - In a non-interactive run neither version sends RepositoryNetwork
//     (it is asked only to prompt for a base), nor any feature detection
//     for the fields prchip asks.
//
// The server holds the superset of the fields a PR node has and answers,
// as GitHub does, exactly the fields a query asks (select.go), so gh api
// graphql prints what GitHub would print; a field it does not hold is
// null and listed in Query.Missing.

// Kind is what a GraphQL request asks, for counting and assertions.
type Kind string

const (
	KindForBranch  Kind = "PullRequestForBranch" // gh: PRs of a head name in a base repository
	KindByNumber   Kind = "PullRequestByNumber"  // gh: one PR by number
	KindRepoParent Kind = "RepositoryParent"     // prchip: isFork and parent of a repository
	KindRefPRs     Kind = "RefPullRequests"      // prchip: associatedPullRequests of a head repository's ref
	KindMergeQueue Kind = "MergeQueueEntry"      // prchip: a PR's merge queue entry by node id
	KindNode       Kind = "Node"                 // any other node(id:) query: the PR with that id
	KindNetwork    Kind = "RepositoryNetwork"    // gh: remotes' repositories, when it would prompt
	KindOther      Kind = "other"                // anything else: answered with an error
)

// Query is one GraphQL request as received.
type Query struct {
	Kind Kind
	// Name is the operation name, or the query's first words when it has
	// none (prchip's gh api graphql queries).
	Name      string
	Variables map[string]any
	Text      string
	// Missing are the fields asked that the fake does not hold (answered
	// null), as dotted paths: GitHub would answer them or refuse the
	// query, so a test of a caller's own query asserts there are none.
	Missing []string
}

// Var is variable name as a string ("" when absent); gh api graphql -F
// sends numbers and booleans typed.
func (q Query) Var(name string) string {
	v, ok := q.Variables[name]
	if !ok || v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

var (
	opNameRE    = regexp.MustCompile(`^\s*(?:query|mutation)\s+([A-Za-z_][A-Za-z0-9_]*)`)
	aliasRepoRE = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\s*:\s*repository\(\s*owner:\s*"([^"]*)"\s*,\s*name:\s*"([^"]*)"\s*\)`)
)

func parseQuery(q gqlRequest) Query {
	qr := Query{Variables: q.Variables, Text: q.Query}
	if m := opNameRE.FindStringSubmatch(q.Query); m != nil {
		qr.Name = m[1]
	} else {
		words := strings.Fields(q.Query)
		qr.Name = strings.Join(words[:min(len(words), 6)], " ")
	}
	t := q.Query
	switch {
	case strings.Contains(t, "associatedPullRequests"):
		qr.Kind = KindRefPRs
	case strings.Contains(t, "pullRequests("):
		qr.Kind = KindForBranch
	case strings.Contains(t, "pullRequest("):
		qr.Kind = KindByNumber
	case args(t, "node") != "" && strings.Contains(t, "mergeQueueEntry"):
		qr.Kind = KindMergeQueue
	case args(t, "node") != "":
		qr.Kind = KindNode
	case aliasRepoRE.MatchString(t):
		qr.Kind = KindNetwork
	case strings.Contains(t, "repository(") && strings.Contains(t, "isFork"):
		qr.Kind = KindRepoParent
	default:
		qr.Kind = KindOther
	}
	return qr
}

// args is the argument text of the first call of field in the query,
// without its parentheses; "" when the query has no such call.
func args(text, field string) string {
	m := regexp.MustCompile(`(?:^|[^A-Za-z0-9_])` + field + `\s*\(`).FindStringIndex(text)
	if m == nil {
		return ""
	}
	depth, inString := 1, false
	for i := m[1]; i < len(text); i++ {
		switch c := text[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth == 0 {
				return text[m[1]:i]
			}
		}
	}
	return ""
}

var argRE = regexp.MustCompile(`^\s*(\$[A-Za-z0-9_]+|"(?:[^"\\]|\\.)*"|\[[^\]]*\]|[A-Za-z0-9_.-]+)`)

// arg is argument name of field as GitHub takes it: a literal (string,
// number, enum, list of enums) or a variable; nil when absent.
func (q Query) arg(field, name string) any {
	a := args(q.Text, field)
	m := regexp.MustCompile(`(?:^|[^A-Za-z0-9_])` + name + `\s*:`).FindStringIndex(a)
	if m == nil {
		return nil
	}
	v := argRE.FindStringSubmatch(a[m[1]:])
	if v == nil {
		return nil
	}
	switch tok := v[1]; {
	case strings.HasPrefix(tok, "$"):
		return q.Variables[tok[1:]]
	case strings.HasPrefix(tok, `"`):
		var str string
		json.Unmarshal([]byte(tok), &str)
		return str
	case strings.HasPrefix(tok, "["):
		var list []any
		for _, e := range strings.FieldsFunc(strings.Trim(tok, "[]"), func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' }) {
			list = append(list, strings.Trim(e, `"`))
		}
		return list
	default:
		return tok
	}
}

// str is argument name of field as a string ("" when absent); gh api
// graphql -F sends numbers and booleans typed.
func (q Query) str(field, name string) string {
	switch v := q.arg(field, name).(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		b, _ := json.Marshal(v)
		return string(b)
	}
}

// first is field's first: N (def when absent), as GitHub pages.
func (q Query) first(field string, def int) int {
	if n, err := strconv.Atoi(q.str(field, "first")); err == nil {
		return n
	}
	return def
}

// states is field's states filter (none: every state).
func (q Query) states(field string) []string {
	var out []string
	switch v := q.arg(field, "states").(type) {
	case []any:
		for _, e := range v {
			if str, ok := e.(string); ok {
				out = append(out, str)
			}
		}
	case string:
		out = []string{v}
	}
	return out
}

// resolved is a PR with its base and head repositories settled for the
// repository a request is about.
type resolved struct {
	PR
	base, head string // "owner/name"
	seq        int    // order added
}

// all is every PR as seen from repository about: SetPR's PRs count as
// about's own, with their head in it, unless about has a PR of that head
// name. Called under mu.
func (s *Server) all(about string) []resolved {
	own := map[string]bool{}
	for _, p := range s.prs {
		if p.base != "" && strings.EqualFold(p.base, about) {
			own[p.pr.HeadRef] = true
		}
	}
	var out []resolved
	for i, p := range s.prs {
		base := p.base
		if base == "" {
			if own[p.pr.HeadRef] {
				continue
			}
			base = about
		}
		bo, bn, _ := strings.Cut(base, "/")
		ho, hn := p.pr.HeadOwner, p.pr.HeadRepo
		if ho == "" {
			ho = p.pr.Owner
		}
		if ho == "" {
			ho = bo
		}
		if hn == "" {
			hn = bn
		}
		out = append(out, resolved{PR: p.pr, base: base, head: ho + "/" + hn, seq: i})
	}
	return out
}

// created is when the PR was opened: Created, or a time that orders PRs
// by number.
func (r resolved) created() time.Time {
	if !r.Created.IsZero() {
		return r.Created
	}
	return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.Number) * time.Minute)
}

func (r resolved) state() string {
	if r.State == "" {
		return "OPEN"
	}
	return r.State
}

// newestFirst orders as orderBy CREATED_AT DESC (the later added first
// among equal times), keeps the states asked (none: all) and at most n.
func newestFirst(prs []resolved, states []string, n int) []resolved {
	var out []resolved
	for _, p := range prs {
		if len(states) == 0 || slices.Contains(states, p.state()) {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		ci, cj := out[i].created(), out[j].created()
		if !ci.Equal(cj) {
			return ci.After(cj)
		}
		return out[i].seq > out[j].seq
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

func (s *Server) repo(nwo string) Repo {
	r := s.repos[strings.ToLower(nwo)]
	if r.DefaultBranch == "" {
		r.DefaultBranch = "main"
	}
	return r
}

// answer is the data (and GraphQL errors) for one request. Called under mu.
func (s *Server) answer(qr Query) (any, []any) {
	switch qr.Kind {
	case KindMergeQueue, KindNode:
		return map[string]any{"node": s.nodeByID(qr.str("node", "id"))}, nil
	case KindForBranch:
		base := qr.str("repository", "owner") + "/" + qr.str("repository", "name")
		head := qr.str("pullRequests", "headRefName")
		var match []resolved
		for _, p := range s.all(base) {
			if strings.EqualFold(p.base, base) && p.HeadRef == head {
				match = append(match, p)
			}
		}
		nodes := []any{}
		for _, p := range newestFirst(match, qr.states("pullRequests"), qr.first("pullRequests", 100)) {
			nodes = append(nodes, s.node(p))
		}
		r := s.repoNode(base, true)
		r["pullRequests"] = map[string]any{"nodes": nodes, "totalCount": len(match)}
		return map[string]any{"repository": r}, nil
	case KindByNumber:
		base := qr.str("repository", "owner") + "/" + qr.str("repository", "name")
		n, _ := strconv.Atoi(qr.str("pullRequest", "number"))
		var found any
		for _, p := range s.all(base) {
			if strings.EqualFold(p.base, base) && p.Number == n {
				found = s.node(p)
			}
		}
		r := s.repoNode(base, true)
		r["pullRequest"] = found
		if found == nil {
			return map[string]any{"repository": r}, []any{map[string]any{
				"type": "NOT_FOUND", "path": []any{"repository", "pullRequest"},
				"locations": []any{map[string]any{"line": 3, "column": 4}},
				"message":   "Could not resolve to a PullRequest with the number of " + itoa(n) + "."}}
		}
		return map[string]any{"repository": r}, nil
	case KindRepoParent:
		return map[string]any{"repository": s.repoNode(qr.str("repository", "owner")+"/"+qr.str("repository", "name"), true)}, nil
	case KindRefPRs:
		nwo := qr.str("repository", "owner") + "/" + qr.str("repository", "name")
		branch := strings.TrimPrefix(qr.str("ref", "qualifiedName"), "refs/heads/")
		r := s.repoNode(nwo, true)
		r["ref"] = s.refNode(qr, nwo, branch)
		return map[string]any{"repository": r}, nil
	case KindNetwork:
		data := map[string]any{"viewer": map[string]any{"login": "octo"}}
		for _, m := range aliasRepoRE.FindAllStringSubmatch(qr.Text, -1) {
			r := s.repoNode(m[2]+"/"+m[3], true)
			r["viewerPermission"] = "WRITE"
			data[m[1]] = r
		}
		return data, nil
	}
	return nil, []any{map[string]any{"message": "fakegithub does not answer this query: " + qr.Name}}
}

// refNode is a head repository's branch with the PRs whose head it is,
// into any base repository; nil when the branch does not exist there.
func (s *Server) refNode(qr Query, nwo, branch string) any {
	repo := s.repo(nwo)
	exists := branch == repo.DefaultBranch || slices.Contains(repo.Branches, branch)
	var match []resolved
	for _, p := range s.all(nwo) {
		if strings.EqualFold(p.head, nwo) && p.HeadRef == branch {
			match = append(match, p)
			exists = exists || !p.HeadDeleted
		}
	}
	if !exists {
		return nil
	}
	nodes := []any{}
	for _, p := range newestFirst(match, qr.states("associatedPullRequests"), qr.first("associatedPullRequests", 100)) {
		nodes = append(nodes, s.node(p))
	}
	return map[string]any{"name": branch, "prefix": "refs/heads/",
		"associatedPullRequests": map[string]any{"nodes": nodes, "totalCount": len(match)}}
}

// repoNode is a repository with every field asked of one here; withParent
// adds the parent, one level deep.
func (s *Server) repoNode(nwo string, withParent bool) map[string]any {
	owner, name, _ := strings.Cut(nwo, "/")
	r := s.repo(nwo)
	n := map[string]any{
		"__typename": "Repository",
		"id":         "R_" + owner + "_" + name, "name": name, "nameWithOwner": nwo,
		"owner":            map[string]any{"id": "U_" + owner, "login": owner},
		"url":              "https://" + Host + "/" + nwo,
		"isFork":           r.Parent != "",
		"isPrivate":        false,
		"viewerPermission": "WRITE",
		"defaultBranchRef": map[string]any{"name": r.DefaultBranch},
		"parent":           nil,
	}
	if r.Parent != "" && withParent {
		n["parent"] = s.repoNode(r.Parent, false)
	}
	return n
}

// node is a PR as GitHub's PullRequest object, with every field gh or
// prchip may ask for.
func (s *Server) node(p resolved) map[string]any {
	bo, bn, _ := strings.Cut(p.base, "/")
	ho, hn, _ := strings.Cut(p.head, "/")
	state := p.state()
	checks := p.Checks
	if c, ok := p.CommitChecks[p.HeadOid]; ok {
		checks = c
	}
	merge := p.MergeState
	if merge == "" {
		merge = "UNKNOWN"
	}
	var auto any
	if p.AutoMerge {
		auto = map[string]any{"authorEmail": nil, "commitBody": nil, "commitHeadline": nil, "mergeMethod": "SQUASH",
			"enabledAt": "2026-11-30T12:00:00Z", "enabledBy": map[string]any{"login": ho, "id": "U_1", "name": ""}}
	}
	created := p.created()
	var closedAt, mergedAt any
	if state != "OPEN" {
		closedAt = created.Add(time.Hour).Format(time.RFC3339)
	}
	if state == "MERGED" {
		mergedAt = closedAt
	}
	timeline, commits := queueNodes(p)
	baseRepo := map[string]any{"id": "R_" + bo + "_" + bn, "name": bn, "nameWithOwner": p.base,
		"owner": map[string]any{"id": "U_" + bo, "login": bo}}
	return map[string]any{
		"__typename": "PullRequest",
		"id":         nodeID(p.base, p.Number), "number": p.Number, "title": p.Title, "state": state, "isDraft": p.Draft,
		"closed": state != "OPEN", "body": "",
		"url":       "https://" + Host + "/" + p.base + "/pull/" + itoa(p.Number),
		"createdAt": created.Format(time.RFC3339), "updatedAt": created.Format(time.RFC3339),
		"closedAt": closedAt, "mergedAt": mergedAt,
		"author":              map[string]any{"id": "U_" + ho, "login": ho, "name": ""},
		"headRefName":         p.HeadRef,
		"headRefOid":          p.HeadOid,
		"baseRefName":         p.baseRef(),
		"isCrossRepository":   !strings.EqualFold(p.head, p.base),
		"headRepositoryOwner": map[string]any{"id": "U_" + ho, "login": ho, "name": ""},
		"headRepository": map[string]any{"id": "R_" + ho + "_" + hn, "name": hn, "nameWithOwner": p.head,
			"owner": map[string]any{"id": "U_" + ho, "login": ho}},
		"baseRepository":      baseRepo,
		"repository":          baseRepo,
		"maintainerCanModify": false,
		"reviewDecision":      p.Review,
		"statusCheckRollup":   rollup(checks),
		"mergeStateStatus":    merge,
		"autoMergeRequest":    auto,
		"isInMergeQueue":      p.Queue != nil,
		"mergeQueueEntry":     queueEntry(p.Queue),
		"timelineItems":       timeline,
		"commits":             commits,
	}
}

func (p resolved) baseRef() string {
	if p.Base == "" {
		return "main"
	}
	return p.Base
}

func queueEntry(q *QueueEntry) any {
	if q == nil {
		return nil
	}
	return map[string]any{"position": q.Position, "state": q.State}
}

// nodeID is a PR's GraphQL node id: opaque, of the characters GitHub's
// ids use (prchip checks), and naming the base repository, so that the
// merge queue query finds SetPR's PRs, which are in every repository.
func nodeID(base string, number int) string {
	return "PR_" + base64.RawURLEncoding.EncodeToString([]byte(base+"#"+itoa(number)))
}

// nodeByID is the PR with GraphQL node id, as `node(id:)` answers (the
// merge queue query asks one this way); nil when there is none. Called
// under mu.
func (s *Server) nodeByID(id string) any {
	raw, _ := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(id, "PR_"))
	base, num, ok := strings.Cut(string(raw), "#")
	if !ok {
		return nil
	}
	n, _ := strconv.Atoi(num)
	var found any
	for _, p := range s.all(base) {
		if strings.EqualFold(p.base, base) && p.Number == n {
			found = s.node(p)
		}
	}
	return found
}

// LastQueryMatching is the GraphQL text of the last request that
// contains substr ("PullRequestForBranch"), "" if none.
func (s *Server) LastQueryMatching(substr string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.queries) - 1; i >= 0; i-- {
		if strings.Contains(s.queries[i].Text, substr) {
			return s.queries[i].Text
		}
	}
	return ""
}

// Queries are the GraphQL requests received so far, oldest first.
func (s *Server) Queries() []Query {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.queries)
}

// Count is how many GraphQL requests of kind were received so far.
func (s *Server) Count(kind Kind) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.kinds[kind]
}

// LastQuery is the GraphQL text of the last request.
func (s *Server) LastQuery() string {
	q, _ := s.lastQry.Load().(string)
	return q
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	w.Write(b)
}

// GhEnv is the environment that points the real gh at s, with an empty gh
// config directory.
func (s *Server) GhEnv(configDir string) []string {
	os.MkdirAll(configDir, 0o700)
	return []string{
		"GH_HOST=" + Host,
		"GH_TOKEN=x",
		"HTTP_PROXY=" + s.URL(),
		"http_proxy=" + s.URL(),
		"GH_CONFIG_DIR=" + configDir,
	}
}

// rollup shapes checks as gh's query asks: the last commit's rollup contexts.
func rollup(checks []Check) map[string]any {
	nodes := []any{}
	for _, c := range checks {
		if c.Context != "" {
			nodes = append(nodes, map[string]any{"__typename": "StatusContext", "context": c.Context, "state": c.State,
				"createdAt": c.Started.Format(time.RFC3339), "targetUrl": "", "description": ""})
		} else {
			var completed any
			if c.Status == "COMPLETED" {
				completed = c.Started.Add(time.Minute).Format(time.RFC3339)
			}
			nodes = append(nodes, map[string]any{"__typename": "CheckRun", "name": c.Name, "status": c.Status, "conclusion": c.Conclusion,
				"startedAt": c.Started.Format(time.RFC3339), "completedAt": completed, "detailsUrl": "",
				"checkSuite": map[string]any{"workflowRun": map[string]any{"workflow": map[string]any{"name": c.Workflow}}}})
		}
	}
	return map[string]any{"nodes": []any{map[string]any{"commit": map[string]any{"statusCheckRollup": map[string]any{
		"contexts": map[string]any{"nodes": nodes, "pageInfo": map[string]any{"hasNextPage": false, "endCursor": ""}}}}}}}
}
