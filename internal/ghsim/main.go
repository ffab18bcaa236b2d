// Command ghsim counts what a day of typical use costs GitHub, through
// prchip's real engine (Gather, Render, Refresh, Invalidate and the store),
// with a virtual clock and a stand-in for gh (SPEC 9): GraphQL points an
// hour (as GitHub counts them for the queries prchip sends: one point
// each, as none asks for more than 100 connection nodes), REST requests
// an hour (all, and those that count: a 304 does not), gh runs an hour, and
// how late each change on GitHub showed. scripts/bench-github builds it
// against this tree and against an older commit, so the figures come from
// the same scenario.
//
// The day: 10 repositories (six with an open PR, two without, one merged,
// one closed), 8 shells that each prompt every 3 to 8 seconds for 10
// hours and move to another repository every 45 minutes, a command line
// with git before one prompt in 50 and with gh one in 200 (the hooks'
// invalidation), a one-hour network outage (DNS fails) from 12:00, and
// on GitHub: the user's pushes (a git push: a new head, its checks
// starting and finishing minutes later), reviews, title changes and one
// merge by someone else, and the base branch moving. Two templates: the
// default one and a rich one with review, checks, merge state and the
// merge queue.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/prchip/prchip/cache"
	"github.com/prchip/prchip/chip"
	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/internal/config"
	"github.com/prchip/prchip/internal/sanitize"
)

// scenario is the simulated day.
type scenario struct {
	repos, shells        int
	start                time.Time
	hours                int
	outageFrom, outageTo time.Time
	mergeAt              time.Time
	moveEvery            time.Duration
	seed                 uint64
	format               string // "" is the default template
}

// richFormat shows what costs most to keep fresh: review, checks, merge
// state and the merge queue.
const richFormat = "#{number}( {review})( {checks})( {merge_state})( {queue})"

func defaultScenario() scenario {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	return scenario{
		repos: 10, shells: 8, start: start, hours: 10,
		outageFrom: start.Add(3 * time.Hour), outageTo: start.Add(4 * time.Hour),
		mergeAt: start.Add(6 * time.Hour), moveEvery: 45 * time.Minute, seed: 1,
	}
}

// report is what a run counted.
type report struct {
	perHour                   []int // gh runs in each hour of the day
	total                     int
	points, rest, restCounted int
	// backAfter is, over the shells in a repository with an open PR when
	// the outage ended, the longest time until their chip showed again.
	backAfter time.Duration
	// late are how late each event on GitHub showed, by kind, counted
	// from when a shell was there to see it.
	late map[string][]time.Duration
	// commands: command lines with git or gh, and how many of them the
	// next prompt refreshed for (probe or gh pr view) at once.
	commands, atOnce, inBackoff int
}

func main() {
	sc := defaultScenario()
	flag.Uint64Var(&sc.seed, "seed", 1, "random seed of the prompts' timing and the events")
	rich := flag.Bool("rich", false, "the rich template: "+richFormat)
	label := flag.String("label", "", "a name printed with the figures")
	flag.Parse()
	if *rich {
		sc.format = richFormat
	}
	r, err := simulate(sc)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ghsim:", err)
		os.Exit(1)
	}
	r.print(os.Stdout, sc, *label)
}

