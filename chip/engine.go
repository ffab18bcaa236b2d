package chip

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prchip/prchip/cache"
	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/chip/format"
	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/chip/pull"
	"github.com/prchip/prchip/chip/state"
	"github.com/prchip/prchip/ghauth"
	"github.com/prchip/prchip/internal/config"
	"github.com/prchip/prchip/internal/env"
	"github.com/prchip/prchip/internal/repo"
	"github.com/prchip/prchip/internal/sanitize"
)

// Engine decides, renders and refreshes chips. Its dependencies are
// fields, so tests can swap them.
type Engine struct {
	Dir    string
	Store  *cache.Store
	Config *config.Config
	Now    func() time.Time
	Rand   func() float64
	Run    func(context.Context, proc.Command) proc.Result // runs gh, sh; nil is proc.Run
	// Env is the environment the facts are read in and gh and shell chips
	// run in: the process's, or a worker request's.
	Env env.Env
}

func (e *Engine) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	// UTC: stored times then end in "Z", and reading them back on the
	// render path never loads the local time zone (a time with the local
	// offset makes time.Parse read /etc/localtime).
	return time.Now().UTC()
}

// Time is the env's clock, for callers outside the package.
func (e *Engine) Time() time.Time { return e.now() }

// Facts are the local facts a decision is built from; gathering them
// starts no process.
type Facts struct {
	Dir    string
	Repo   *repo.Info
	Remote repo.Remote
	Setup  *ghauth.Setup
	NA     *classify.Outcome // not applicable: the PR chip has nothing to show here
	Key    string            // the repository in the store ("" outside one)
	// Target is GH_REPO's repository when it points gh elsewhere: results
	// are kept apart from those for the remotes' repository.
	Target string
}

// Gather is Gather in e's directory, time and environment, so a command
// reads its facts in the environment its children get.
func (e *Engine) Gather() *Facts { return Gather(e.Dir, e.now(), e.Env) }

// Gather reads repository facts and gh's setup for dir, starting no
// process.
func Gather(dir string, now time.Time, e env.Env) *Facts {
	f := &Facts{Dir: dir, Setup: ghauth.ReadSetup(e)}
	na := func(category, detail string) *Facts {
		f.NA = classify.NotApplicableOutcome(category, detail, now)
		return f
	}
	var err error
	if f.Repo, err = repo.Find(dir, e); err != nil {
		var unsafe *repo.UnsafeError
		if errors.As(err, &unsafe) {
			// git refuses it, so gh would fail: nothing is run there.
			f.NA = classify.UnsafeOutcome(unsafe.Error()+": git refuses it, so gh is not run", unsafe.Allow, now)
			return f
		}
		detail := sanitize.Detail(err.Error())
		if !errors.Is(err, repo.ErrNotRepository) {
			detail = "repository unreadable: " + detail
		}
		return na(classify.CatNotRepository, detail)
	}
	f.Key = RepoKey(f.Repo.Root)
	if f.Repo.Env != nil {
		// GIT_DIR or GIT_WORK_TREE chose the repository: its records are
		// its own, never those of the work tree's usual one.
		f.Key = ghauth.Digest("repo", f.Repo.Root, "git-dir", f.Repo.GitDir)
	}
	if f.Repo.Detached {
		return na(classify.CatDetachedHead, "HEAD is detached: no branch, no pull request")
	}
	// gh looks up the branch's PR in GH_REPO's repository when it is set.
	if r, set, ok := f.Setup.GhRepo(); set {
		if !ok {
			return na(classify.CatNoGitHubRemote, "GH_REPO is not [HOST/]OWNER/REPO on a GitHub host known to gh")
		}
		f.Remote, f.Target = r, r.URL
		return f
	}
	r, ok := f.Setup.GitHubRemote(f.Repo)
	switch {
	case ok:
		f.Remote = r
		return f
	case len(f.Repo.Remotes) > 0:
		return na(classify.CatNoGitHubRemote, "no remote points at a GitHub host known to gh")
	}
	return na(classify.CatNoGitHubRemote, "no git remotes")
}

// Environ is env for a command run in the repository, GIT_DIR and
// GIT_WORK_TREE made absolute: its git finds this same repository.
func (f *Facts) Environ(env []string) []string {
	if f.Repo == nil || f.Repo.Env == nil {
		return env
	}
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return k == "GIT_DIR" || k == "GIT_WORK_TREE"
	})
	return append(out, f.Repo.Env...)
}

