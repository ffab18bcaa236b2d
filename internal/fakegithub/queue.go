package fakegithub

import (
	"net/http"
	"strings"
	"time"
)

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

// answerQueue answers the merge queue query (a node by id) as GitHub
// does: the entry of the PR with that node id, and what else the query
// asks for, in GitHub's shape: the last removal from the queue
// (timelineItems with itemTypes REMOVED_FROM_MERGE_QUEUE_EVENT; nodes
// without the RemovedFromMergeQueueEvent fragment are empty objects) and
// the head commit (commits(last: 1)).
func (s *Server) answerQueue(w http.ResponseWriter, q gqlRequest) {
	id, _ := q.Variables["id"].(string)
	node := map[string]any{}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, pr := range s.prs {
		if nodeID(pr.Number) != id {
			continue
		}
		var entry any
		if pr.Queue != nil {
			entry = map[string]any{"position": pr.Queue.Position, "state": pr.Queue.State}
		}
		node["mergeQueueEntry"] = entry
		if strings.Contains(q.Query, "timelineItems") {
			nodes := []any{}
			if r := pr.Removal; r != nil && strings.Contains(q.Query, "REMOVED_FROM_MERGE_QUEUE_EVENT") {
				ev := map[string]any{}
				if strings.Contains(q.Query, "... on RemovedFromMergeQueueEvent") {
					var before any
					if r.BeforeOid != "" {
						before = map[string]any{"oid": r.BeforeOid}
					}
					ev = map[string]any{"createdAt": r.At.UTC().Format(time.RFC3339), "reason": r.Reason, "beforeCommit": before}
				}
				nodes = append(nodes, ev)
			}
			node["timelineItems"] = map[string]any{"nodes": nodes}
		}
		if strings.Contains(q.Query, "commits(last: 1)") {
			committed := pr.HeadCommitted
			if committed.IsZero() {
				committed = DefaultHeadCommitted
			}
			node["commits"] = map[string]any{"nodes": []any{map[string]any{"commit": map[string]any{
				"oid": pr.HeadOid, "committedDate": committed.UTC().Format(time.RFC3339)}}}}
		}
	}
	if len(node) == 0 {
		node["mergeQueueEntry"] = nil
	}
	writeJSON(w, 200, map[string]any{"data": map[string]any{"node": node}})
}
