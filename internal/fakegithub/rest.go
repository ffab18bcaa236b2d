package fakegithub

// GitHub's REST answers that prchip's conditional probes ask (SPEC 4,
// "Cost to GitHub"): a PR by number, the PRs of a head, and a commit's
// check runs and combined status, each with an ETag derived from the
// body, and 304 Not Modified to a request whose If-None-Match names the
// current one, as GitHub does. A 304 does not count against the primary
// rate limit; Counted says how many requests did.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RESTStats counts the REST requests the probes made.
type RESTStats struct {
	// Requests is every REST request but rate_limit; NotModified those
	// answered 304 (which GitHub does not count); Conditional those that
	// carried If-None-Match.
	Requests, NotModified, Conditional int
	// Paths are the paths asked, in order, with their query.
	Paths []string
}

// Counted is the requests that count against the rate limit.
func (st RESTStats) Counted() int { return st.Requests - st.NotModified }

// restState is the server's REST side, under Server.mu.
type restState struct {
	stats RESTStats
	// dropConditional: a proxy in front drops If-None-Match (and ETags
	// come back, but never a 304).
	dropConditional bool
	// moves counts MoveBranch's moves by lower-case "owner/name:branch".
	moves map[string]int
}

// MoveBranch moves a branch of repository nwo to a new commit (someone
// merged into the base branch): its ref answers with a new sha.
func (s *Server) MoveBranch(nwo, branch string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rest.moves == nil {
		s.rest.moves = map[string]int{}
	}
	s.rest.moves[strings.ToLower(nwo)+":"+branch]++
}

// DropConditional makes the server behave as behind a proxy that drops
// If-None-Match: every answer is a 200.
func (s *Server) DropConditional(drop bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rest.dropConditional = drop
}

// REST is what the REST side counted so far.
func (s *Server) REST() RESTStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.rest.stats
	st.Paths = append([]string(nil), st.Paths...)
	return st
}

// handleREST answers GET repos/OWNER/REPO/{pulls/N, pulls?head=,
// commits/SHA/check-runs, commits/SHA/status}; false when the request is
// none of these (the caller answers it).
func (s *Server) handleREST(w http.ResponseWriter, r *http.Request) bool {
	path := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/api/v3"), "/")
	parts := strings.Split(path, "/")
	if r.Method != http.MethodGet || len(parts) < 4 || parts[0] != "repos" {
		return false
	}
	nwo, rest := parts[1]+"/"+parts[2], parts[3:]
	s.mu.Lock()
	mode, delay, drop := s.mode, s.delay, s.rest.dropConditional
	s.rest.stats.Requests++
	s.rest.stats.Paths = append(s.rest.stats.Paths, r.URL.RequestURI())
	inm := r.Header.Get("If-None-Match")
	if inm != "" {
		s.rest.stats.Conditional++
	}
	s.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return true
		}
	}
	if s.failREST(w, r, mode) {
		return true
	}
	s.mu.Lock()
	body, found := s.restBody(nwo, rest, r)
	s.mu.Unlock()
	if !found {
		writeJSON(w, 404, map[string]any{"message": "Not Found", "documentation_url": "https://docs.github.com/rest"})
		return true
	}
	b, _ := json.Marshal(body)
	sum := sha256.Sum256(b)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("X-RateLimit-Limit", "5000")
	if !drop && inm != "" && inm == etag {
		s.mu.Lock()
		s.rest.stats.NotModified++
		s.mu.Unlock()
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(200)
	w.Write(b)
	return true
}

// failREST answers in the failure modes, as the GraphQL side does.
func (s *Server) failREST(w http.ResponseWriter, r *http.Request, mode Mode) bool {
	switch mode {
	case BadCreds:
		writeJSON(w, 401, map[string]any{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"})
	case RateLimited:
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", itoa(int(time.Now().Add(time.Hour).Unix())))
		writeJSON(w, 403, map[string]any{"message": "API rate limit exceeded for user ID 1234567.",
			"documentation_url": "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"})
	case BadGateway:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(502)
		w.Write([]byte("<html><body>502 Bad Gateway</body></html>"))
	case Hang:
		select {
		case <-s.hang:
		case <-r.Context().Done():
		}
	case Reset:
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				if tc, ok := conn.(*net.TCPConn); ok {
					tc.SetLinger(0)
				}
				conn.Close()
			}
		}
	default:
		return false
	}
	return true
}

