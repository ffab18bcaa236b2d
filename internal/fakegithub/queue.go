package fakegithub

import "time"

// QueueRemoval is a RemovedFromMergeQueueEvent: when, GitHub's reason
// text, and beforeCommit's oid ("" answers null).
type QueueRemoval struct {
	At        time.Time
	Reason    string
	BeforeOid string
}

// DefaultHeadCommitted is the head commit's committedDate when a PR sets
// none: before any removal a test makes on 2026-11-30.
var DefaultHeadCommitted = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// queueNodes are a PR's merge queue facts in GitHub's shape, for node():
// the last removal from the queue (timelineItems with itemTypes
// REMOVED_FROM_MERGE_QUEUE_EVENT: the fake's timeline holds no other
// event) and the head commit (commits(last: 1)).
func queueNodes(p resolved) (timeline, commits map[string]any) {
	events := []any{}
	if r := p.Removal; r != nil {
		var before any
		if r.BeforeOid != "" {
			before = map[string]any{"oid": r.BeforeOid}
		}
		events = append(events, map[string]any{"__typename": "RemovedFromMergeQueueEvent",
			"createdAt": r.At.UTC().Format(time.RFC3339), "reason": r.Reason, "beforeCommit": before})
	}
	committed := p.HeadCommitted
	if committed.IsZero() {
		committed = DefaultHeadCommitted
	}
	return map[string]any{"nodes": events}, map[string]any{"nodes": []any{map[string]any{"commit": map[string]any{
		"oid": p.HeadOid, "committedDate": committed.UTC().Format(time.RFC3339)}}}}
}
