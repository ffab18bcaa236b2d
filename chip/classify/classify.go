// Package classify turns how gh (or a shell chip) ended into an Outcome:
// a class, a category, a safe detail and recovery actions (SPEC 3).
package classify

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/chip/pull"
	"github.com/prchip/prchip/internal/repo"
	"github.com/prchip/prchip/internal/sanitize"
)

// Class is what a run means for prchip's state (SPEC 3).
type Class string

const (
	Validated     Class = "validated"
	NotApplicable Class = "not_applicable"
	AuthFailure   Class = "auth_failure"
	Retryable     Class = "retryable"
	MissingGh     Class = "missing_gh"
)

// Categories: stable words for scripts and for `status`.
const (
	CatPR             = "pull_request"
	CatNoPR           = "no_pull_request"
	CatOK             = "ok"
	CatNotRepository  = "not_a_repository"
	CatDetachedHead   = "detached_head"
	CatNoGitHubRemote = "no_github_remote"
	CatUnsafe         = "unsafe_repository"
	CatAuthRequired   = "auth_required"
	CatBadCredentials = "bad_credentials"
	CatGhMissing      = "gh_missing"
	CatTimeout        = "timeout"
	CatNetwork        = "network"
	// CatOffline is a network failure before any request reached GitHub
	// (DNS, connection refused, unreachable, a TLS interception such as a
	// captive portal's): it costs GitHub nothing, so it is retried sooner.
	CatOffline       = "offline"
	CatRateLimited   = "rate_limited"
	CatUnavailable   = "github_unavailable"
	CatAccessDenied  = "access_denied"
	CatBadResponse   = "bad_response"
	CatKilled        = "killed"
	CatUnknown       = "unknown"
	CatCommandFailed = "command_failed"
	CatStartFailed   = "start_failed"
)

// Outcome is a classified run, as stored and shown by `status`.
type Outcome struct {
	Class      Class     `json:"class"`
	Category   string    `json:"category"`
	ExitCode   int       `json:"exit_code"`
	TimedOut   bool      `json:"timed_out"`
	Detail     string    `json:"detail"`
	At         time.Time `json:"at"`
	DurationMS int64     `json:"duration_ms"`
	// Recovery lists at most three things the user can do, in order.
	Recovery []string `json:"recovery_actions,omitempty"`
	// RetryAt is a server-given time before which retrying is pointless
	// (rate limit reset), zero when unknown.
	RetryAt time.Time `json:"retry_at,omitzero"`
	// LineStarts are where Detail's lines began in what was printed
	// (sanitize.DetailLines): status shows a multi-line message as lines.
	LineStarts []int `json:"line_starts,omitempty"`
	// PR is set when the run found a pull request.
	PR *PR `json:"pr,omitempty"`
	// Lookup is what was asked of GitHub (SPEC 3 and 6); nil for a run
	// that asked nothing (missing gh, not applicable) and for shell chips.
	Lookup *Lookup `json:"lookup,omitempty"`
	// SetAside are PRs found and not shown, with why.
	SetAside []SetAside `json:"set_aside,omitempty"`
	// Value is a shell chip's sanitized output.
	Value string `json:"value,omitempty"`
}

// PR is the part of `gh pr view --json` the chip shows, sanitized: the
// model's (chip/pull), under the name the classifier's callers know.
type PR = pull.PR

// Lookup is what a refresh asked GitHub: the head ("OWNER:BRANCH" or
// "#N"), the base repository ("OWNER/REPO"), why these (push target,
// upstream, merge ref, set-default, fork parent, rebasing), and the
// questions asked before that found nothing.
type Lookup struct {
	Head  string   `json:"head"`
	Base  string   `json:"base"`
	Why   string   `json:"why"`
	Tried []string `json:"tried"`
	// Exact is the number of the PR only the exact lookup of the head's
	// ref found (a busy head name), asked by number at the next refresh.
	Exact int `json:"exact,omitempty"`
}

// SetAside is a PR found for the branch's head and not shown: a merged
// PR for earlier commits of a reused branch name, and the like.
type SetAside struct {
	Number int    `json:"number"`
	State  string `json:"state"`
	Reason string `json:"reason"`
}