// restBody is the JSON GitHub would answer; false for a 404. Under mu.
func (s *Server) restBody(nwo string, rest []string, r *http.Request) (any, bool) {
	switch {
	case len(rest) == 2 && rest[0] == "pulls":
		n, err := strconv.Atoi(rest[1])
		if err != nil {
			return nil, false
		}
		for _, p := range s.all(nwo) {
			if strings.EqualFold(p.base, nwo) && p.Number == n {
				return restPR(p), true
			}
		}
		return nil, false
	case len(rest) >= 4 && rest[0] == "git" && rest[1] == "ref" && rest[2] == "heads":
		branch := strings.Join(rest[3:], "/")
		sum := sha256.Sum256([]byte(strings.ToLower(nwo) + ":" + branch + ":" + strconv.Itoa(s.rest.moves[strings.ToLower(nwo)+":"+branch])))
		return map[string]any{"ref": "refs/heads/" + branch, "object": map[string]any{"type": "commit", "sha": hex.EncodeToString(sum[:20])}}, true
	case len(rest) == 1 && rest[0] == "pulls":
		q := r.URL.Query()
		owner, branch, ok := strings.Cut(q.Get("head"), ":")
		list := []any{}
		if !ok {
			return list, true
		}
		states := []string{"OPEN"}
		switch q.Get("state") {
		case "all":
			states = nil
		case "closed":
			states = []string{"MERGED", "CLOSED"}
		}
		var match []resolved
		for _, p := range s.all(nwo) {
			ho, _, _ := strings.Cut(p.head, "/")
			if strings.EqualFold(p.base, nwo) && p.HeadRef == branch && strings.EqualFold(ho, owner) {
				match = append(match, p)
			}
		}
		for _, p := range newestFirst(match, states, 30) {
			list = append(list, restPR(p))
		}
		return list, true
	case len(rest) == 3 && rest[0] == "commits" && (rest[2] == "check-runs" || rest[2] == "status"):
		sha := rest[1]
		var checks []Check
		known := false
		for _, p := range s.all(nwo) {
			if !strings.EqualFold(p.base, nwo) {
				continue
			}
			if c, ok := p.CommitChecks[sha]; ok {
				checks, known = c, true
			} else if p.HeadOid == sha {
				checks, known = p.Checks, true
			}
		}
		if !known {
			return nil, false
		}
		if rest[2] == "check-runs" {
			runs := []any{}
			for _, c := range checks {
				if c.Context == "" {
					runs = append(runs, map[string]any{"name": c.Name, "status": strings.ToLower(c.Status),
						"conclusion": nilIfEmpty(strings.ToLower(c.Conclusion)), "head_sha": sha})
				}
			}
			return map[string]any{"total_count": len(runs), "check_runs": runs}, true
		}
		statuses := []any{}
		combined := "success"
		for _, c := range checks {
			if c.Context != "" {
				st := strings.ToLower(c.State)
				statuses = append(statuses, map[string]any{"context": c.Context, "state": st})
				if st == "failure" || st == "error" {
					combined = "failure"
				} else if st == "pending" && combined != "failure" {
					combined = "pending"
				}
			}
		}
		return map[string]any{"state": combined, "sha": sha, "total_count": len(statuses), "statuses": statuses}, true
	}
	return nil, false
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// restPR is a PR as GitHub's REST API answers it, with the fields whose
// change GitHub's ETag follows here: state, title, draft, merge, head,
// base, mergeable state.
func restPR(p resolved) map[string]any {
	bo, _, _ := strings.Cut(p.base, "/")
	ho, _, _ := strings.Cut(p.head, "/")
	state, merged := "open", false
	var mergedAt any
	switch p.state() {
	case "MERGED":
		state, merged, mergedAt = "closed", true, p.created().Add(time.Hour).Format(time.RFC3339)
	case "CLOSED":
		state = "closed"
	}
	merge := strings.ToLower(p.MergeState)
	if merge == "" {
		merge = "unknown"
	}
	return map[string]any{
		"number": p.Number, "state": state, "title": p.Title, "draft": p.Draft, "merged": merged, "merged_at": mergedAt,
		"html_url":        "https://" + Host + "/" + p.base + "/pull/" + itoa(p.Number),
		"head":            map[string]any{"ref": p.HeadRef, "sha": p.HeadOid, "label": ho + ":" + p.HeadRef},
		"base":            map[string]any{"ref": p.baseRef(), "label": bo + ":" + p.baseRef()},
		"mergeable_state": merge,
		"review_decision": p.Review, // not GitHub's field: a review changes updated_at there, which is in the ETag
	}
}
