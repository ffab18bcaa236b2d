package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/internal/fakegithub"
)

// fieldsFormat shows every field #18 added.
const fieldsFormat = "#{number}( {merge_state})( {auto_merge})( {checks_counts})( {failing_check})( {sync})( {queue} {queue_state})"

// The merge state, auto-merge, the head commit's checks, sync with the
// local branch and the merge queue, through the real gh, Debian's (2.23,
// which knows no autoMergeRequest: never a failing refresh for it) and a
// current one.
func TestMergeFieldsThroughRealGh(t *testing.T) {
	eachGh(t, func(t *testing.T, w *world) {
		current := strings.HasSuffix(w.ghPath, "gh-current")
		log := w.recordGh()
		head := w.git(w.repo, "rev-parse", "HEAD")
		t0 := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
		pr := fakegithub.PR{Number: 42, Title: "Merge me", MergeState: "DIRTY", AutoMerge: true, HeadOid: head,
			CommitChecks: map[string][]fakegithub.Check{
				head: {
					{Name: "build", Workflow: "ci", Status: "COMPLETED", Conclusion: "SUCCESS", Started: t0},
					// test failed, was run again and failed again; lint runs.
					{Name: "test", Workflow: "ci", Status: "COMPLETED", Conclusion: "FAILURE", Started: t0},
					{Name: "test", Workflow: "ci", Status: "COMPLETED", Conclusion: "FAILURE", Started: t0.Add(time.Minute)},
					{Name: "lint", Workflow: "ci", Status: "IN_PROGRESS", Started: t0},
					{Context: "deploy/preview", State: "SUCCESS", Started: t0},
				},
				// An older commit's checks never count.
				"0000000000000000000000000000000000000001": {{Name: "old", Status: "COMPLETED", Conclusion: "FAILURE"}},
			},
			Queue: &fakegithub.QueueEntry{Position: 3, State: "AWAITING_CHECKS"}}
		w.srv.SetPR("feature", pr)
		w.config(`format = "` + fieldsFormat + `"` + "\n")
		w.refresh(w.repo, 0)
		auto := ""
		if current {
			auto = " auto"
		}
		want := "#42 conflicts" + auto + " ok2 fail1 ...1 test same queue:3 awaiting checks"
		if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != want {
			t.Fatalf("chip %q, want %q\ngh runs:\n%s", got, want, ghRuns(log))
		}
		for _, f := range []string{"mergeStateStatus", "headRefOid", "statusCheckRollup"} {
			if !strings.Contains(w.srv.LastQueryMatching("PullRequestForBranch"), f) {
				t.Errorf("gh was not asked for %s", f)
			}
		}
		if q := w.srv.LastQuery(); !strings.Contains(q, "mergeQueueEntry") {
			t.Errorf("the merge queue was not asked for last: %s", q)
		}
		// status --json: every key of SPEC 6's pr.
		s := w.status(w.repo)
		p, _ := s.Raw["pr"].(map[string]any)
		for _, k := range []string{"number", "url", "state", "draft", "title", "merge_state", "auto_merge", "checks_counts", "failing_check", "sync", "head_oid"} {
			if _, ok := p[k]; !ok {
				t.Errorf("status pr lacks %q: %v", k, p)
			}
		}
		counts, _ := json.Marshal(p["checks_counts"])
		if p["merge_state"] != "conflicts" || string(counts) != `{"failing":1,"passing":2,"pending":1}` ||
			p["failing_check"] != "test" || p["sync"] != "same" || p["head_oid"] != head {
			t.Errorf("status pr %v", p)
		}
		if current && p["auto_merge"] != true || !current && p["auto_merge"] != nil {
			t.Errorf("auto_merge %v with %s", p["auto_merge"], w.ghPath)
		}
		if s.class() != "validated" {
			t.Fatalf("outcome %s/%s", s.class(), s.category())
		}
		// Debian's gh refused autoMergeRequest once (asked while its version
		// was unknown) and is never asked for it again.
		w.refresh(w.repo, 0)
		runs := strings.Split(strings.TrimSpace(ghRuns(log)), "\n")
		var views []string
		for _, r := range runs {
			if strings.Contains(r, " pr view ") {
				views = append(views, r)
			}
		}
		last := views[len(views)-1]
		if strings.Contains(last, "autoMergeRequest") != current {
			t.Errorf("the second refresh with %s asked: %s", w.ghPath, last)
		}
		if !current && len(views) != 3 {
			t.Errorf("gh 2.23 ran pr view %d times, want 3 (refused, retried, then asked right):\n%s", len(views), ghRuns(log))
		}
		// The default template asks for none of it (but the head commit,
		// which the lookup's history check always needs: SPEC 3), and
		// makes one request.
		w.config("")
		before := w.prRequests()
		w.refresh(w.repo, 0)
		if q := w.srv.LastQuery(); w.prRequests() != before+1 || strings.Contains(q, "mergeStateStatus") ||
			strings.Contains(q, "autoMergeRequest") || strings.Contains(q, "statusCheckRollup") || !strings.Contains(q, "headRefOid") {
			t.Errorf("the default template: %d requests, the last\n%s", w.prRequests()-before, q)
		}
	})
}