// Bounds of what a lookup records.
const (
	MaxTried    = 8
	MaxSetAside = 4
	MaxOthers   = pull.MaxOthers
)

// NoPROutcome is a lookup that found no PR for the branch (validated: gh
// was reached, or there was nothing to ask), with why in words.
func NoPROutcome(now time.Time, why string) *Outcome {
	return (&Outcome{At: now, ExitCode: -1, Detail: sanitize.Detail(why)}).set(Validated, CatNoPR, "")
}

// PROutcome is a lookup that found pr by other means than gh pr view
// (the exact lookup of the head's ref).
func PROutcome(pr *PR, now time.Time) *Outcome {
	return (&Outcome{At: now, PR: pr}).set(Validated, CatPR, "")
}

// MaxTitle bounds a stored title.
const MaxTitle = pull.MaxTitle

// NotApplicableOutcome is the outcome of a local check that found nothing to
// show; gh is not run for it.
func NotApplicableOutcome(category, detail string, now time.Time) *Outcome {
	return &Outcome{Class: NotApplicable, Category: category, Detail: detail, At: now, ExitCode: -1}
}

// UnsafeOutcome is a repository git refuses (dubious ownership): not
// applicable, with the command that allows it (the path quoted for sh).
func UnsafeOutcome(detail, allow string, now time.Time) *Outcome {
	o := NotApplicableOutcome(CatUnsafe, sanitize.Detail(detail), now)
	o.Recovery = []string{sanitize.Text("git config --global --add safe.directory "+ShellQuote(allow), 4096)}
	return o
}

// ShellQuote quotes s for sh as git's own advice does (sq_quote_buf_pretty):
// letters, digits and +,-./:=@_^ alone stay bare.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+,-./:=@_^") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// MissingGhOutcome is decided before running anything.
func MissingGhOutcome(now time.Time) *Outcome {
	return &Outcome{Class: MissingGh, Category: CatGhMissing, ExitCode: -1, At: now,
		Detail:   "gh was not found on PATH",
		Recovery: []string{"install gh", "prchip refresh"}}
}

