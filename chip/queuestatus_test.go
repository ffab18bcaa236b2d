package chip

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/chip/pull"
)

// status says when a PR was removed from the merge queue, why in words
// (and GitHub's own reason, quoted), and what to do, for every cause;
// --json has the removal under pr.queue.
func TestStatusShowsQueueRemoval(t *testing.T) {
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	todo := map[string]string{
		"checks_failed":     "push a fix; if the failure was flaky",
		"checks_timed_out":  "queue it again: gh pr merge 8",
		"conflict":          "merge or rebase onto the base branch and push, then queue it again: gh pr merge 8",
		"manual":            "queue it again when it is ready: gh pr merge 8",
		"branch_protection": "satisfy the branch's rules",
		"unknown":           "read the PR's timeline",
	}
	for _, cause := range pull.RemovalCauses {
		q := &pull.Queue{RemovedAt: at, RemovalCause: cause, RemovalReason: "50% $(id) \"x\"", RemovalHeadOid: strings.Repeat("ab", 20)}
		s := &Status{Dir: "/d", Now: at.Add(3 * time.Minute), PR: &StatusPR{Number: 8, Title: "t", State: "open", Queue: q}}
		var b strings.Builder
		s.WriteHuman(&b)
		out := b.String()
		for _, want := range []string{"merge queue:", "removed at " + at.Local().Format(time.DateTime) + " (3 min ago)", removalWhy[cause].why,
			`(GitHub: "50% $(id) \"x\"")`, "for this head (abababababab)", "to do: " + todo[cause]} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: status lacks %q:\n%s", cause, want, out)
			}
		}
		if strings.Contains(out, "merge queue position") {
			t.Errorf("%s: a removal shown as a queue position:\n%s", cause, out)
		}
		j, _ := json.Marshal(s)
		var raw struct {
			PR struct {
				Queue map[string]any `json:"queue"`
			} `json:"pr"`
		}
		json.Unmarshal(j, &raw)
		want := map[string]any{"removed_at": "2026-11-30T10:00:00Z", "removal_cause": cause, "removal_reason": `50% $(id) "x"`,
			"removal_head_oid": strings.Repeat("ab", 20)}
		if g, w := jsonText(raw.PR.Queue), jsonText(want); g != w {
			t.Errorf("%s: pr.queue %s, want %s", cause, g, w)
		}
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