// RepoKey is the store key of a repository root.
func RepoKey(root string) string { return ghauth.Digest("repo", root) }

// PRFingerprint digests everything that decides a PR chip run's result.
func (f *Facts) PRFingerprint(invalidations int) string {
	if f.Repo == nil {
		return ""
	}
	return ghauth.Digest("pr", f.Repo.Root, f.Repo.Branch, f.Remote.URL,
		f.Setup.GhIdentity, f.Setup.Auth, f.Repo.LookupID, strconv.Itoa(invalidations))
}

// View is the stored state that concerns one repository.
type View struct {
	Global  state.Global
	Repo    state.RepoState
	Problem error
}

// LoadView reads the global and this repository's records only.
func LoadView(store *cache.Store, key string) View {
	var v View
	g, r, p := store.ReadRepo(key)
	if p != nil { // a nil *cache.Problem is no error
		v.Problem = p
	}
	var err error
	if len(g) > 0 {
		if v.Global, err = state.DecodeGlobal(g); err != nil {
			v.Problem = fmt.Errorf("state file %s: global record unreadable: %w", store.Path, err)
		}
	}
	if len(r) > 0 {
		if v.Repo, err = state.DecodeRepoState(r); err != nil {
			v.Problem = fmt.Errorf("state file %s: repository record unreadable: %w", store.Path, err)
		}
	}
	return v
}

// chipEntry is one chip to consider, with what Decide needs of it now.
type chipEntry struct {
	state.DecideInput
	Shell *config.ShellChip // nil for the PR chip
}

// Policies lists the chips of a configuration in render order.
func Policies(cfg *config.Config) []state.Policy {
	ps := []state.Policy{{Name: "pr", Kind: state.KindPR, Timeout: cfg.Timeout,
		RefreshInterval: cfg.RefreshInterval, SettledInterval: cfg.SettledRefreshInterval}}
	for _, ch := range cfg.Chips {
		ps = append(ps, state.Policy{Name: ch.Name, Kind: state.KindShell, Timeout: ch.Timeout,
			RefreshInterval: ch.RefreshInterval, SuppressOnFailure: ch.SuppressOnFailure})
	}
	return ps
}

// RunBudget is the longest a refresh of a chip of policy p can take: a
// shell chip runs once; the PR chip a probe, `gh pr view` twice (refused
// fields), the merge queue call, `gh --version` or rate_limit (2 s each)
// and a second more. A lookup that asks more ends as a recorded timeout.
func RunBudget(p state.Policy) time.Duration {
	if p.Kind == state.KindPR {
		return 4*p.Timeout + 2*2*time.Second + 5*time.Second
	}
	return p.Timeout + time.Second
}

// entries lists the chips to consider at f, in Policies' order.
func (e *Engine) entries(f *Facts, v *View, now time.Time) []chipEntry {
	if f.Repo == nil {
		return nil
	}
	var out []chipEntry
	for i, p := range Policies(e.Config) {
		st := v.Repo.Chip(f.Repo.Branch, f.Target, f.Setup.Auth, p.Name)
		ce := chipEntry{DecideInput: state.DecideInput{Policy: p, Mode: e.Config.Mode, State: st, Now: now,
			NoProbes:   st != nil && st.Probe != nil && v.Global.FallenBack(st.Probe.Host, now),
			Validation: v.Global.Effective(f.Setup.Identity())}}
		switch {
		case i > 0:
			ce.Shell = &e.Config.Chips[i-1]
			ce.Fingerprint = ghauth.Digest("shell", ce.Shell.Name, ce.Shell.Command, f.Repo.Root, f.Repo.Branch, strconv.Itoa(v.Repo.Invalidations))
		case f.NA != nil:
			continue
		default:
			// What the templates need of the installed gh: a stored
			// result must hold it to be fresh.
			ce.Fingerprint, ce.Fields = f.PRFingerprint(v.Repo.Invalidations), e.prFields(f, &v.Global)
		}
		out = append(out, ce)
	}
	return out
}