// ClassifyPR classifies one `gh pr view` run. The order matters: gh's
// git-context messages come first because one of them mentions
// `gh auth login` without being an auth failure, and the auth rule is kept
// narrow so a flaky network can never suppress the chip.
func ClassifyPR(r proc.Result, now time.Time) *Outcome {
	o := &Outcome{ExitCode: r.ExitCode, TimedOut: r.TimedOut, At: now, DurationMS: r.Duration.Milliseconds()}
	stderr := string(r.Stderr)
	o.Detail, o.LineStarts = sanitize.DetailLines(stderr)
	// all is everything gh printed, for the git-context states (which gh
	// reports through git's own messages); low is what gh says itself, for
	// everything else: git's messages that gh passes through ("failed to
	// run git: ...", and what follows) quote the repository's config values
	// and paths, and are never evidence of auth trouble or rate limits.
	all := strings.ToLower(stderr)
	low := strings.ToLower(ghOwn(stderr))
	statuses := httpStatuses(low)
	switch {
	case r.Overflowed:
		return o.set(Retryable, CatBadResponse, "gh printed more than "+strconv.Itoa(proc.MaxStdout>>20)+" MiB; stopped", "prchip refresh")
	case r.TimedOut:
		return o.set(Retryable, CatTimeout, "gh did not answer within the timeout", "prchip refresh")
	case r.StartErr != nil:
		if errors.Is(r.StartErr, os.ErrNotExist) || errors.Is(r.StartErr, os.ErrPermission) {
			return o.set(MissingGh, CatGhMissing, "gh could not be started: "+sanitize.Detail(r.StartErr.Error()), "install gh", "prchip refresh")
		}
		return o.set(Retryable, CatStartFailed, "gh could not be started: "+sanitize.Detail(r.StartErr.Error()), "prchip refresh")
	case r.Signaled:
		return o.set(Retryable, CatKilled, "gh was killed by a signal", "prchip refresh")
	case r.ExitCode == 0:
		pr, err := ParsePR(r.Stdout)
		if err != nil {
			return o.set(Retryable, CatBadResponse, "gh printed output prchip could not read: "+err.Error(), "prchip refresh")
		}
		o.PR = pr
		return o.set(Validated, CatPR, "")
	}
	// gh reached GitHub, or its setup works, and there is simply no PR.
	if strings.Contains(low, "no pull requests found") {
		return o.set(Validated, CatNoPR, "")
	}
	for _, g := range gitContext {
		if strings.Contains(all, g.marker) {
			return o.set(NotApplicable, g.category, "")
		}
	}
	// Authentication: gh's "not logged in" exit code, HTTP 401, authMarkers.
	if r.ExitCode == 4 || slices.Contains(statuses, 401) || containsAny(low, authMarkers) {
		cat := CatAuthRequired
		if strings.Contains(low, "bad credentials") {
			cat = CatBadCredentials
		}
		return o.set(AuthFailure, cat, "", "gh auth login", "prchip refresh --force")
	}
	// Everything else is retryable; the category only explains.
	switch {
	case strings.Contains(low, "rate limit"), slices.Contains(statuses, 429):
		o.RetryAt = rateLimitReset(stderr, now)
		acts := []string{"prchip refresh"}
		if !o.RetryAt.IsZero() {
			acts = []string{"wait until " + o.RetryAt.Format(time.RFC3339), "prchip refresh"}
		}
		return o.set(Retryable, CatRateLimited, "", acts...)
	case len(statuses) > 0 && statuses[0]/100 == 5, strings.Contains(low, "something went wrong while executing your query"):
		return o.set(Retryable, CatUnavailable, "", "prchip refresh")
	case strings.Contains(low, "saml"), strings.Contains(low, "required scopes"),
		strings.Contains(low, "resource not accessible"), slices.Contains(statuses, 403):
		return o.set(Retryable, CatAccessDenied, "", "gh auth status", "prchip refresh")
	case containsAny(low, offlineMarkers):
		return o.set(Retryable, CatOffline, "", "prchip refresh")
	case containsAny(low, networkMarkers):
		return o.set(Retryable, CatNetwork, "", "prchip refresh")
	case strings.Contains(low, "invalid character"), strings.Contains(low, "unexpected end of json"),
		strings.Contains(low, "cannot unmarshal"):
		return o.set(Retryable, CatBadResponse, "", "prchip refresh")
	}
	if strings.TrimSpace(o.Detail) == "" {
		o.Detail = fmt.Sprintf("gh exited with code %d and said nothing", r.ExitCode)
	}
	return o.set(Retryable, CatUnknown, "", "prchip refresh")
}

// set fills class, category, recovery and (when given) the detail.
func (o *Outcome) set(c Class, cat, detail string, recovery ...string) *Outcome {
	o.Class, o.Category = c, cat
	if detail != "" {
		o.Detail, o.LineStarts = sanitize.Text(detail, sanitize.MaxDetail), nil
	}
	if len(recovery) > 3 {
		recovery = recovery[:3]
	}
	o.Recovery = recovery
	return o
}

// gitContext are the git-context states: nothing to show, and nothing
// wrong with gh.
var gitContext = []struct{ marker, category string }{
	{"not a git repository", CatNotRepository},
	// git's safe.directory refusal, where prchip's own check (Find) let the
	// repository pass: an older or newer git than it follows.
	{"detected dubious ownership", CatUnsafe},
	{"could not determine current branch", CatDetachedHead}, {"not on any branch", CatDetachedHead},
	// "... point to a known GitHub host", "... correspond to the GH_HOST
	// environment variable", across gh versions.
	{"no git remotes found", CatNoGitHubRemote}, {"none of the git remotes", CatNoGitHubRemote},
}

// offlineMarkers are failures to reach GitHub at all: gh's DNS message,
// any dial error (DNS, refused, unreachable, connect timeout), and TLS or
// proxy set-up failures.
var offlineMarkers = []string{
	"error connecting to", "dial tcp", "dial udp", "no such host",
	"temporary failure in name resolution", "server misbehaving",
	"connection refused", "network is unreachable", "host is unreachable",
	"no route to host", "proxyconnect", "tls:", "x509:", "certificate",
}

