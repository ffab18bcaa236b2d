// Package fakegithub is a local stand-in for GitHub's GraphQL API that the
// real gh talks to in tests (SPEC 10): gh sends requests for the host
// github.localhost over plain HTTP to api.github.localhost, through
// HTTP_PROXY, which points here.
package fakegithub

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Host is the GitHub host gh is pointed at.
const Host = "github.localhost"

// PR is a pull request the server knows, keyed by head branch.
type PR struct {
	Number int
	Title  string
	State  string // OPEN, MERGED, CLOSED
	Draft  bool
	Owner  string // head repository owner; default "octo"
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
	prs      map[string]PR
	mode     Mode
	delay    time.Duration
	requests atomic.Int64
	lastQry  atomic.Value
	queries  []string // every GraphQL query, under mu
	ln       net.Listener
	srv      *http.Server
	addr     string
	hang     chan struct{}
}

// Start listens on 127.0.0.1 (port 0 picks one).
func Start(port int) (*Server, error) {
	s := &Server{prs: map[string]PR{}, hang: make(chan struct{})}
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

// SetPR makes branch's PR answer with pr.
func (s *Server) SetPR(branch string, pr PR) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prs[branch] = pr
}

// SetRepoPR makes branch's PR in repository owner/name answer with pr; it
// wins over SetPR's for that repository.
func (s *Server) SetRepoPR(nwo, branch string, pr PR) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prs[nwo+"\x00"+branch] = pr
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
	var q gqlRequest
	json.Unmarshal(body, &q)
	s.lastQry.Store(q.Query)
	s.mu.Lock()
	s.queries = append(s.queries, q.Query)
	s.mu.Unlock()
	if strings.Contains(q.Query, "mergeQueueEntry") {
		s.answerQueue(w, q)
		return
	}
	branch, _ := q.Variables["headRefName"].(string)
	repoOwner, _ := q.Variables["owner"].(string)
	repoName, _ := q.Variables["repo"].(string)
	s.mu.Lock()
	pr, ok := s.prs[repoOwner+"/"+repoName+"\x00"+branch]
	if !ok {
		pr, ok = s.prs[branch]
	}
	s.mu.Unlock()
	nodes := []any{}
	if ok {
		owner := pr.Owner
		if owner == "" {
			owner = "octo"
		}
		state := pr.State
		if state == "" {
			state = "OPEN"
		}
		checks := pr.Checks
		if c, ok := pr.CommitChecks[pr.HeadOid]; ok {
			checks = c
		}
		merge := pr.MergeState
		if merge == "" {
			merge = "UNKNOWN"
		}
		var auto any
		if pr.AutoMerge {
			auto = map[string]any{"authorEmail": nil, "commitBody": nil, "commitHeadline": nil, "mergeMethod": "SQUASH",
				"enabledAt": "2026-11-30T12:00:00Z", "enabledBy": map[string]any{"login": owner, "id": "U_1", "name": ""}}
		}
		nodes = append(nodes, map[string]any{
			"id": nodeID(pr.Number), "number": pr.Number, "title": pr.Title, "state": state, "isDraft": pr.Draft,
			"url":         "https://" + Host + "/" + repoOwner + "/" + repoName + "/pull/" + itoa(pr.Number),
			"headRefName": branch, "baseRefName": "main", "isCrossRepository": false,
			"headRepositoryOwner": map[string]any{"id": "U_1", "login": owner},
			"reviewDecision":      pr.Review,
			"statusCheckRollup":   rollup(checks),
			"mergeStateStatus":    merge,
			"autoMergeRequest":    auto,
			"headRefOid":          pr.HeadOid,
		})
	}
	writeJSON(w, 200, map[string]any{"data": map[string]any{"repository": map[string]any{
		"pullRequests":     map[string]any{"nodes": nodes},
		"defaultBranchRef": map[string]any{"name": "main"},
	}}})
}

// nodeID is a PR's GraphQL node id.
func nodeID(number int) string { return "PR_" + itoa(number) }

// rollup shapes checks as gh's query asks: the last commit's rollup contexts.
func rollup(checks []Check) map[string]any {
	nodes := []any{}
	for _, c := range checks {
		if c.Context != "" {
			nodes = append(nodes, map[string]any{"__typename": "StatusContext", "context": c.Context, "state": c.State,
				"createdAt": c.Started.Format(time.RFC3339)})
		} else {
			nodes = append(nodes, map[string]any{"__typename": "CheckRun", "name": c.Name, "status": c.Status, "conclusion": c.Conclusion,
				"startedAt": c.Started.Format(time.RFC3339), "checkSuite": map[string]any{"workflowRun": map[string]any{"workflow": map[string]any{"name": c.Workflow}}}})
		}
	}
	return map[string]any{"nodes": []any{map[string]any{"commit": map[string]any{"statusCheckRollup": map[string]any{
		"contexts": map[string]any{"nodes": nodes, "pageInfo": map[string]any{"hasNextPage": false, "endCursor": ""}}}}}}}
}

// LastQueryMatching is the GraphQL text of the last request that
// contains substr ("PullRequestForBranch"), "" if none.
func (s *Server) LastQueryMatching(substr string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.queries) - 1; i >= 0; i-- {
		if strings.Contains(s.queries[i], substr) {
			return s.queries[i]
		}
	}
	return ""
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
