package chip

import (
	"fmt"
	"strconv"
	"time"

	"github.com/prchip/prchip/chip/pull"
)

// removalWhy says a removal from the merge queue in words, and what gets
// the PR merged after it: a removal is what a queue's user must act on.
var removalWhy = map[string]struct{ why, todo string }{
	"checks_failed": {"the required checks failed on the queue's merge group",
		"push a fix; if the failure was flaky or came from a PR ahead of it, queue it again as it is: gh pr merge %d"},
	"checks_timed_out": {"the required checks did not finish in time",
		"queue it again: gh pr merge %d (or push a fix if the checks hang)"},
	"conflict": {"it conflicts with the base branch or a PR ahead of it in the queue",
		"merge or rebase onto the base branch and push, then queue it again: gh pr merge %d"},
	"manual": {"someone removed it by hand",
		"queue it again when it is ready: gh pr merge %d"},
	"branch_protection": {"a branch protection rule failed that the queue could not resolve",
		"satisfy the branch's rules (reviews, required checks), then queue it again: gh pr merge %d"},
	"unknown": {"GitHub gave a reason prchip does not know",
		"read the PR's timeline; push a fix, or queue it again: gh pr merge %d"},
}

// queueRemovalLines is the human status of a removal from the merge
// queue: when, why in words and GitHub's own reason (sanitised when it
// was read, quoted here), and what to do; nil when the PR was not removed.
func (p *StatusPR) queueRemovalLines(at func(time.Time) string) []string {
	q := p.Queue
	if !q.Removed() {
		return nil
	}
	cause := pull.KnownCause(q.RemovalCause)
	w := removalWhy[cause]
	first := "removed at " + at(q.RemovedAt) + ": " + w.why
	if q.RemovalReason != "" {
		first += " (GitHub: " + strconv.Quote(q.RemovalReason) + ")"
	}
	return []string{first,
		"for this head (" + q.RemovalHeadOid[:min(len(q.RemovalHeadOid), 12)] + "); a new push clears it, and so does queueing it again",
		"to do: " + fmt.Sprintf(w.todo, p.Number)}
}