// authMarkers are HTTP 401 in gh's words (and its account migration's, for
// a stale stored token) and gh's own not-logged-in texts. Nothing else.
var authMarkers = []string{"bad credentials", "status code: 401", "401 unauthorized",
	"requires you to be authenticated", "to get started with github cli", "to use github cli in automation",
	"not logged into any github hosts", "not logged in to any github hosts"}

// networkMarkers are failures after a connection was made, or whose phase
// is unknown.
var networkMarkers = []string{
	"check your internet connection", "connection reset", "i/o timeout",
	"proxy", "timeout awaiting", "context deadline exceeded", "client.timeout",
	"broken pipe", "eof", "http2:",
}

func containsAny(low string, markers []string) bool {
	return slices.ContainsFunc(markers, func(m string) bool { return strings.Contains(low, m) })
}

// httpStatuses lists the codes of gh's "HTTP NNN" prefixes in low.
func httpStatuses(low string) []int {
	var codes []int
	for _, s := range strings.Split(low, "http ")[1:] {
		if len(s) >= 3 && (len(s) == 3 || s[3] < '0' || s[3] > '9') && strings.Trim(s[:3], "0123456789") == "" {
			n, _ := strconv.Atoi(s[:3])
			codes = append(codes, n)
		}
	}
	return codes
}

// ghOwn is stderr up to the first line in which gh passes git's own
// message through.
func ghOwn(stderr string) string {
	if i := strings.Index(strings.ToLower(stderr), "failed to run git:"); i >= 0 {
		return stderr[:i]
	}
	return stderr
}

var resetMarkers = []string{"x-ratelimit-reset", "retry after", "resets at", "reset at", "resets", "reset"}

// rateLimitReset extracts a reset time when gh passed one on ("resets at
// 2026-01-02T03:04:05Z", "x-ratelimit-reset: 1767323045"); at most an hour
// ahead so a bogus value cannot silence the chip for long.
func rateLimitReset(stderr string, now time.Time) time.Time {
	low := strings.ToLower(stderr)
	var t time.Time
	for _, m := range resetMarkers {
		k := strings.Index(low, m)
		if k < 0 {
			continue
		}
		rest := strings.TrimLeft(stderr[k+len(m):], " \t:=")
		if end := strings.IndexAny(rest, " \n),"); end >= 0 {
			rest = rest[:end]
		}
		v := strings.TrimRight(rest, ".;")
		if n, err := strconv.ParseUint(v, 10, 64); err == nil && len(v) >= 9 && len(v) <= 11 {
			t = time.Unix(int64(n), 0)
		} else if p, err := time.Parse(time.RFC3339, v); err == nil {
			t = p
		}
		if !t.IsZero() {
			break
		}
	}
	if t.IsZero() || !t.After(now) {
		return time.Time{}
	}
	if t.After(now.Add(RateLimitMax)) {
		t = now.Add(RateLimitMax)
	}
	return t.UTC()
}

// RateLimitResetFrom reads `gh api rate_limit`'s JSON: when the GraphQL
// budget (what `gh pr view` spends) is used up, the time it is restored,
// at most RateLimitMax ahead; else the zero time.
func RateLimitResetFrom(out []byte, now time.Time) time.Time {
	var rl struct {
		Resources struct {
			GraphQL *struct {
				Remaining *int  `json:"remaining"`
				Reset     int64 `json:"reset"`
			} `json:"graphql"`
		} `json:"resources"`
	}
	if json.Unmarshal(out, &rl) != nil || rl.Resources.GraphQL == nil || rl.Resources.GraphQL.Remaining == nil {
		return time.Time{}
	}
	g := rl.Resources.GraphQL
	t := time.Unix(g.Reset, 0).UTC()
	if *g.Remaining > 0 || !t.After(now) || t.Sub(now) > RateLimitMax {
		return time.Time{}
	}
	return t
}

// RateLimitMax bounds a wait for a rate limit's reset: GitHub's primary
// limits reset hourly, so a later time is bogus.
const RateLimitMax = time.Hour

