// Package pull is the pull request as prchip keeps and shows it: what the
// classifier makes of gh's answer, what the state stores, and what the
// formatter turns into a chip. Every string in it is sanitised before it
// gets here.
package pull

import (
	"slices"
	"time"
)

// PR is what a chip can show of a pull request, already sanitized.
type PR struct {
	Number int    `json:"number"`
	URL    string `json:"url"`
	State  string `json:"state"`
	Draft  bool   `json:"draft"`
	Title  string `json:"title"`
	// Review is approved, changes_requested or review_required; empty when
	// not asked for or not required.
	Review string `json:"review,omitempty"`
	// Checks summarises the status checks: passing, failing or pending;
	// empty when not asked for or there are none.
	Checks string `json:"checks,omitempty"`
	// MergeState is GitHub's mergeStateStatus in words: behind, blocked,
	// conflicts, unstable, clean, draft, has_hooks, or unknown (GitHub is
	// still computing it, as right after a push: never shown, and checked
	// again soon); empty when not asked for.
	MergeState string `json:"merge_state,omitempty"`
	// AutoMerge is whether auto-merge is enabled; nil when not asked for
	// or the installed gh cannot tell (before 2.29).
	AutoMerge *bool `json:"auto_merge,omitempty"`
	// Counts counts the head commit's checks; nil when not asked for.
	Counts *CheckCounts `json:"checks_counts,omitempty"`
	// FailingCheck is the name of the first failing check.
	FailingCheck string `json:"failing_check,omitempty"`
	// HeadOid is the PR's head commit (headRefOid), asked for when the
	// template shows sync.
	HeadOid string `json:"head_oid,omitempty"`
	// Sync is how the local branch stands against HeadOid: same, ahead,
	// behind, diverged, or not_fetched (the head commit is not in the
	// local repository, so it cannot be told); computed by the refresh
	// when the local branch was at SyncLocal.
	Sync      string `json:"sync,omitempty"`
	SyncLocal string `json:"sync_local,omitempty"`
	// Queue is the PR's merge queue entry; nil when not asked for or not
	// queued.
	Queue *Queue `json:"queue,omitempty"`
	// Base is the branch the PR goes into (baseRefName).
	Base string `json:"base,omitempty"`
	// BaseRepo is OWNER/REPO of the base repository, when the exact
	// lookup said; for the refresh only, never stored.
	BaseRepo string `json:"-"`
	// Others are the numbers of other open PRs from the same head (into
	// other bases): the chip hints at them.
	Others []int `json:"others,omitempty"`
	// Rebasing is set by the render while a rebase of the branch is under
	// way; never stored.
	Rebasing bool `json:"-"`
	// ID is the PR's GraphQL node id, for the merge queue's query right
	// after gh pr view; never stored.
	ID string `json:"-"`
}

// CheckCounts counts checks by bucket, each check once (its latest run).
type CheckCounts struct {
	Passing int `json:"passing"`
	Failing int `json:"failing"`
	Pending int `json:"pending"`
}

// Queue is a merge queue entry: a position (1 is next) and GitHub's state
// in lower case (awaiting_checks, locked, mergeable, queued, unmergeable);
// or, with no position, the PR's last removal from the queue, kept only
// while the PR's head is still the commit that was removed (a new head,
// the PR queued again or merged clears it): GitHub drops the entry
// silently, and the removal is what a user of a merge queue must not miss.
type Queue struct {
	Position int    `json:"position,omitempty"`
	State    string `json:"state,omitempty"`
	// RemovedAt is when GitHub removed the PR from the queue.
	RemovedAt time.Time `json:"removed_at,omitzero"`
	// RemovalCause is one of RemovalCauses: a word prchip chose from a
	// reviewed reason text, never the text itself.
	RemovalCause string `json:"removal_cause,omitempty"`
	// RemovalReason is GitHub's reason text, sanitised and bounded: for
	// status only, never for the chip.
	RemovalReason string `json:"removal_reason,omitempty"`
	// RemovalHeadOid is the PR head the removal applies to.
	RemovalHeadOid string `json:"removal_head_oid,omitempty"`
}

// Removed reports whether q is a removal rather than a queue entry.
func (q *Queue) Removed() bool { return q != nil && q.Position <= 0 && q.RemovalCause != "" }

// RemovalCauses are the causes a removal from the merge queue is shown
// with; unknown is any reason text not reviewed.
var RemovalCauses = []string{"checks_failed", "checks_timed_out", "conflict", "manual", "branch_protection", "unknown"}

// KnownCause is cause when it is one of RemovalCauses, else unknown: a
// planted state file cannot put its own words into the chip.
func KnownCause(cause string) string {
	if slices.Contains(RemovalCauses, cause) {
		return cause
	}
	return "unknown"
}

// CauseWords is a removal cause in words.
func CauseWords(cause string) string { return causeWords[KnownCause(cause)] }

var causeWords = map[string]string{"checks_failed": "checks failed", "checks_timed_out": "checks timed out",
	"conflict": "conflict", "manual": "removed by hand", "branch_protection": "branch protection", "unknown": "unknown reason"}

// MaxOthers bounds the other PRs from one head a PR remembers.
const MaxOthers = 4

// MaxTitle bounds a stored title; the format cuts it further for display.
const MaxTitle = 256
