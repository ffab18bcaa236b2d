package chip

// Conditional probes (SPEC 4, "Cost to GitHub"; what they keep and when
// they come: chip/state/probe.go) ask about the PR the lookup found (by
// number), or the PRs from the branch's head when it found none, the same
// question the lookup asked, so both always agree.

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/chip/state"
)

// probePlan is what the next probes of a lookup's result ask about.
type probePlan struct {
	Host  string
	Paths []string
}

// probeFor is what probes ask after a lookup: the PR found, by number in
// its base repository, its base branch's ref when a template shows the
// merge state, and its head commit's check runs and status while checks
// run and a template shows them (a push changes the PR's own answer, so
// settled checks need no question); or, when none was found, the PRs from
// the branch's head in the first base asked.
func probeFor(found *classify.PR, at ask, first ask, fields []string) probePlan {
	if found != nil && found.Number > 0 {
		base := "repos/" + at.Base.Owner + "/" + at.Base.Name + "/"
		pl := probePlan{Host: at.Base.Host, Paths: []string{base + "pulls/" + strconv.Itoa(found.Number)}}
		if slices.Contains(fields, "mergeStateStatus") && found.State == "open" && found.Base != "" {
			// The merge state follows the base branch, which the PR's
			// own answer does not: its ref is asked too.
			pl.Paths = append(pl.Paths, base+"git/ref/heads/"+found.Base)
		}
		checks := slices.Contains(fields, "statusCheckRollup") || slices.Contains(fields, "mergeStateStatus")
		if checks && found.State == "open" && found.HeadOid != "" && found.Checks == "pending" {
			pl.Paths = append(pl.Paths, base+"commits/"+found.HeadOid+"/check-runs", base+"commits/"+found.HeadOid+"/status")
		}
		return validPlan(pl)
	}
	if first.Number > 0 || first.Branch == "" {
		return probePlan{}
	}
	head := url.QueryEscape(first.Head.Owner + ":" + first.Branch)
	return validPlan(probePlan{Host: first.Base.Host,
		Paths: []string{"repos/" + first.Base.Owner + "/" + first.Base.Name + "/pulls?head=" + head + "&state=all"}})
}

// validPlan keeps only paths the state accepts back (state.ValidProbePath).
func validPlan(pl probePlan) probePlan {
	pl.Paths = slices.DeleteFunc(pl.Paths, func(p string) bool { return !state.ValidProbePath(p) })
	if len(pl.Paths) == 0 || pl.Host == "" {
		return probePlan{}
	}
	return pl
}

// probeResult is what a probe found: a state.Probe* answer, the targets
// with the ETags learned, and the outcome, classified like any gh run and
// recorded as the chip's, of a probe gh could not complete.
type probeResult struct {
	Answer  string
	Targets []state.ProbeTarget
	Failed  *classify.Outcome
}

// probe asks each target whether it changed, in order, and stops at the
// first change.
func (e *Engine) probe(ctx context.Context, f *Facts, p state.Policy, st *state.ChipState) probeResult {
	pb := st.Probe
	// One timeout for all its questions: the refresh stays within RunBudget.
	ctx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	targets := slices.Clone(pb.Targets)
	answer := state.ProbeUnchanged
	for i := range targets {
		t := &targets[i]
		args := []string{"api", "-i", "--hostname", pb.Host}
		if t.ETag != "" {
			args = append(args, "-H", "If-None-Match: "+t.ETag)
		}
		// "--" is not needed: the path starts with "repos/".
		args = append(args, t.Path)
		r := e.gh(ctx, f, p.Timeout, args...)
		code, etag, header, body := parseHTTP(r.Stdout)
		switch {
		case code == 304 && !r.TimedOut && !r.Signaled && !r.Overflowed:
			// gh exits 1 on a 304 and says "gh: HTTP 304": the status
			// line is what counts, never the exit code.
			continue
		case code == 200 && r.ExitCode == 0:
			sent := t.ETag
			t.ETag = etag
			switch {
			case etag == "" || sent != "" && etag == sent:
				// A 200 for an unchanged resource: the conditional request
				// did not reach GitHub.
				answer = state.ProbeIgnored
				continue
			case sent == "" && !changedBody(t.Path, body, st):
				// The first answer since the full run, compared with it.
				if answer == state.ProbeUnchanged {
					answer = state.ProbeBaseline
				}
				continue
			}
			return probeResult{Answer: state.ProbeChanged, Targets: targets}
		case code == 404 || code == 410 || code == 422:
			// The PR or commit is gone, or the question no longer fits
			// (a renamed repository): the full lookup finds out.
			t.ETag = ""
			return probeResult{Answer: state.ProbeChanged, Targets: targets}
		}
		o := classify.ClassifyPR(r, e.now())
		if o.Class == classify.Validated {
			// No status line, or one gh api does not explain: no answer.
			o = classify.ClassifyPR(proc.Result{ExitCode: 1, Stderr: []byte("gh printed an answer to a probe prchip could not read: HTTP " + strconv.Itoa(code) + "\ninvalid character")}, e.now())
		}
		if o.Category == classify.CatRateLimited && o.RetryAt.IsZero() {
			// The reset is in GitHub's headers (gh api -i): no rate_limit run.
			waitUntil(o, rateLimitHeader(header, e.now()))
		}
		if st.Outcome != nil {
			o.Lookup = st.Outcome.Lookup
		}
		return probeResult{Answer: state.ProbeFailed, Targets: targets, Failed: o}
	}
	return probeResult{Answer: answer, Targets: targets}
}