// ParsePR reads one PR as gh pr view --json prints it, or as a GraphQL
// node with the same field names, sanitized. Stray ESC sequences (a forced
// colour) are removed first so a user's colour settings cannot break it.
func ParsePR(out []byte) (*PR, error) {
	s := strings.TrimSpace(string(out))
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = sanitize.Text(s, 0)
	}
	var raw ghPR
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if raw.Number <= 0 {
		return nil, errors.New("no PR number in gh's JSON")
	}
	pr := &PR{
		Number: raw.Number,
		URL:    sanitize.Text(sanitize.Redact(raw.URL), 512),
		State:  strings.ToLower(sanitize.Text(raw.State, 32)),
		Draft:  raw.IsDraft,
		Title:  sanitize.Text(sanitize.Redact(raw.Title), MaxTitle),
	}
	switch d := strings.ToLower(raw.ReviewDecision); d {
	case "approved", "changes_requested", "review_required":
		pr.Review = d
	}
	pr.MergeState = mergeStates[strings.ToUpper(raw.MergeStateStatus)]
	if len(raw.AutoMergeRequest) > 0 {
		// null: gh asked and auto-merge is off; an object: it is on.
		on := string(raw.AutoMergeRequest) != "null"
		pr.AutoMerge = &on
	}
	if isNodeID(raw.ID) {
		pr.ID = raw.ID
	}
	if repo.IsOid(raw.HeadRefOid) {
		pr.HeadOid = strings.ToLower(raw.HeadRefOid)
	}
	pr.Base = sanitize.Text(raw.BaseRefName, 256)
	if b := raw.BaseRepository; b != nil && b.Owner.Login != "" && b.Name != "" {
		pr.BaseRepo = sanitize.Text(b.Owner.Login+"/"+b.Name, 256)
	}
	if len(raw.Checks) > 0 {
		var checks []ghCheck
		if err := json.Unmarshal(raw.Checks, &checks); err != nil {
			return nil, fmt.Errorf("invalid statusCheckRollup: %w", err)
		}
		summarizeChecks(pr, checks)
	}
	return pr, nil
}

// mergeStates maps GitHub's mergeStateStatus to the words prchip uses.
// UNKNOWN is GitHub still computing (right after a push): kept, so the
// result is checked again soon, and never shown.
var mergeStates = map[string]string{
	"BEHIND": "behind", "BLOCKED": "blocked", "CLEAN": "clean", "DIRTY": "conflicts",
	"DRAFT": "draft", "HAS_HOOKS": "has_hooks", "UNSTABLE": "unstable", "UNKNOWN": "unknown",
}

// isNodeID reports whether s looks like a GraphQL node id ("PR_kwDOABC"),
// which is passed to gh as an argument.
func isNodeID(s string) bool {
	return s != "" && len(s) <= 128 && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-=") == ""
}

// MaxRemovalReason bounds GitHub's reason text for a removal from the
// merge queue (a word in every answer seen; provider text all the same).
const MaxRemovalReason = 128

// removalCauses maps the reason texts of RemovedFromMergeQueueEvent that
// were reviewed to a cause. The GraphQL schema documents reason as a free
// String; the lower-case words are what GitHub's timeline was observed to
// give (failed_checks, checks_timed_out, merge_conflict, manual, merged;
// also invalid_merge_commit and git_tree_invalid, left to unknown), the
// upper-case ones the documented enum of the pull_request "dequeued"
// webhook, which names the same removals. Anything else is unknown:
// prchip never guesses a cause from text it has not read.
var removalCauses = map[string]string{
	"failed_checks": "checks_failed", "CI_FAILURE": "checks_failed",
	"checks_timed_out": "checks_timed_out", "CI_TIMEOUT": "checks_timed_out",
	"merge_conflict": "conflict", "MERGE_CONFLICT": "conflict",
	"manual": "manual", "MANUAL": "manual",
	"BRANCH_PROTECTIONS": "branch_protection",
}