// Render computes the chip, sanitized and escaped (and coloured) for shell,
// and whether a background refresh is due. It reads, never writes.
func (e *Engine) Render(f *Facts, v *View, shell sanitize.Shell) (text string, refresh bool) {
	var parts []string
	var opts *format.Options
	for _, ce := range e.entries(f, v, e.now()) {
		refresh = refresh || state.Decide(ce.DecideInput).Run
		if !shows(ce.DecideInput) {
			continue
		}
		st := ce.State
		if ce.Policy.Kind == state.KindPR {
			if opts == nil {
				o := e.Config.ChipOptions(string(shell), f.Remote.Host, e.Env.NoColor())
				o.Shell = shell
				opts = &o
			}
			pr := *st.PR // a copy on the stack: the stored record stays as read
			if e.syncMoved(f, st) {
				// The branch moved since sync was computed: not shown
				// until a refresh computes it again.
				pr.Sync, refresh = "", true
			}
			pr.Rebasing = f.Repo.Rebasing
			parts = append(parts, format.Chip(&pr, st.Stale, opts))
		} else if st.Value != "" {
			parts = append(parts, sanitize.ForShell(sanitize.Text(st.Value, 256), shell))
		}
	}
	return strings.Join(parts, " "), refresh
}

// StableUntil is when time alone could change what Render decides at f:
// the earliest moment a chip's freshness or backoff runs out. It is now
// when a refresh is due already, and the zero time when no chip waits for
// a moment (suppressed, failure cached, mode off, not applicable).
func (e *Engine) StableUntil(f *Facts, v *View) time.Time {
	now := e.now()
	var until time.Time
	for _, ce := range e.entries(f, v, now) {
		if state.Decide(ce.DecideInput).Run || ce.Policy.Kind == state.KindPR && shows(ce.DecideInput) && e.syncMoved(f, ce.State) {
			return now
		}
		if t := state.NextAttemptAt(ce.DecideInput); !t.IsZero() && (until.IsZero() || t.Before(until)) {
			until = t
		}
	}
	return until
}

// shows says whether the chip of in has something to show now: not with
// mode off or a failure cached, nor the PR chip while suppressed in auto.
func shows(in state.DecideInput) bool {
	st := in.State
	if st == nil || in.Mode == config.ModeOff || st.FailureCached(in.Fingerprint) {
		return false
	}
	if in.Policy.Kind == state.KindPR {
		return st.PR != nil && !(in.Mode == config.ModeAuto && in.Validation == state.Suppressed)
	}
	return st.Value != ""
}

// RefreshResult is the outcome of one chip in a refresh.
type RefreshResult struct {
	Name     string
	Outcome  *classify.Outcome
	Skipped  string // Decide's reason when not run
	Previous *classify.Outcome
}

// RefreshOptions select the refresh flavour.
type RefreshOptions struct {
	Foreground bool
	Force      bool
}