func (r *report) print(w io.Writer, sc scenario, label string) {
	tmpl := "default template"
	if sc.format != "" {
		tmpl = "rich template"
	}
	fmt.Fprintf(w, "%s, %s: %d repositories, %d shells, %d hours, outage %s-%s, merge at %s\n", label, tmpl, sc.repos, sc.shells,
		sc.hours, sc.outageFrom.Format("15:04"), sc.outageTo.Format("15:04"), sc.mergeAt.Format("15:04"))
	var hours []string
	for h, n := range r.perHour {
		hours = append(hours, fmt.Sprintf("%s %d", sc.start.Add(time.Duration(h)*time.Hour).Format("15h"), n))
	}
	per := func(n int) float64 { return float64(n) / float64(sc.hours) }
	fmt.Fprintf(w, "  gh runs per hour: %s\n", strings.Join(hours, ", "))
	fmt.Fprintf(w, "  per hour: %.0f GraphQL points, %.0f REST requests that count (%.0f sent), %.0f gh runs\n",
		per(r.points), per(r.restCounted), per(r.rest), per(r.total))
	fmt.Fprintf(w, "  chip back after the outage within %s\n", r.backAfter.Round(time.Second))
	fmt.Fprintf(w, "  git/gh command lines: %d; the next prompt refreshed at once after %d (%d were in the outage's backoff)\n",
		r.commands, r.atOnce, r.inBackoff)
	for _, kind := range slices.Sorted(func(yield func(string) bool) {
		for k := range r.late {
			if !yield(k) {
				return
			}
		}
	}) {
		d := r.late[kind]
		slices.Sort(d)
		fmt.Fprintf(w, "  %s shown after: median %s, worst %s (%d events)\n", kind,
			d[len(d)/2].Round(time.Second), d[len(d)-1].Round(time.Second), len(d))
	}
}

// github is the stand-in's view of one repository's PR.
type github struct {
	number       int
	state        string // OPEN, MERGED, CLOSED; "" is no PR
	title        int    // version of the title
	head         string
	review       string
	checks       map[string]string // by head oid: "", "pending", "passing", "failing"
	baseVersion  int               // the base branch moved this often
	mergeUnknown time.Time         // merge state being computed until then
}

func (g *github) mergeState(now time.Time) string {
	switch {
	case now.Before(g.mergeUnknown):
		return "UNKNOWN"
	case g.baseVersion%2 == 1:
		return "BEHIND"
	}
	return "CLEAN"
}

// event is a change on GitHub, and how a stored result shows it.
type event struct {
	at    time.Time
	repo  int
	kind  string
	apply func(now time.Time)
	shows func(pr *prView) bool
	// hidden: the template does not show it (it may still change
	// GitHub's answer, and so cost a refresh).
	hidden bool
	// push: the user's own git push, from a shell in the repository.
	push bool
	// seeFrom is when a shell in the repository first could see it.
	seeFrom time.Time
}

// prView is what the stored result says, for the events' checks.
type prView struct{ state, title, head, review, checks, merge string }