// removalMerged are reasons that say the PR left the queue by merging:
// GitHub removes the entry a moment before the PR reads merged, and that
// is no removal to warn about.
var removalMerged = []string{"merged", "MERGE", "ALREADY_MERGED"}

// QueueFrom reads the merge queue query's answer (chip.queueQuery): the
// entry; or, when the PR is not queued, its last removal from the queue
// while that applies to head (the PR's headRefOid, from gh pr view); nil
// when neither, or the answer is unreadable.
//
// A removal applies to head when its beforeCommit is head, or, since
// beforeCommit is the merge group's commit when the queue's own checks
// failed, when head was committed before the removal: a head committed
// after it is a new push (a fix), and the removal is old news. A head
// whose date the answer does not give (it moved between the two calls)
// shows no removal.
func QueueFrom(out []byte, head string) *pull.Queue {
	var a struct {
		Data struct {
			Node *struct {
				Entry *struct {
					Position int    `json:"position"`
					State    string `json:"state"`
				} `json:"mergeQueueEntry"`
				Timeline struct {
					Nodes []struct {
						CreatedAt    string `json:"createdAt"`
						Reason       string `json:"reason"`
						BeforeCommit *struct {
							Oid string `json:"oid"`
						} `json:"beforeCommit"`
					} `json:"nodes"`
				} `json:"timelineItems"`
				Commits struct {
					Nodes []struct {
						Commit struct {
							Oid           string `json:"oid"`
							CommittedDate string `json:"committedDate"`
						} `json:"commit"`
					} `json:"nodes"`
				} `json:"commits"`
			} `json:"node"`
		} `json:"data"`
	}
	if json.Unmarshal(out, &a) != nil || a.Data.Node == nil {
		return nil
	}
	n := a.Data.Node
	if e := n.Entry; e != nil {
		if e.Position <= 0 {
			return nil
		}
		return &pull.Queue{Position: e.Position, State: strings.ToLower(sanitize.Text(e.State, 32))}
	}
	if len(n.Timeline.Nodes) == 0 || !repo.IsOid(head) {
		return nil
	}
	ev := n.Timeline.Nodes[len(n.Timeline.Nodes)-1]
	at, err := time.Parse(time.RFC3339, ev.CreatedAt)
	if err != nil || at.Year() < 2000 || at.Year() > 9999 {
		return nil
	}
	reason := ev.Reason
	if slices.Contains(removalMerged, reason) {
		return nil
	}
	head = strings.ToLower(head)
	applies := ev.BeforeCommit != nil && strings.EqualFold(ev.BeforeCommit.Oid, head)
	if !applies && len(n.Commits.Nodes) > 0 {
		c := n.Commits.Nodes[len(n.Commits.Nodes)-1].Commit
		committed, err := time.Parse(time.RFC3339, c.CommittedDate)
		applies = err == nil && strings.EqualFold(c.Oid, head) && committed.Before(at)
	}
	if !applies {
		return nil
	}
	return &pull.Queue{RemovedAt: at.UTC(), RemovalCause: cmp.Or(removalCauses[reason], "unknown"),
		RemovalReason: sanitize.Text(sanitize.Redact(reason), MaxRemovalReason), RemovalHeadOid: head}
}

// summarizeChecks fills Checks (failing beats pending beats passing),
// Counts and FailingCheck. gh's statusCheckRollup is the head commit's
// (commits(last: 1)) in both Debian's gh and current ones; a check run
// again on that commit appears once per run, and only its latest run
// counts, as in `gh pr checks`.
func summarizeChecks(pr *PR, checks []ghCheck) {
	pr.Counts = &pull.CheckCounts{}
	latest := make(map[string]int, len(checks))
	for i, c := range checks {
		k := c.key()
		if j, seen := latest[k]; !seen || c.started().After(checks[j].started()) {
			latest[k] = i
		}
	}
	for i, c := range checks {
		if latest[c.key()] != i {
			continue
		}
		switch c.bucket() {
		case "failing":
			pr.Counts.Failing++
			if pr.FailingCheck == "" { // a CheckRun's name, or a StatusContext's context
				pr.FailingCheck = sanitize.Text(sanitize.Redact(cmp.Or(c.Name, c.Context)), 128)
			}
		case "pending":
			pr.Counts.Pending++
		default:
			pr.Counts.Passing++
		}
	}
	switch n := pr.Counts; {
	case n.Failing > 0:
		pr.Checks = "failing"
	case n.Pending > 0:
		pr.Checks = "pending"
	case n.Passing > 0:
		pr.Checks = "passing"
	}
}