// rateLimitHeader is X-RateLimit-Reset when X-RateLimit-Remaining is 0
// and the reset is within classify.RateLimitMax; zero otherwise.
func rateLimitHeader(header func(string) string, now time.Time) time.Time {
	n, err := strconv.ParseInt(header("x-ratelimit-reset"), 10, 64)
	if header("x-ratelimit-remaining") != "0" || err != nil {
		return time.Time{}
	}
	t := time.Unix(n, 0).UTC()
	if !t.After(now) || t.Sub(now) > classify.RateLimitMax {
		return time.Time{}
	}
	return t
}

// parseHTTP reads `gh api -i`'s output: the status code (0 for no status
// line), the ETag to send back, a header's last value by name, the body.
func parseHTTP(out []byte) (code int, etag string, header func(name string) string, body []byte) {
	head, body, ok := bytes.Cut(out, []byte("\r\n\r\n"))
	if !ok {
		head, body, _ = bytes.Cut(out, []byte("\n\n"))
	}
	lines := strings.Split(strings.ReplaceAll(string(head), "\r\n", "\n"), "\n")
	if status := strings.Fields(lines[0]); len(status) >= 2 && strings.HasPrefix(status[0], "HTTP/") {
		code, _ = strconv.Atoi(status[1])
	}
	header = func(name string) (v string) {
		for _, l := range lines[1:] {
			if k, val, ok := strings.Cut(l, ":"); ok && strings.EqualFold(strings.TrimSpace(k), name) {
				v = strings.TrimSpace(val)
			}
		}
		return v
	}
	if etag = header("etag"); code == 0 || !state.ValidETag(etag) {
		etag = ""
	}
	return code, etag, header, body
}

// changedBody compares a first answer with what the last full run saw (the
// PR's state, draft and head; an open PR from the head when none was found;
// checks finished since), so a change between the two is not missed.
func changedBody(path string, body []byte, st *state.ChipState) bool {
	type restPR struct {
		Number   int     `json:"number"`
		State    string  `json:"state"`
		Draft    bool    `json:"draft"`
		MergedAt *string `json:"merged_at"`
		Head     struct {
			SHA string `json:"sha"`
		} `json:"head"`
	}
	rest := path[strings.Index(path, "/pulls")+1:]
	pendingNow := st.PR != nil && st.PR.Checks == "pending"
	switch {
	case strings.HasSuffix(path, "/check-runs"):
		// Checks running at the full run have all finished since: news.
		type run struct {
			Status string `json:"status"`
		}
		var runs struct {
			Runs []run `json:"check_runs"`
		}
		if json.Unmarshal(body, &runs) != nil {
			return true
		}
		running := slices.ContainsFunc(runs.Runs, func(r run) bool { return r.Status != "completed" })
		return pendingNow && len(runs.Runs) > 0 && !running
	case strings.HasSuffix(path, "/status"):
		var combined struct {
			State string `json:"state"`
			Total int    `json:"total_count"`
		}
		if json.Unmarshal(body, &combined) != nil {
			return true
		}
		// With no statuses GitHub says "pending": nothing to tell.
		return pendingNow && combined.Total > 0 && combined.State != "pending"
	case strings.HasPrefix(rest, "pulls/"):
		var pr restPR
		if json.Unmarshal(body, &pr) != nil || st.PR == nil {
			return true
		}
		s := pr.State
		if s == "closed" && pr.MergedAt != nil {
			s = "merged"
		}
		return s != st.PR.State || pr.Draft != st.PR.Draft || st.PR.HeadOid != "" && pr.Head.SHA != st.PR.HeadOid
	case strings.HasPrefix(rest, "pulls?"):
		var list []restPR
		if json.Unmarshal(body, &list) != nil {
			return true
		}
		// The lookup found none to show: an open PR from the head now is
		// news (merged or closed ones were judged and set aside).
		return st.PR == nil && slices.ContainsFunc(list, func(p restPR) bool { return p.State == "open" })
	}
	return false
}