// simulate runs the day in a temporary home.
func simulate(sc scenario) (*report, error) {
	home, err := os.MkdirTemp(shmOrTemp(), "ghsim-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(home)
	bin := filepath.Join(home, "bin")
	os.MkdirAll(bin, 0o755)
	// gh must be on PATH to be chosen; it is never run (Engine.Run is).
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		return nil, err
	}
	for k, v := range map[string]string{"HOME": home, "PATH": bin, "GH_TOKEN": "sim", "GH_HOST": "",
		"GH_CONFIG_DIR": filepath.Join(home, "gh"), "GIT_CONFIG_NOSYSTEM": "1", "GH_REPO": ""} {
		os.Setenv(k, v)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		git = "/usr/bin/git"
	}
	runGit := func(dir string, args ...string) (string, error) {
		c := exec.Command(git, append([]string{"-c", "user.name=sim", "-c", "user.email=sim@example.com"}, args...)...)
		c.Dir = dir
		out, err := c.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("git %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out)), nil
	}
	repos := make([]string, sc.repos)
	gh := make([]*github, sc.repos)
	for i := range repos {
		repos[i] = filepath.Join(home, "src", fmt.Sprintf("r%d", i))
		os.MkdirAll(repos[i], 0o755)
		// A branch pushed with -u: its upstream is the head prchip asks for.
		for _, args := range [][]string{{"init", "-q", "-b", "feature"},
			{"remote", "add", "origin", fmt.Sprintf("https://github.com/octo/r%d.git", i)},
			{"config", "branch.feature.remote", "origin"}, {"config", "branch.feature.merge", "refs/heads/feature"},
			{"commit", "-q", "--allow-empty", "-m", "work"}} {
			if _, err := runGit(repos[i], args...); err != nil {
				return nil, err
			}
		}
		head, err := runGit(repos[i], "rev-parse", "HEAD")
		if err != nil {
			return nil, err
		}
		g := &github{number: 10 + i, state: "OPEN", head: head, review: "REVIEW_REQUIRED", checks: map[string]string{head: "passing"}}
		switch i {
		case 6, 7:
			g.state = ""
		case 8:
			g.state = "MERGED"
		case 9:
			g.state = "CLOSED"
		}
		gh[i] = g
	}
	now := sc.start
	rep := &report{perHour: make([]int, sc.hours), late: map[string][]time.Duration{}}
	offline := func() bool { return !now.Before(sc.outageFrom) && now.Before(sc.outageTo) }
	stand := func(_ context.Context, c proc.Command) proc.Result {
		if h := int(now.Sub(sc.start) / time.Hour); h >= 0 && h < sc.hours {
			rep.perHour[h]++
		}
		rep.total++
		args := strings.Join(c.Args, " ")
		i := indexOf(repos, c.Dir)
		switch {
		case len(c.Args) > 0 && c.Args[0] == "--version":
			return proc.Result{Stdout: []byte("gh version 2.60.0 (sim)\n")}
		case offline():
			return proc.Result{ExitCode: 1, Stderr: []byte("error connecting to api.github.com\ncheck your internet connection or https://githubstatus.com\n")}
		case strings.HasPrefix(args, "api rate_limit"):
			return proc.Result{Stdout: []byte(`{"resources":{"graphql":{"remaining":4000,"reset":0}}}`)}
		case strings.HasPrefix(args, "api graphql"):
			rep.points++
			if strings.Contains(args, "isFork") {
				// The lookup asks once per repository whether it is a fork.
				return proc.Result{Stdout: []byte(`{"data":{"repository":{"isFork":false,"parent":null}}}`)}
			}
			// The merge queue: not queued, never removed.
			return proc.Result{Stdout: []byte(`{"data":{"node":{"mergeQueueEntry":null,"timelineItems":{"nodes":[]},"commits":{"nodes":[]}}}}`)}
		case strings.HasPrefix(args, "api "):
			return gh[i].probe(c.Args, now, rep)
		case strings.HasPrefix(args, "pr view"):
			rep.points++
			return gh[i].view(i, now)
		}
		return proc.Result{ExitCode: 1, Stderr: []byte("unknown command\n")}
	}
	store := &cache.Store{Path: filepath.Join(home, "state", "prchip", "state")}
	cfg := config.Defaults(filepath.Join(home, "config.toml"))
	cfg.Format = sc.format
	rnd := rand.New(rand.NewPCG(sc.seed, 2))
	engine := func(dir string) *chip.Engine {
		return &chip.Engine{Dir: dir, Store: store, Config: cfg, Now: func() time.Time { return now },
			Rand: rnd.Float64, Run: stand}
	}
	events, err := dayEvents(sc, rand.New(rand.NewPCG(sc.seed, 3)), gh, repos, runGit)
	if err != nil {
		return nil, err
	}
	type shell struct {
		repo    int
		next    time.Time
		command string // a command line run before the next prompt
	}
	shells := make([]*shell, sc.shells)
	for i := range shells {
		shells[i] = &shell{repo: i % sc.repos, next: sc.start.Add(time.Duration(rnd.IntN(5000)) * time.Millisecond)}
	}
	end := sc.start.Add(time.Duration(sc.hours) * time.Hour)
	waiting := map[int]bool{} // shells in an open-PR repository when the outage ended
	var pending []*event      // events that happened and have not shown
	lastPrompt := map[int]time.Time{}
	for {
		// The next prompt of any shell.
		s := shells[0]
		for _, x := range shells[1:] {
			if x.next.Before(s.next) {
				s = x
			}
		}
		if !s.next.Before(end) {
			break
		}
		now = s.next
		for len(events) > 0 && !events[0].at.After(now) {
			ev := events[0]
			events = events[1:]
			at := now
			now = ev.at
			ev.apply(now)
			now = at
			if ev.push {
				// Pushed from a shell there: its next command line ran git.
				for j, x := range shells {
					if (j+int(ev.at.Sub(sc.start)/sc.moveEvery))%sc.repos == ev.repo {
						x.command = "git"
						break
					}
				}
			}
			if !ev.hidden {
				pending = append(pending, ev)
			}
		}
		k := indexOf(shells, s)
		s.repo = (k + int(now.Sub(sc.start)/sc.moveEvery)) % sc.repos
		e := engine(repos[s.repo])
		f := e.Gather()
		command := s.command
		s.command = ""
		switch n := rnd.IntN(200); {
		case n < 4:
			command = "git"
		case n == 4:
			command = "gh"
		}
		// The hooks' invalidation after a command line: a probe at once
		// after git, a full refresh after gh.
		if command == "git" {
			e.InvalidateProbe(f, "")
		} else if command == "gh" {
			e.Invalidate(f, "")
		}
		v := chip.LoadView(store, f.Key)
		text, refresh := e.Render(f, &v, sanitize.Plain)
		before := rep.total
		if refresh {
			// One refresh per repository at a time: it ends before the
			// next prompt here.
			e.Refresh(context.Background(), f, chip.RefreshOptions{})
			v = chip.LoadView(store, f.Key)
			text, _ = e.Render(f, &v, sanitize.Plain)
		}
		if command != "" {
			rep.commands++
			switch {
			case rep.total > before:
				rep.atOnce++
			case !now.Before(sc.outageFrom) && now.Before(sc.outageTo.Add(2*time.Minute)):
				rep.inBackoff++
			}
		}
		// Which events has this repository's stored result shown?
		var view *prView
		if st := v.Repo.Chip("feature", "", f.Setup.Auth, "pr"); st != nil && st.PR != nil {
			p := st.PR
			view = &prView{state: strings.ToUpper(p.State), title: p.Title, head: p.HeadOid, review: p.Review, checks: p.Checks, merge: p.MergeState}
		}
		kept := pending[:0]
		for _, ev := range pending {
			if ev.repo != s.repo {
				kept = append(kept, ev)
				continue
			}
			if now.Sub(lastPrompt[s.repo]) > time.Minute {
				// Nobody looked for a while: counted again from now.
				ev.seeFrom = time.Time{}
			}
			if !now.Before(sc.outageFrom) && now.Before(sc.outageTo) {
				// Not through the outage (the chip's return is counted
				// apart).
				ev.seeFrom = time.Time{}
				kept = append(kept, ev)
				continue
			}
			if ev.seeFrom.IsZero() {
				// Counted from when a shell was there to see it.
				ev.seeFrom = now
			}
			if view != nil && ev.shows(view) {
				rep.late[ev.kind] = append(rep.late[ev.kind], now.Sub(ev.seeFrom))
				continue
			}
			kept = append(kept, ev)
		}
		pending = kept
		lastPrompt[s.repo] = now
		if !now.Before(sc.outageTo) {
			open := gh[s.repo].state == "OPEN"
			if _, seen := waiting[k]; !seen {
				waiting[k] = open
			}
			if waiting[k] && text != "" {
				rep.backAfter = max(rep.backAfter, now.Sub(sc.outageTo))
				waiting[k] = false
			}
		}
		s.next = now.Add(3*time.Second + time.Duration(rnd.IntN(5000))*time.Millisecond)
	}
	return rep, nil
}

// dayEvents are the day's changes on GitHub, in time order: per open PR a
// push by the user every 40 to 120 minutes (a new head; its checks start
// at once and pass or fail 5 to 15 minutes later; the merge state is
// being computed for 10 s), a review now and then, a title changed by
// someone else twice a day, the base branch moving every 30 to 90
// minutes; and the merge by someone else at mergeAt.
func dayEvents(sc scenario, rnd *rand.Rand, gh []*github, repos []string, runGit func(string, ...string) (string, error)) ([]*event, error) {
	var evs []*event
	end := sc.start.Add(time.Duration(sc.hours) * time.Hour)
	add := func(ev *event) { evs = append(evs, ev) }
	for i, g := range gh {
		if g.state != "OPEN" {
			continue
		}
		i, g := i, g
		for t := sc.start.Add(time.Duration(40+rnd.IntN(80)) * time.Minute); t.Before(end); t = t.Add(time.Duration(40+rnd.IntN(80)) * time.Minute) {
			if i == 0 && !t.Before(sc.mergeAt.Add(-30*time.Minute)) {
				break // the PR about to be merged gets no more pushes
			}
			finish := t.Add(time.Duration(5+rnd.IntN(10)) * time.Minute)
			fails := rnd.IntN(4) == 0
			var oid string
			add(&event{at: t, repo: i, kind: "push (git push)", push: true, apply: func(now time.Time) {
				// The user's own work: a commit pushed from the shell.
				if _, err := runGit(repos[i], "commit", "-q", "--allow-empty", "-m", "more"); err == nil {
					oid, _ = runGit(repos[i], "rev-parse", "HEAD")
				}
				g.head = oid
				g.checks[oid] = "pending"
				g.mergeUnknown = now.Add(10 * time.Second)
			}, shows: func(p *prView) bool { return p.head == oid }})
			verdict := "passing"
			if fails {
				verdict = "failing"
			}
			add(&event{at: finish, repo: i, kind: "checks finished", hidden: sc.format == "", apply: func(time.Time) {
				if g.checks[oid] == "pending" {
					g.checks[oid] = verdict
				}
			}, shows: func(p *prView) bool { return g.state != "OPEN" || p.head != oid || p.checks == verdict }})
		}
		for t := sc.start.Add(time.Duration(30+rnd.IntN(60)) * time.Minute); t.Before(end); t = t.Add(time.Duration(30+rnd.IntN(60)) * time.Minute) {
			add(&event{at: t, repo: i, kind: "base branch moved", hidden: sc.format == "", apply: func(time.Time) { g.baseVersion++ },
				shows: func(p *prView) bool {
					if g.state != "OPEN" {
						return true // merged meanwhile: no merge state to show
					}
					want := "behind"
					if g.baseVersion%2 == 0 {
						want = "clean"
					}
					return p.merge == want || p.merge == "unknown"
				}})
		}
		for n := range 2 {
			t := sc.start.Add(time.Duration(60+rnd.IntN(sc.hours*60-90)) * time.Minute)
			review := []string{"APPROVED", "CHANGES_REQUESTED"}[n]
			add(&event{at: t, repo: i, kind: "review", hidden: sc.format == "", apply: func(time.Time) { g.review = review },
				shows: func(p *prView) bool { return p.review == strings.ToLower(review) || g.review != review }})
			t = sc.start.Add(time.Duration(60+rnd.IntN(sc.hours*60-90)) * time.Minute)
			var version int
			add(&event{at: t, repo: i, kind: "title changed by someone else", apply: func(time.Time) { g.title++; version = g.title },
				shows: func(p *prView) bool { return p.title >= fmt.Sprintf("t%03d", version) }})
		}
	}
	add(&event{at: sc.mergeAt, repo: 0, kind: "merged by someone else", apply: func(time.Time) { gh[0].state = "MERGED" },
		shows: func(p *prView) bool { return p.state == "MERGED" }})
	slices.SortStableFunc(evs, func(a, b *event) int { return a.at.Compare(b.at) })
	return evs, nil
}

// view is `gh pr view`'s answer (every field either template asks).
func (g *github) view(i int, now time.Time) proc.Result {
	if g.state == "" {
		return proc.Result{ExitCode: 1, Stderr: []byte("no pull requests found for branch \"feature\"\n")}
	}
	var checks []map[string]string
	switch g.checks[g.head] {
	case "pending":
		checks = []map[string]string{{"__typename": "CheckRun", "name": "ci", "status": "IN_PROGRESS"}}
	case "passing":
		checks = []map[string]string{{"__typename": "CheckRun", "name": "ci", "status": "COMPLETED", "conclusion": "SUCCESS"}}
	case "failing":
		checks = []map[string]string{{"__typename": "CheckRun", "name": "ci", "status": "COMPLETED", "conclusion": "FAILURE"}}
	}
	out, _ := json.Marshal(map[string]any{"number": g.number, "title": fmt.Sprintf("t%03d", g.title), "state": g.state,
		"isDraft": false, "url": fmt.Sprintf("https://github.com/octo/r%d/pull/%d", i, g.number), "headRefOid": g.head,
		"baseRefName": "main", "reviewDecision": g.review, "statusCheckRollup": checks, "mergeStateStatus": g.mergeState(now),
		"id": fmt.Sprintf("PR_kwDOsim%d", g.number), "autoMergeRequest": nil})
	return proc.Result{Stdout: out}
}

// probe is `gh api -i [-H If-None-Match: E] PATH`'s answer: an ETag that
// changes when GitHub's answer would (the PR's: state, title, head,
// review; not the base branch moving, which GitHub's PR answer need not
// show: the base branch's ref does), 304 to the current one (exit 1, as
// gh does), else 200.
func (g *github) probe(args []string, now time.Time, rep *report) proc.Result {
	path, inm := args[len(args)-1], ""
	for i, a := range args {
		if a == "-H" && i+1 < len(args) {
			if v, ok := strings.CutPrefix(args[i+1], "If-None-Match: "); ok {
				inm = v
			}
		}
	}
	rep.rest++
	var body string
	switch {
	case strings.Contains(path, "/check-runs"):
		status := "completed"
		if g.checks[strings.Split(path, "/")[4]] == "pending" {
			status = "in_progress"
		}
		body = fmt.Sprintf(`{"total_count":1,"check_runs":[{"name":"ci","status":%q}]}`, status)
	case strings.Contains(path, "/status"):
		body = `{"state":"pending","total_count":0,"statuses":[]}` // checks only, no statuses
	case strings.Contains(path, "/git/ref/"):
		body = fmt.Sprintf("%s %d", path, g.baseVersion)
	case strings.Contains(path, "pulls?"):
		if g.state != "" {
			body = fmt.Sprintf("[%d %s]", g.number, g.state)
		}
	default:
		if g.state == "" {
			rep.restCounted++
			return proc.Result{ExitCode: 1, Stdout: []byte("HTTP/2.0 404 Not Found\r\n\r\n{}"), Stderr: []byte("gh: Not Found (HTTP 404)\n")}
		}
		state := map[string]string{"OPEN": "open", "MERGED": "closed", "CLOSED": "closed"}[g.state]
		merged := "null"
		if g.state == "MERGED" {
			merged = `"2026-12-01T15:00:00Z"`
		}
		body = fmt.Sprintf(`{"number":%d,"state":%q,"title":"t%03d","draft":false,"merged_at":%s,"head":{"sha":%q},"review":%q}`,
			g.number, state, g.title, merged, g.head, g.review)
	}
	sum := sha256.Sum256([]byte(body))
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	if inm == etag {
		return proc.Result{ExitCode: 1, Stdout: []byte("HTTP/2.0 304 Not Modified\r\nEtag: " + etag + "\r\n\r\n"), Stderr: []byte("gh: HTTP 304\n")}
	}
	rep.restCounted++
	return proc.Result{Stdout: []byte("HTTP/2.0 200 OK\r\nEtag: " + etag + "\r\nContent-Type: application/json\r\n\r\n" + body)}
}

func indexOf[T comparable](list []T, s T) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// shmOrTemp is a memory-backed directory when there is one: the store
// syncs every write.
func shmOrTemp() string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		return "/dev/shm"
	}
	return os.TempDir()
}
