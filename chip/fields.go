package chip

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/chip/format"
	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/chip/pull"
	"github.com/prchip/prchip/chip/state"
)

// ghFieldSince is the first gh release that knows each --json field
// Debian's gh 2.23 lacks (autoMergeRequest came with cli/cli#7384).
var ghFieldSince = map[string]string{"autoMergeRequest": "2.29.0"}

// baseFields are asked of every gh pr view run, whatever the templates
// show (SPEC 3): the head commit, to check the PR against the local
// history, and the base, to choose between two open PRs from one head.
var baseFields = []string{"number", "url", "state", "isDraft", "title", "headRefOid", "baseRefName"}

// prFields is the --json fields for this run: what the templates show,
// less what the installed gh is known to lack (by its version, or having
// refused the field before).
func (e *Engine) prFields(f *Facts, g *state.Global) []string {
	fields := strings.Split(format.GhFields(e.formats()), ",")
	version := ""
	if g.GhVersionOf == f.Setup.GhIdentity {
		version = g.GhVersion
	}
	return slices.DeleteFunc(fields, func(field string) bool {
		since, known := ghFieldSince[field]
		return known && versionBefore(version, since) || g.GhLacksOf == f.Setup.GhIdentity && slices.Contains(g.GhLacks, field)
	})
}

// versionBefore: version v ("2.23.0") is known to come before min; an odd
// one is not (the field is asked; refusedFields catches a refusal).
func versionBefore(v, min string) bool {
	parts := func(v string) (out []int) {
		v = strings.TrimPrefix(v, "v")
		if i := strings.IndexAny(v, "-+ "); i >= 0 {
			v = v[:i]
		}
		for _, p := range strings.Split(v, ".") {
			n, err := strconv.Atoi(p)
			if err != nil || n < 0 {
				return nil
			}
			out = append(out, n)
		}
		return out
	}
	a, b := parts(v), parts(min)
	return len(a) >= 2 && len(b) >= 2 && slices.Compare(a, b) < 0
}

// refusedFields reads gh's refusal of a --json field ("Unknown JSON field",
// then "Available fields:", one per line, in every gh since 2.0): the
// fields asked that gh does not list (all at once, so one retry is
// enough), every one beyond the base ones without a readable list; nil for
// no such refusal.
func refusedFields(stderr []byte, asked []string) []string {
	i := bytes.Index(stderr, []byte("Unknown JSON field"))
	if i < 0 {
		return nil
	}
	rest := stderr[i:]
	_, list, _ := bytes.Cut(rest, []byte("Available fields:"))
	known := strings.Fields(string(list))
	var refused []string
	for _, f := range asked {
		if !slices.Contains(baseFields, f) && (len(known) == 0 || !slices.Contains(known, f)) {
			refused = append(refused, f)
		}
	}
	return refused
}

// runGhPR runs `gh pr view SELECTOR -R BASE --json fields` for one
// question of the lookup (SPEC 3). A gh that refuses a field is asked
// again without them, so an unknown field never fails a refresh; refused
// says which, for the caller to remember.
func (e *Engine) runGhPR(ctx context.Context, f *Facts, p state.Policy, fields []string, a ask) (r proc.Result, refused []string) {
	sel := a.label()
	if a.Number > 0 {
		sel = strconv.Itoa(a.Number)
	}
	run := func(fields []string) proc.Result {
		// -R HOST/OWNER/REPO: that host whatever GH_HOST says; "--" ends
		// the options, so a branch named "-R" is a selector.
		return e.gh(ctx, f, p.Timeout, "pr", "view", "-R", a.Base.Host+"/"+a.Base.nwo(), "--json", strings.Join(fields, ","), "--", sel)
	}
	r = run(fields)
	if r.ExitCode == 0 || r.TimedOut {
		return r, nil
	}
	if refused = refusedFields(r.Stderr, fields); len(refused) == 0 {
		return r, nil
	}
	fields = slices.DeleteFunc(slices.Clone(fields), func(f string) bool { return slices.Contains(refused, f) })
	return run(fields), refused
}

// formats is every configured template, one after another: what gh is
// asked for follows from them.
func (e *Engine) formats() string {
	all := e.Config.Format
	if all == "" {
		p, _ := format.Preset(e.Config.Preset)
		all = p.Format
	}
	for _, ov := range e.Config.Shells {
		if ov.Format != nil {
			all += *ov.Format
		}
	}
	return all
}

// syncMoved: the branch's commit is no longer the one st's sync was
// computed at, so sync is not shown until a refresh computes it again
// (without asking GitHub while fresh). The ref is read only when a
// template shows sync and one is stored.
func (e *Engine) syncMoved(f *Facts, st *state.ChipState) bool {
	if st == nil || st.PR == nil || st.PR.Sync == "" || !format.ShowsSync(e.formats()) {
		return false
	}
	cur := f.Repo.BranchOid()
	return cur != "" && cur != st.PR.SyncLocal
}

// queueQuery asks for a PR's merge queue entry by node id (gh pr view has
// no field for it: cli/cli#12771), only when a template shows the queue;
// and its last removal from the queue (GitHub drops the entry without a
// word; the timeline keeps why) with the head commit's oid and date, which
// tie the removal to the head (classify.QueueFrom; beforeCommit is the
// merge group's commit, not the head).
const queueQuery = `query($id: ID!) { node(id: $id) { ... on PullRequest { mergeQueueEntry { position state } ` +
	`timelineItems(last: 1, itemTypes: [REMOVED_FROM_MERGE_QUEUE_EVENT]) { nodes { ... on RemovedFromMergeQueueEvent { createdAt reason beforeCommit { oid } } } } ` +
	`commits(last: 1) { nodes { commit { oid committedDate } } } } } }`

// addQueue looks up an open PR's merge queue entry or last removal; a
// failure (a GitHub Enterprise without merge queues) leaves it unknown.
func (e *Engine) addQueue(ctx context.Context, f *Facts, p state.Policy, pr *pull.PR) {
	if pr == nil || pr.ID == "" || pr.State != "open" {
		return
	}
	if r := e.graphql(ctx, f, p, f.Remote.Host, queueQuery, "id="+pr.ID); r.ExitCode == 0 {
		pr.Queue = classify.QueueFrom(r.Stdout, pr.HeadOid)
	}
}