// Refresh decides and runs every chip of the repository at f and records
// the outcomes under the store lock; the caller holds the refresh lock.
func (e *Engine) Refresh(ctx context.Context, f *Facts, opt RefreshOptions) ([]RefreshResult, error) {
	if f.Repo == nil {
		return []RefreshResult{{Name: "pr", Outcome: f.NA}}, nil
	}
	v := LoadView(e.Store, f.Key)
	now := e.now()
	var results []RefreshResult
	var runs []pending
	// resync: the branch moved since a PR chip not run computed its sync.
	var resync *pull.PR
	mem := &lookupMemory{Parents: v.Repo.Parents}
	if f.NA != nil {
		results = append(results, RefreshResult{Name: "pr", Outcome: f.NA})
	}
	for _, ce := range e.entries(f, &v, now) {
		ce.Foreground, ce.Force = opt.Foreground, opt.Force
		d := state.Decide(ce.DecideInput)
		if !d.Run {
			var prev *classify.Outcome
			if ce.State != nil {
				prev = ce.State.Outcome
			}
			if ce.Policy.Kind == state.KindPR && e.syncMoved(f, ce.State) {
				resync = &pull.PR{HeadOid: ce.State.PR.HeadOid}
				e.addSync(ctx, f, resync)
			}
			results = append(results, RefreshResult{Name: ce.Policy.Name, Skipped: d.Reason, Previous: prev})
			continue
		}
		// The whole run within RunBudget: a slow lookup ends as a recorded
		// timeout, not at the refresh's hard stop with nothing recorded.
		cctx, cancel := context.WithTimeout(ctx, RunBudget(ce.Policy))
		p, res := e.runChip(cctx, f, ce, d.Probe, &v.Global, mem)
		cancel()
		runs, results = append(runs, p), append(results, res)
	}
	if len(runs) == 0 && resync == nil {
		return results, nil
	}
	// Learn gh's version once per gh binary, after a PR run that showed
	// gh works (a hanging gh is not asked again).
	ghVersion, askedVersion := "", f.Setup.GhPath != "" && v.Global.GhVersionOf != f.Setup.GhIdentity &&
		slices.ContainsFunc(runs, func(p pending) bool {
			return p.ce.Policy.Kind == state.KindPR && p.o != nil && p.o.Class == classify.Validated
		})
	if askedVersion {
		ghVersion = e.ghVersion(ctx, f)
	}
	err := e.updateRepo(f, func(tx *cache.Tx, rs *state.RepoState) error {
		g, _ := state.DecodeGlobal(tx.Global)
		// Invalidations may have happened while gh ran: the outcome
		// belongs to the fingerprint it ran under, which then no longer
		// matches, and the next render refreshes again. It is recorded for
		// the branch it ran for, which may no longer be checked out.
		for _, p := range runs {
			st := rs.PutChip(f.Repo.Branch, f.Target, f.Setup.Auth, p.ce.Policy.Name)
			if p.o == nil {
				// A probe that saw no change: the result stands. Only
				// onto the probe it asked (a full run may have ended
				// meanwhile and set new targets).
				if st.Probe != nil && st.Fingerprint == p.ce.Fingerprint {
					state.ApplyProbe(state.ApplyProbeInput{State: st, Targets: p.probe.Targets, Answer: p.probe.Answer, Now: e.now()})
				}
				continue
			}
			if p.probe.Answer == state.ProbeIgnored && st.Probe != nil {
				// The host ignores conditional requests: plain
				// refreshes there, and status says so.
				g.FallBack(st.Probe.Host, e.now())
			}
			state.Apply(state.ApplyInput{Policy: p.ce.Policy, Global: &g, State: st, Outcome: p.o,
				KeepOnRetryable: e.Config.OnRetryable == "keep", Fields: p.ce.Fields,
				Fingerprint: p.ce.Fingerprint, SetupID: f.Setup.Identity(),
				Now: e.now(), Rand: e.Rand})
			if p.ce.Policy.Kind == state.KindPR {
				state.SetProbe(st, p.plan.Host, p.plan.Paths, p.probe.Targets, p.probe.Answer, e.now())
			}
			if len(p.refused) > 0 {
				if g.GhLacksOf != f.Setup.GhIdentity {
					g.GhLacks = nil
				}
				for _, r := range p.refused {
					if !slices.Contains(g.GhLacks, r) && len(g.GhLacks) < state.MaxGhLacks {
						g.GhLacks = append(g.GhLacks, r)
					}
				}
				g.GhLacksOf = f.Setup.GhIdentity
			}
		}
		if mem.changed {
			rs.Parents = state.KeepParents(rs.Parents, mem.Parents)
		}
		if resync != nil {
			// Only onto the same PR head it was computed for: a run that
			// ended meanwhile has recorded its own.
			if st := rs.ExactChip(f.Repo.Branch, f.Target, f.Setup.Auth, "pr"); st != nil && st.PR != nil && st.PR.HeadOid == resync.HeadOid {
				st.PR.Sync, st.PR.SyncLocal = resync.Sync, resync.SyncLocal
			}
		}
		if askedVersion {
			g.GhVersion, g.GhVersionOf = ghVersion, f.Setup.GhIdentity
		}
		gb, err := state.EncodeGlobal(&g)
		if err != nil {
			return err
		}
		tx.SetGlobal(gb)
		return nil
	})
	if err != nil {
		return results, fmt.Errorf("could not record the outcome: %w", err)
	}
	return results, nil
}

// pending is a chip's run, to record.
type pending struct {
	ce      chipEntry
	o       *classify.Outcome
	refused []string // --json fields gh refused
	// probe is what the run's probe found: no change (o is nil then), or
	// the change that made it run.
	probe probeResult
	plan  probePlan
}

