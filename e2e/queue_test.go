package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

// queueFormat shows the merge queue's fields only.
const queueFormat = "#{number}( {queue})( {queue_state})"

// hostileReason is a removal reason no reviewed text matches, built to
// break whatever shows it: OSC 52, a bell, prompt escapes of every shell,
// command substitutions, and far too long.
var hostileReason = "\x1b]52;c;aGk=\x07 50% %F{red} \\[ $(touch pwned) #(touch pwned) `touch pwned` \u202e " + strings.Repeat("x", 3000)

// A PR thrown out of the merge queue, through the real gh (Debian's and
// a current one) against the fake server taught GitHub's timeline event:
// the removal shows while the head is the one removed; a new head, the PR
// queued again and a merge clear it; an unreviewed reason is unknown; an
// older removal under a newer head never shows; a hostile reason is
// sanitised in status and status --json and never reaches a shell.
func TestQueueRemovalThroughRealGh(t *testing.T) {
	eachGh(t, func(t *testing.T, w *world) {
		head := w.git(w.repo, "rev-parse", "HEAD")
		const group = "3333333333333333333333333333333333333333" // the queue's merge group commit
		const pushed = "4444444444444444444444444444444444444444"
		at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
		earlier, later := at.Add(-time.Hour), at.Add(time.Hour)
		w.config(`format = "` + queueFormat + `"` + "\n")
		show := func(pr fakegithub.PR) string {
			t.Helper()
			pr.Number, pr.Title = 42, "Queue me"
			w.srv.SetPR("feature", pr)
			w.refresh(w.repo, 0)
			return w.run(w.repo, "prompt", "--no-refresh").stdout
		}

		// Removed for a conflict: beforeCommit is the head (whatever the
		// head's date says: a committer's clock is not GitHub's).
		got := show(fakegithub.PR{HeadOid: head, HeadCommitted: later,
			Removal: &fakegithub.QueueRemoval{At: at, Reason: "merge_conflict", BeforeOid: head}})
		if want := "#42 dequeued:conflict dequeued: conflict"; got != want {
			t.Fatalf("removed: %q, want %q", got, want)
		}
		q := w.srv.LastQueryMatching("mergeQueueEntry")
		for _, shape := range []string{"timelineItems(last: 1, itemTypes: [REMOVED_FROM_MERGE_QUEUE_EVENT])",
			"... on RemovedFromMergeQueueEvent { createdAt reason beforeCommit { oid } }", "commits(last: 1) { nodes { commit { oid committedDate } } }"} {
			if !strings.Contains(q, shape) {
				t.Errorf("the queue query lacks %q:\n%s", shape, q)
			}
		}
		if v := w.srv.LastQueryMatching("PullRequestForBranch"); !strings.Contains(v, "headRefOid") {
			t.Errorf("gh pr view was not asked for the head:\n%s", v)
		}
		s := w.status(w.repo)
		pq := queueOf(s)
		if pq["removed_at"] != "2026-11-30T10:00:00Z" || pq["removal_cause"] != "conflict" || pq["removal_reason"] != "merge_conflict" ||
			pq["removal_head_oid"] != head || pq["position"] != nil {
			t.Errorf("status pr.queue %v", pq)
		}
		human := w.run(w.repo, "status").stdout
		for _, want := range []string{"merge queue:", "removed at ", "it conflicts with the base branch", `(GitHub: "merge_conflict")`,
			"to do: merge or rebase onto the base branch and push, then queue it again: gh pr merge 42"} {
			if !strings.Contains(human, want) {
				t.Errorf("status lacks %q:\n%s", want, human)
			}
		}

		// Removed after the queue's own checks failed: beforeCommit is the
		// merge group's commit, and the head was there before the removal.
		removedByChecks := &fakegithub.QueueRemoval{At: at, Reason: "failed_checks", BeforeOid: group}
		if got := show(fakegithub.PR{HeadOid: head, HeadCommitted: earlier, Removal: removedByChecks}); got != "#42 dequeued:checks_failed dequeued: checks failed" {
			t.Errorf("removed by the merge group's checks: %q", got)
		}
		// A fix pushed: a new head, committed after the removal.
		if got := show(fakegithub.PR{HeadOid: pushed, HeadCommitted: later, Removal: removedByChecks}); got != "#42" {
			t.Errorf("after a new head: %q, want the removal cleared", got)
		}
		// An older removal, of the head before, under a newer head.
		if got := show(fakegithub.PR{HeadOid: pushed, HeadCommitted: later,
			Removal: &fakegithub.QueueRemoval{At: at, Reason: "merge_conflict", BeforeOid: head}}); got != "#42" {
			t.Errorf("an older head's removal: %q, want none", got)
		}
		// Queued again: the position, not the removal still in the timeline.
		if got := show(fakegithub.PR{HeadOid: head, HeadCommitted: earlier, Removal: removedByChecks,
			Queue: &fakegithub.QueueEntry{Position: 1, State: "QUEUED"}}); got != "#42 queue:1 queued" {
			t.Errorf("queued again: %q", got)
		}
		// Merged by the queue: the moment before the PR reads merged, and after.
		mergedOut := &fakegithub.QueueRemoval{At: at, Reason: "merged", BeforeOid: head}
		if got := show(fakegithub.PR{HeadOid: head, HeadCommitted: earlier, Removal: mergedOut}); got != "#42" {
			t.Errorf("leaving the queue by merging: %q", got)
		}
		if got := show(fakegithub.PR{State: "MERGED", HeadOid: head, HeadCommitted: earlier, Removal: removedByChecks}); got != "#42 merged" {
			t.Errorf("merged: %q", got)
		}
		// A reason no one reviewed.
		if got := show(fakegithub.PR{HeadOid: head, HeadCommitted: earlier,
			Removal: &fakegithub.QueueRemoval{At: at, Reason: "QUEUE_CLEARED", BeforeOid: head}}); got != "#42 dequeued:unknown dequeued: unknown reason" {
			t.Errorf("unknown reason: %q", got)
		}
		if pq := queueOf(w.status(w.repo)); pq["removal_cause"] != "unknown" || pq["removal_reason"] != "QUEUE_CLEARED" {
			t.Errorf("unknown reason: status pr.queue %v", pq)
		}

		// A hostile reason: every shell's chip, status and status --json.
		show(fakegithub.PR{HeadOid: head, HeadCommitted: earlier, Removal: &fakegithub.QueueRemoval{At: at, Reason: hostileReason, BeforeOid: head}})
		for _, sh := range []string{"zsh", "bash", "fish", "tmux", "plain"} {
			out := w.run(w.repo, "prompt", "--no-refresh", "--shell", sh).stdout
			if !strings.Contains(out, "dequeued:unknown") || strings.ContainsAny(out, "\x07$`") ||
				strings.Contains(out, "]52") || strings.Contains(out, "pwned") || strings.Contains(out, "%F") {
				t.Errorf("%s: %q", sh, out)
			}
		}
		reason, _ := queueOf(w.status(w.repo))["removal_reason"].(string)
		if reason == "" || len(reason) > 128 || strings.ContainsAny(reason, "\x1b\x07\u202e") || !strings.Contains(reason, "$(touch pwned)") {
			t.Errorf("status --json removal_reason %q", reason)
		}
		human = w.run(w.repo, "status").stdout
		if strings.ContainsAny(human, "\x1b\x07\u202e") || strings.Contains(human, strings.Repeat("x", 200)) || !strings.Contains(human, "(GitHub: ") {
			t.Errorf("status with a hostile reason:\n%q", human)
		}
		if _, err := os.Stat(filepath.Join(w.repo, "pwned")); err == nil {
			t.Error("the reason ran")
		}
	})
}

