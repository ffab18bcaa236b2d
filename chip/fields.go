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

// ghFieldSince is the first gh release that knows each --json field prchip
// may ask for that Debian's gh 2.23 lacks (`gh pr view --json` with no
// field lists what a gh knows; autoMergeRequest came with cli/cli#7384).
var ghFieldSince = []struct{ field, version string }{
	{"autoMergeRequest", "2.29.0"},
}

// baseFields are asked of every gh pr view run, whatever the templates
// show (SPEC 3): the head commit, to check the PR against the local
// history, and the base, to choose between two open PRs from one head.
var baseFields = []string{"number", "url", "state", "isDraft", "title", "headRefOid", "baseRefName"}

// prFields is the --json field list for this run: what the templates show,
// less what the installed gh is known not to know, by its version (once
// learned) or because it refused the field before.
func (e *Engine) prFields(f *Facts, g *state.Global) []string {
	fields := strings.Split(format.GhFields(e.formats()), ",")
	version := ""
	if g.GhVersionOf == f.Setup.GhIdentity {
		version = g.GhVersion
	}
	return slices.DeleteFunc(fields, func(field string) bool {
		if g.GhLacksOf == f.Setup.GhIdentity && slices.Contains(g.GhLacks, field) {
			return true
		}
		for _, s := range ghFieldSince {
			if s.field == field && versionBefore(version, s.version) {
				return true
			}
		}
		return false
	})
}

// versionBefore reports whether version v ("2.23.0") is known to come
// before min; an unknown or odd version is not (the field is asked, and a
// refusal is caught: refusedFields).
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

// refusedFields reads gh's refusal of a --json field ("Unknown JSON field:
// \"x\"", then "Available fields:" and one per line, in every gh from
// 2.0 to today): the fields asked that gh does not list. nil when stderr
// is no such refusal. gh names only the first unknown field; the list
// gives all of them at once, so one retry is enough. A refusal without a
// readable list gives every field beyond the base ones.
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
// question of the lookup (SPEC 3). An installed gh that refuses a field
// (older than the table knows, or built differently) is asked once more
// without the fields it refused, so an unknown field never turns into a
// failing refresh; refused says which, for the caller to remember.
func (e *Engine) runGhPR(ctx context.Context, f *Facts, p state.Policy, fields []string, a ask) (r proc.Result, refused []string) {
	sel := a.label()
	if a.Number > 0 {
		sel = strconv.Itoa(a.Number)
	}
	run := func(fields []string) proc.Result {
		// "--" ends the options: a branch named "-R" is a selector.
		return e.gh(ctx, f, p.Timeout, "pr", "view", "-R", a.Base.arg(), "--json", strings.Join(fields, ","), "--", sel)
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

// syncMoved reports whether the branch's commit is no longer the one
// st's sync was computed at: sync is then not shown, and a refresh
// computes it again (without asking GitHub while the result is fresh).
// It reads the branch's ref only when a template shows sync and a sync is
// stored.
func (e *Engine) syncMoved(f *Facts, st *state.ChipState) bool {
	if st == nil || st.PR == nil || st.PR.Sync == "" || !format.ShowsSync(e.formats()) {
		return false
	}
	cur := f.Repo.BranchOid()
	return cur != "" && cur != st.PR.SyncLocal
}

// queueQuery asks for a pull request's merge queue entry by node id: gh
// pr view has no field for it (cli/cli#12771), so it is one more GraphQL
// call, made only when a template shows the queue. The same call asks for
// the PR's last removal from the queue (GitHub drops the entry without a
// word; the timeline keeps why) and the head commit's oid and date, which
// tie the removal to the head (classify.QueueFrom): beforeCommit is the
// merge group's commit when the queue's own checks failed, not the head.
const queueQuery = `query($id: ID!) { node(id: $id) { ... on PullRequest { mergeQueueEntry { position state } ` +
	`timelineItems(last: 1, itemTypes: [REMOVED_FROM_MERGE_QUEUE_EVENT]) { nodes { ... on RemovedFromMergeQueueEvent { createdAt reason beforeCommit { oid } } } } ` +
	`commits(last: 1) { nodes { commit { oid committedDate } } } } } }`

// addQueue looks up an open PR's merge queue entry, or its last removal
// from the queue. A failure (an older GitHub Enterprise without merge
// queues, say) leaves the queue unknown; it never fails the refresh.
func (e *Engine) addQueue(ctx context.Context, f *Facts, p state.Policy, pr *pull.PR) {
	if pr == nil || pr.ID == "" || pr.State != "open" {
		return
	}
	if r := e.graphql(ctx, f, p, f.Remote.Host, queueQuery, "id="+pr.ID); r.ExitCode == 0 {
		pr.Queue = classify.QueueFrom(r.Stdout, pr.HeadOid)
	}
}