// runChip runs a chip Decide said to run: its probe first when one is
// due, and the full run unless the probe saw no change.
func (e *Engine) runChip(ctx context.Context, f *Facts, ce chipEntry, probe bool, g *state.Global, mem *lookupMemory) (pending, RefreshResult) {
	p, res := pending{ce: ce}, RefreshResult{Name: ce.Policy.Name}
	if probe && f.Setup.GhPath != "" {
		pr := e.probe(ctx, f, ce.Policy, ce.State)
		p.probe = pr
		switch {
		case pr.Failed != nil:
			p.o, res.Outcome = pr.Failed, pr.Failed
			return p, res
		case pr.Answer != state.ProbeChanged && !(pr.Answer == state.ProbeIgnored && ce.State.Probe.Ignored+1 >= state.MaxIgnored):
			res.Skipped, res.Previous = "probe: "+pr.Answer, ce.State.Outcome
			return p, res
		}
	}
	switch {
	case ce.Policy.Kind == state.KindShell:
		p.o = e.runShell(ctx, f, ce)
	case f.Setup.GhPath == "":
		p.o = classify.MissingGhOutcome(e.now())
	default:
		mem.Prev, mem.probe = nil, probePlan{}
		if ce.State != nil && ce.State.Outcome != nil {
			mem.Prev = ce.State.Outcome.Lookup
		}
		p.o, p.refused = e.lookupPR(ctx, f, ce.Policy, g, mem)
		if p.o.Category == classify.CatRateLimited && p.o.RetryAt.IsZero() {
			// gh does not print when the limit resets; GitHub's rate_limit
			// endpoint says (bounded), and asking it costs no budget.
			if r := e.gh(ctx, f, 2*time.Second, "api", "rate_limit"); r.ExitCode == 0 {
				waitUntil(p.o, classify.RateLimitResetFrom(r.Stdout, e.now()))
			}
		}
		p.plan = mem.probe
	}
	res.Outcome = p.o
	return p, res
}

func (e *Engine) run(ctx context.Context, c proc.Command) proc.Result {
	if e.Run != nil {
		return e.Run(ctx, c)
	}
	return proc.Run(ctx, c)
}

// graphql runs `gh api graphql` with the query and its -f variables
// (NAME=VALUE) on host, or gh's default host when it is "".
func (e *Engine) graphql(ctx context.Context, f *Facts, p state.Policy, host, query string, vars ...string) proc.Result {
	args := []string{"api", "graphql", "-f", "query=" + query}
	if host != "" {
		args = append(args, "--hostname", host)
	}
	for _, v := range vars {
		args = append(args, "-f", v)
	}
	return e.gh(ctx, f, p.Timeout, args...)
}

// gh runs the installed gh in the repository root with gh's environment
// (SPEC 3), bounded by timeout: every gh run of a refresh goes through it.
func (e *Engine) gh(ctx context.Context, f *Facts, timeout time.Duration, args ...string) proc.Result {
	return e.run(ctx, proc.Command{Path: f.Setup.GhPath, Args: args, Dir: f.Repo.Root,
		Env: proc.GhEnv(f.Environ(e.Env.Environ())), Timeout: timeout})
}

// ghVersion runs `gh --version` (bounded) and returns the version word of
// its first line ("gh version 2.23.0 (2023-02-27)" -> "2.23.0").
func (e *Engine) ghVersion(ctx context.Context, f *Facts) string {
	var v string
	if r := e.gh(ctx, f, 2*time.Second, "--version"); r.ExitCode != 0 {
		return ""
	} else if _, err := fmt.Sscanf(string(r.Stdout), "gh version %s", &v); err != nil {
		return ""
	}
	return sanitize.Text(v, 64)
}

// waitUntil sets when a rate-limited outcome may try again, once known.
func waitUntil(o *classify.Outcome, t time.Time) {
	if !t.IsZero() {
		o.RetryAt, o.Recovery = t, []string{"wait until " + t.Format(time.RFC3339), "prchip refresh"}
	}
}

// runShell runs a user chip's command with sh in the repository root.
// Exit 0 shows the first line of its output; anything else is a failure.
func (e *Engine) runShell(ctx context.Context, f *Facts, ce chipEntry) *classify.Outcome {
	sh, _ := ghauth.LookPath("sh", e.Env)
	r := e.run(ctx, proc.Command{Path: cmp.Or(sh, "/bin/sh"), Args: []string{"-c", ce.Shell.Command}, Dir: f.Repo.Root,
		Env: f.Environ(e.Env.Environ()), Timeout: ce.Policy.Timeout})
	return classify.ClassifyShell(r, e.now())
}