// After a push: the PR's head is a new commit, whose checks have not
// started, and whose merge state GitHub is still computing. The chip
// shows no merge state (and is checked again within seconds) and none of
// the old commit's checks. Then the local branch is behind (the commit
// fetched, the branch not moved), and, after a local commit made outside
// the shell's hooks, the prompt alone brings sync up to date without
// asking GitHub.
func TestSyncAndHeadChecksThroughRealGh(t *testing.T) {
	eachGh(t, func(t *testing.T, w *world) {
		old := w.git(w.repo, "rev-parse", "HEAD")
		w.git(w.repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "pushed")
		pushed := w.git(w.repo, "rev-parse", "HEAD")
		w.git(w.repo, "reset", "-q", "--hard", old)
		w.srv.SetPR("feature", fakegithub.PR{Number: 7, Title: "t", MergeState: "UNKNOWN", HeadOid: "ab" + strings.Repeat("0", 38),
			CommitChecks: map[string][]fakegithub.Check{old: {{Name: "old", Status: "COMPLETED", Conclusion: "FAILURE"}}}})
		w.config(`format = "` + fieldsFormat + `"` + "\n")
		w.refresh(w.repo, 0)
		if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != "#7 not fetched" {
			t.Fatalf("head not fetched: %q", got)
		}
		s := w.status(w.repo)
		if p := s.Raw["pr"].(map[string]any); p["merge_state"] != "unknown" || p["failing_check"] != nil {
			t.Errorf("status pr %v", p)
		}
		if s.NextAttemptAt == nil || s.NextAttemptAt.After(time.Now().Add(6*time.Second)) {
			t.Errorf("an unknown merge state is checked again at %v, want within seconds", s.NextAttemptAt)
		}
		// GitHub has computed it; the branch has the PR's head fetched.
		w.srv.SetPR("feature", fakegithub.PR{Number: 7, Title: "t", MergeState: "BEHIND", HeadOid: pushed})
		w.refresh(w.repo, 0)
		if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != "#7 behind behind" {
			t.Fatalf("behind: %q", got)
		}
		// Two local commits on top of the PR's head, outside the hooks.
		w.git(w.repo, "reset", "-q", "--hard", pushed)
		requests := w.prRequests()
		w.run(w.repo, "prompt") // sees the branch moved, refreshes in the background
		w.settle()
		if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != "#7 behind same" {
			t.Fatalf("same: %q", got)
		}
		w.git(w.repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "local")
		if got := w.run(w.repo, "prompt").stdout; got != "#7 behind" {
			t.Fatalf("right after a local commit: %q, want sync hidden until checked", got)
		}
		w.settle()
		if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != "#7 behind ahead" {
			t.Fatalf("ahead: %q", got)
		}
		if w.prRequests() != requests {
			t.Errorf("re-checking sync asked GitHub %d times", w.prRequests()-requests)
		}
		// Diverged: the PR has a commit the branch does not, and the other way round.
		w.git(w.repo, "checkout", "-q", "-b", "elsewhere", old)
		w.git(w.repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "theirs")
		theirs := w.git(w.repo, "rev-parse", "HEAD")
		w.git(w.repo, "checkout", "-q", "feature")
		w.srv.SetPR("feature", fakegithub.PR{Number: 7, Title: "t", MergeState: "CLEAN", HeadOid: theirs})
		w.refresh(w.repo, 0)
		if got := w.run(w.repo, "prompt", "--no-refresh").stdout; got != "#7 clean diverged" {
			t.Fatalf("diverged: %q", got)
		}
	})
}

// In real shells, through the worker and its answer cache: a commit the
// hooks do not see (made by a script, an editor) changes sync at the next
// prompts, from same to ahead, with no request to GitHub.
func TestSyncInShells(t *testing.T) {
	for _, sh := range []string{"zsh", "bash"} {
		t.Run(sh, func(t *testing.T) {
			w := shellWorld(t, sh)
			w.srv.SetPR("feature", fakegithub.PR{Number: 42, Title: "t", HeadOid: w.git(w.repo, "rev-parse", "HEAD")})
			w.config(`format = "#{number}( {sync})"` + "\n")
			w.refresh(w.repo, 0)
			script := fmt.Sprintf(shellSetup[sh], prchipBin) + strings.Repeat("sleep 0.2\n", 5) +
				"sh -c 'git -c user.name=t -c user.email=t@example.com commit -q --allow-empty -m local'\n" +
				strings.Repeat("sleep 0.3\n", 8) + "echo done\n"
			stdout, stderr := w.interactive(sh, w.repo, script)
			chips := chipsIn(stdout + stderr)
			if len(chips) < 4 || chips[1] != "#42 same" || chips[len(chips)-1] != "#42 ahead" {
				t.Fatalf("prompts showed %q\nstdout:\n%s\nstderr:\n%s", chips, stdout, stderr)
			}
			w.settle()
			if n := w.prRequests(); n != 1 {
				t.Errorf("server saw %d requests, want the first refresh's only", n)
			}
		})
	}
}