// In real zsh, bash and fish: the removal is in the prompt, and a hostile
// reason runs nothing.
func TestQueueRemovalInShells(t *testing.T) {
	for _, sh := range []string{"zsh", "bash", "fish"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh)
			head := w.git(w.repo, "rev-parse", "HEAD")
			w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "t", HeadOid: head,
				Removal: &fakegithub.QueueRemoval{At: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC), Reason: hostileReason, BeforeOid: head}})
			w.config(`format = "#{number}( {queue})"` + "\ncolor = false\n")
			w.refresh(w.repo, 0)
			script := fmt.Sprintf(shellSetup[sh], prchipBin) + strings.Repeat("sleep 0.2\n", 3) + "echo done\n"
			if sh == "fish" {
				script = fmt.Sprintf(shellSetup[sh], prchipBin) + strings.Repeat("emit fish_prompt; fish_prompt; echo\nsleep 0.2\n", 3) + "echo done\n"
			}
			stdout, stderr := w.interactive(sh, w.repo, script)
			chips := chipsIn(stdout + stderr)
			if len(chips) < 2 || chips[len(chips)-1] != "#42 dequeued:unknown" {
				t.Fatalf("prompts showed %q\nstdout:\n%s\nstderr:\n%s", chips, stdout, stderr)
			}
			if _, err := os.Stat(filepath.Join(w.repo, "pwned")); err == nil {
				t.Error("the reason ran")
			}
		})
	}
}

// queueOf is status --json's pr.queue.
func queueOf(s status) map[string]any {
	p, _ := s.Raw["pr"].(map[string]any)
	q, _ := p["queue"].(map[string]any)
	return q
}