// Invalidate bumps the repository's invalidation count, which changes every
// chip's fingerprint: the next render refreshes and backoff starts over.
// once, the hook's name for it, makes it once however often it is asked
// (a worker that took the request, then the one-shot command after it).
func (e *Engine) Invalidate(f *Facts, once string) (int, error) {
	return e.invalidate(f, once, func(rs *state.RepoState) { rs.Invalidations++ })
}

// InvalidateProbe is what the user's git command does: the branch's PR chip
// is probed at the next prompt (a push shows as a change, a commit costs
// GitHub nothing); where no probe stands in for the result (in backoff,
// say), it is Invalidate, so the next prompt tries at once.
func (e *Engine) InvalidateProbe(f *Facts, once string) error {
	_, err := e.invalidate(f, once, func(rs *state.RepoState) {
		if st := rs.Chip(f.Repo.Branch, f.Target, f.Setup.Auth, "pr"); st.Probed() {
			st.Probe.Wanted = true
			rs.ProbeRequests++
		} else {
			rs.Invalidations++
		}
	})
	return err
}

// invalidate makes an invalidation (do) once under the hook's name, and
// returns the invalidation count.
func (e *Engine) invalidate(f *Facts, once string, do func(*state.RepoState)) (n int, err error) {
	if f.Repo == nil {
		return 0, nil
	}
	if len(once) > 64 || strings.Trim(once, "0123456789.") != "" {
		once = "" // the hooks write PID.RANDOM.ID: anything else (typed by hand) names none
	}
	err = e.updateRepo(f, func(_ *cache.Tx, rs *state.RepoState) error {
		n = rs.Invalidations
		if once != "" && rs.InvalidatedOnce == once {
			return errRepoAsIs
		}
		rs.InvalidatedOnce = once
		do(rs)
		n = rs.Invalidations
		return nil
	})
	return n, err
}

// errRepoAsIs, from updateRepo's change, leaves the repository's record as
// it is (the change's other writes to the transaction stand).
var errRepoAsIs = errors.New("keep the record")

// updateRepo changes the record of f's repository under the store lock
// (an unreadable one starts over from the zero value).
func (e *Engine) updateRepo(f *Facts, change func(*cache.Tx, *state.RepoState) error) error {
	return e.Store.Update(func(tx *cache.Tx) error {
		rs, _ := state.DecodeRepoState(tx.Repo(f.Key))
		if err := change(tx, &rs); errors.Is(err, errRepoAsIs) {
			return nil
		} else if err != nil {
			return err
		}
		rs.Root = f.Repo.Root
		b, err := state.EncodeRepoState(&rs)
		if err != nil {
			return err
		}
		tx.PutRepo(f.Key, b)
		return nil
	})
}

// ResetReport is what Reset forgot, for `prchip reset` to say.
type ResetReport struct {
	All  bool
	Root string // the repository reset ("" outside one, or with All)
	// Chips counts the chip records forgotten (one per chip and branch),
	// Cached those with a cached failure, Backoff those waiting out a
	// backoff; Branches the branches they were kept for.
	Chips, Cached, Backoff, Branches int
	Repos                            int              // how many repositories All forgot
	Was                              state.Validation // the validation before, for the current setup
}

// Reset forgets failure caches, backoff and validation, for one repository
// (and the global validation) or, with all, everything; and says what.
func (e *Engine) Reset(f *Facts, all bool) (ResetReport, error) {
	rep := ResetReport{All: all}
	now := e.now()
	err := e.updateRepo(f, func(tx *cache.Tx, rs *state.RepoState) error {
		g, _ := state.DecodeGlobal(tx.Global)
		rep.Was = g.Effective(f.Setup.Identity())
		if all {
			rep.Repos = tx.Len()
			tx.Reset()
			return errRepoAsIs
		}
		tx.SetGlobal(nil)
		if f.Repo == nil {
			return errRepoAsIs
		}
		rep.Root = f.Repo.Root
		for _, b := range rs.Branches {
			for _, st := range b.Chips {
				rep.Chips++
				if st.FailureFP != "" {
					rep.Cached++
				}
				if st.NextAttempt.After(now) {
					rep.Backoff++
				}
			}
		}
		rep.Branches = len(rs.Branches)
		rs.Branches = nil
		return nil
	})
	return rep, err
}