// ghPR is what `gh pr view --json` prints, as far as the chip reads it.
// Fields gh was not asked for are absent: RawMessage tells absent (not
// asked) from null (asked, nothing there).
type ghPR struct {
	Number           int             `json:"number"`
	URL              string          `json:"url"`
	State            string          `json:"state"`
	IsDraft          bool            `json:"isDraft"`
	Title            string          `json:"title"`
	ReviewDecision   string          `json:"reviewDecision"`
	MergeStateStatus string          `json:"mergeStateStatus"`
	AutoMergeRequest json.RawMessage `json:"autoMergeRequest"`
	HeadRefOid       string          `json:"headRefOid"`
	BaseRefName      string          `json:"baseRefName"`
	BaseRepository   *struct {
		Name  string `json:"name"`
		Owner struct {
			Login string `json:"login"`
		} `json:"owner"`
	} `json:"baseRepository"`
	ID     string          `json:"id"`
	Checks json.RawMessage `json:"statusCheckRollup"`
}

// ghCheck is one entry of statusCheckRollup: a CheckRun (name,
// workflowName, status, conclusion) or a StatusContext (context, state).
type ghCheck struct {
	Type         string `json:"__typename"`
	Name         string `json:"name"`
	WorkflowName string `json:"workflowName"`
	Context      string `json:"context"`
	Status       string `json:"status"`
	Conclusion   string `json:"conclusion"`
	State        string `json:"state"`
	// StartedAt is kept as text: an odd time must not fail the whole PR.
	StartedAt string `json:"startedAt"`
}

func (c *ghCheck) started() time.Time {
	t, _ := time.Parse(time.RFC3339, c.StartedAt)
	return t
}

// key names a check across its runs on one commit.
func (c *ghCheck) key() string {
	if c.Type == "StatusContext" || c.Context != "" {
		return "s\x00" + c.Context
	}
	return "c\x00" + c.WorkflowName + "\x00" + c.Name
}

// bucket is failing, pending or passing (skipped and neutral checks do
// not hold a merge back).
func (c *ghCheck) bucket() string {
	state := strings.ToUpper(c.State)
	concl := strings.ToUpper(c.Conclusion)
	switch {
	case state == "FAILURE" || state == "ERROR" || concl == "FAILURE" || concl == "TIMED_OUT" ||
		concl == "CANCELLED" || concl == "ACTION_REQUIRED" || concl == "STARTUP_FAILURE":
		return "failing"
	case state == "PENDING" || state == "EXPECTED" ||
		c.Type == "CheckRun" && strings.ToUpper(c.Status) != "COMPLETED":
		return "pending"
	}
	return "passing"
}

// ClassifyShell classifies a shell chip run: success or (retryable) failure.
func ClassifyShell(r proc.Result, now time.Time) *Outcome {
	o := &Outcome{ExitCode: r.ExitCode, TimedOut: r.TimedOut, At: now, DurationMS: r.Duration.Milliseconds()}
	o.Detail, o.LineStarts = sanitize.DetailLines(string(r.Stderr))
	switch {
	case r.TimedOut:
		return o.set(Retryable, CatTimeout, "the command did not finish within the timeout", "prchip refresh")
	case r.StartErr != nil:
		return o.set(Retryable, CatStartFailed, "could not start: "+r.StartErr.Error(), "prchip refresh")
	case r.ExitCode != 0:
		if o.Detail == "" {
			o.Detail = fmt.Sprintf("exited with code %d", r.ExitCode)
		}
		return o.set(Retryable, CatCommandFailed, "", "prchip refresh")
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(r.Stdout)), "\n")
	o.Value = sanitize.Text(sanitize.Redact(line), 256)
	return o.set(Validated, CatOK, "")
}
