package classify

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/chip/pull"
	"github.com/prchip/prchip/internal/sanitize"
)

const (
	headOid  = "1111111111111111111111111111111111111111"
	oldHead  = "2222222222222222222222222222222222222222"
	groupOid = "3333333333333333333333333333333333333333"
)

// queueAnswer is the merge queue query's answer as GitHub gives it.
// before "" answers beforeCommit null; committed zero leaves commits out.
func queueAnswer(entry map[string]any, reason any, removedAt, before string, commitOid string, committed time.Time) []byte {
	node := map[string]any{"mergeQueueEntry": entry}
	nodes := []any{}
	if removedAt != "" {
		var bc any
		if before != "" {
			bc = map[string]any{"oid": before}
		}
		nodes = append(nodes, map[string]any{"createdAt": removedAt, "reason": reason, "beforeCommit": bc})
	}
	node["timelineItems"] = map[string]any{"nodes": nodes}
	if !committed.IsZero() {
		node["commits"] = map[string]any{"nodes": []any{map[string]any{"commit": map[string]any{
			"oid": commitOid, "committedDate": committed.Format(time.RFC3339)}}}}
	}
	b, _ := json.Marshal(map[string]any{"data": map[string]any{"node": node}})
	return b
}

// A removal from the merge queue is read from the same answer as the
// entry, shown only while it applies to the PR's head, with a cause only
// for reason texts that were reviewed.
func TestQueueFrom(t *testing.T) {
	removed := "2026-11-30T10:00:00Z"
	before := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC) // the head was committed before the removal
	after := time.Date(2026, 11, 30, 11, 0, 0, 0, time.UTC) // a push after it
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	removal := func(cause, reason string) *pull.Queue {
		return &pull.Queue{RemovedAt: at, RemovalCause: cause, RemovalReason: reason, RemovalHeadOid: headOid}
	}
	cases := []struct {
		name string
		out  []byte
		head string
		want *pull.Queue
	}{
		{"queued", queueAnswer(map[string]any{"position": 2, "state": "AWAITING_CHECKS"}, nil, "", "", "", time.Time{}), headOid,
			&pull.Queue{Position: 2, State: "awaiting_checks"}},
		{"queued again after a removal", queueAnswer(map[string]any{"position": 1, "state": "QUEUED"}, "failed_checks", removed, headOid, headOid, before), headOid,
			&pull.Queue{Position: 1, State: "queued"}},
		{"never queued", queueAnswer(nil, nil, "", "", headOid, before), headOid, nil},
		{"removed, beforeCommit the head", queueAnswer(nil, "merge_conflict", removed, headOid, headOid, after), headOid, removal("conflict", "merge_conflict")},
		{"removed, head in upper case", queueAnswer(nil, "merge_conflict", removed, strings.ToUpper(headOid), "", time.Time{}), strings.ToUpper(headOid), removal("conflict", "merge_conflict")},
		{"removed after the merge group's checks", queueAnswer(nil, "failed_checks", removed, groupOid, headOid, before), headOid, removal("checks_failed", "failed_checks")},
		{"removed, beforeCommit null", queueAnswer(nil, "manual", removed, "", headOid, before), headOid, removal("manual", "manual")},
		{"a new head pushed after a merge group removal", queueAnswer(nil, "failed_checks", removed, groupOid, headOid, after), headOid, nil},
		{"an older head's removal", queueAnswer(nil, "merge_conflict", removed, oldHead, headOid, after), headOid, nil},
		{"the head moved between the two calls", queueAnswer(nil, "failed_checks", removed, groupOid, oldHead, before), headOid, nil},
		{"no head date", queueAnswer(nil, "failed_checks", removed, groupOid, "", time.Time{}), headOid, nil},
		{"no head from gh pr view", queueAnswer(nil, "merge_conflict", removed, headOid, headOid, before), "", nil},
		{"left the queue by merging", queueAnswer(nil, "merged", removed, headOid, headOid, before), headOid, nil},
		{"merged, webhook spelling", queueAnswer(nil, "MERGE", removed, headOid, headOid, before), headOid, nil},
		{"unknown reason", queueAnswer(nil, "queue_cleared_by_admin", removed, headOid, headOid, before), headOid, removal("unknown", "queue_cleared_by_admin")},
		{"reviewed text in another case", queueAnswer(nil, "Failed_Checks", removed, headOid, headOid, before), headOid, removal("unknown", "Failed_Checks")},
		{"null reason", queueAnswer(nil, nil, removed, headOid, headOid, before), headOid, removal("unknown", "")},
		{"odd time", queueAnswer(nil, "manual", "yesterday", headOid, headOid, before), headOid, nil},
		{"not JSON", []byte("<html>"), headOid, nil},
		{"no node", []byte(`{"data":{"node":null}}`), headOid, nil},
	}
	for _, c := range cases {
		got := QueueFrom(c.out, c.head)
		if g, w := jsonOf(got), jsonOf(c.want); g != w {
			t.Errorf("%s: %s, want %s", c.name, g, w)
		}
	}
}

// Every reason text that was reviewed has its cause; an unreviewed one is
// unknown, never a guess.
func TestQueueRemovalCauses(t *testing.T) {
	for reason, want := range map[string]string{
		"failed_checks": "checks_failed", "CI_FAILURE": "checks_failed",
		"checks_timed_out": "checks_timed_out", "CI_TIMEOUT": "checks_timed_out",
		"merge_conflict": "conflict", "MERGE_CONFLICT": "conflict",
		"manual": "manual", "MANUAL": "manual", "BRANCH_PROTECTIONS": "branch_protection",
		"invalid_merge_commit": "unknown", "git_tree_invalid": "unknown", "QUEUE_CLEARED": "unknown",
		"ROLL_BACK": "unknown", "UNKNOWN_REMOVAL_REASON": "unknown", "checks failed": "unknown", "conflict": "unknown",
	} {
		q := QueueFrom(queueAnswer(nil, reason, "2026-11-30T10:00:00Z", headOid, "", time.Time{}), headOid)
		if q == nil || q.RemovalCause != want || q.RemovalReason != reason {
			t.Errorf("%q: %+v, want cause %s", reason, q, want)
		}
	}
}

// GitHub's reason is provider text: sanitised, tokens redacted, bounded.
func TestQueueRemovalReasonSanitised(t *testing.T) {
	hostile := "\x1b]52;c;aGk=\x07 50% $(id) #(id) `id` \u202e ghp_0123456789abcdefghijklmnopqrstuvwxyzAB " + strings.Repeat("x", 5000)
	q := QueueFrom(queueAnswer(nil, hostile, "2026-11-30T10:00:00Z", headOid, "", time.Time{}), headOid)
	if q == nil || q.RemovalCause != "unknown" {
		t.Fatalf("%+v", q)
	}
	r := q.RemovalReason
	if sanitize.Text(r, 0) != r || len(r) > MaxRemovalReason || strings.Contains(r, "ghp_") || !strings.Contains(r, "$(id)") {
		t.Errorf("reason %.200q (%d bytes)", r, len(r))
	}
}

func jsonOf(q *pull.Queue) string {
	b, _ := json.Marshal(q)
	return string(b)
}
