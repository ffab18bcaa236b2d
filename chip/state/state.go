// Package state is what a chip keeps and the one place it changes:
// Decide says whether to run now, Apply what an outcome does (SPEC 4).
// Records are stored as JSON.
package state

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/chip/pull"
	"github.com/prchip/prchip/internal/repo"
	"github.com/prchip/prchip/internal/sanitize"
)

// Validation is the global default validation state (SPEC 4).
type Validation string

const (
	Unvalidated    Validation = "unvalidated"
	SetupValidated Validation = "validated"
	Suppressed     Validation = "suppressed"
)

// Global is the state shared by all repositories.
type Global struct {
	Validation Validation `json:"validation,omitempty"`
	// SuppressedSetup is the setup identity recorded at suppression; any
	// other identity lifts the suppression.
	SuppressedSetup string    `json:"suppressed_setup,omitempty"`
	SuppressedAt    time.Time `json:"suppressed_at,omitzero"`
	// GhVersion is what `gh --version` said for the gh whose identity is
	// GhVersionOf; asked once per gh, by a refresh, so status runs nothing.
	GhVersion   string `json:"gh_version,omitempty"`
	GhVersionOf string `json:"gh_version_of,omitempty"`
	// GhLacks lists the --json fields the gh whose identity is GhLacksOf
	// refused ("Unknown JSON field"): never asked of that gh again.
	GhLacks   []string `json:"gh_lacks,omitempty"`
	GhLacksOf string   `json:"gh_lacks_of,omitempty"`
	// Fallbacks are the hosts that ignored conditional requests: they get
	// plain refreshes for a while (FallbackFor).
	Fallbacks []Fallback `json:"probe_fallbacks,omitempty"`
}

// MaxGhLacks bounds the refused fields remembered.
const MaxGhLacks = 16

// Effective is the validation that applies for the current setup identity.
// A suppression holds only for the setup it was recorded under.
func (g *Global) Effective(setupID string) Validation {
	if g.Validation == SetupValidated || g.Validation == Suppressed && g.SuppressedSetup == setupID {
		return g.Validation
	}
	return Unvalidated
}

// RepoState is what prchip keeps per repository.
type RepoState struct {
	Root          string `json:"root"`
	Invalidations int    `json:"invalidations,omitempty"`
	// ProbeRequests counts the user's git commands that asked for a probe
	// at once (InvalidateProbe) instead of an invalidation.
	ProbeRequests int `json:"probe_requests,omitempty"`
	// InvalidatedOnce names the last invalidation (Engine.Invalidate's
	// once), so the worker and a late one-shot command make it only once.
	InvalidatedOnce string `json:"invalidated_once,omitempty"`
	// Branches holds the chips of the MaxBranches branches refreshed last,
	// most recent first, so switching back shows the known PR at once; an
	// entry per auth setup (MaxAuthSetups) keeps shells with different
	// tokens from pushing each other's results out.
	Branches []*BranchState `json:"branches,omitempty"`
	// Parents are the forks' parents the PR lookup asked GitHub for
	// (SPEC 3: asked once, kept), by "host/owner/repo" in lower case:
	// "OWNER/REPO", or "-" for a repository that is no fork.
	Parents map[string]string `json:"parents,omitempty"`
}

// MaxParents bounds the parents a repository record keeps.
const MaxParents = 16

// KeepParents merges a refresh's parents (first) into the stored ones, bounded.
func KeepParents(stored, found map[string]string) map[string]string {
	out := make(map[string]string, len(found))
	for _, m := range []map[string]string{found, stored} {
		for k, v := range m {
			if _, ok := out[k]; !ok && len(out) < MaxParents {
				out[k] = v
			}
		}
	}
	return out
}

// Bounds of the branches a repository remembers and setups per branch.
const (
	MaxBranches   = 8
	MaxAuthSetups = 3
)

// BranchState is what the chips found for one branch, looked up in one
// GitHub repository.
type BranchState struct {
	Branch string `json:"branch"`
	// Target is GH_REPO's repository, "" for the one gh picks from the
	// remotes: kept apart, so one is never shown as the other.
	Target string `json:"target,omitempty"`
	// Auth digests the auth setup the chips ran under (never a token): a
	// new GH_TOKEN in one shell gets a result of its own, where one entry
	// would make every prompt of the other shells a refresh.
	Auth  string                `json:"auth,omitempty"`
	Chips map[string]*ChipState `json:"chips,omitempty"`
}

// Chip is the state of chip name on branch (in target) under auth, nil
// when none is kept. Lacking one, the most recent under another setup
// stands in, shown while it is checked again (its fingerprint differs);
// so a shell chip, which no setup changes, is found under any.
func (rs *RepoState) Chip(branch, target, auth, name string) *ChipState {
	var other *ChipState
	for _, b := range rs.Branches {
		if b.Branch != branch || b.Target != target {
			continue
		}
		st := b.Chips[name]
		if b.Auth == auth && st != nil {
			return st
		}
		if other == nil {
			other = st
		}
	}
	return other
}

// ExactChip is Chip without the stand-in: the result recorded under auth.
func (rs *RepoState) ExactChip(branch, target, auth, name string) *ChipState {
	if i := rs.entry(branch, target, auth); i >= 0 {
		return rs.Branches[i].Chips[name]
	}
	return nil
}

// entry is the index of branch's entry (in target) under auth, or -1.
func (rs *RepoState) entry(branch, target, auth string) int {
	return slices.IndexFunc(rs.Branches, func(b *BranchState) bool {
		return b.Branch == branch && b.Target == target && b.Auth == auth
	})
}

// PutChip returns the state of chip name on branch under auth for writing,
// creating it; the entry becomes the most recent, and those beyond the
// bounds are forgotten.
func (rs *RepoState) PutChip(branch, target, auth, name string) *ChipState {
	b := &BranchState{Branch: branch, Target: target, Auth: auth}
	if i := rs.entry(branch, target, auth); i >= 0 {
		b = rs.Branches[i]
		rs.Branches = slices.Delete(rs.Branches, i, i+1)
	}
	if b.Chips == nil {
		b.Chips = map[string]*ChipState{}
	}
	rs.Branches = bound(append([]*BranchState{b}, rs.Branches...))
	st := b.Chips[name]
	if st == nil {
		st = &ChipState{}
		b.Chips[name] = st
	}
	return st
}

// bound keeps, most recent first, the entries of the MaxBranches branches
// used last and the MaxAuthSetups setups used last of each.
func bound(entries []*BranchState) []*BranchState {
	type key struct{ branch, target string }
	seen := map[key]int{}
	kept := entries[:0]
	for _, b := range entries {
		k := key{b.Branch, b.Target}
		n, known := seen[k]
		if (!known && len(seen) == MaxBranches) || n == MaxAuthSetups {
			continue
		}
		seen[k] = n + 1
		kept = append(kept, b)
	}
	return kept
}

// ChipState is one chip's last result for one branch.
type ChipState struct {
	// Fingerprint of the last run; another one is stale at once.
	Fingerprint string            `json:"fingerprint"`
	CheckedAt   time.Time         `json:"checked_at"`
	Outcome     *classify.Outcome `json:"outcome,omitempty"`
	// FailureFP is the fingerprint of a cached failure; while it equals
	// the current fingerprint the chip is not run.
	FailureFP string `json:"failure_fp,omitempty"`
	// Failures counts consecutive retryable failures under Fingerprint.
	Failures    int          `json:"failures,omitempty"`
	NextAttempt time.Time    `json:"next_attempt,omitzero"`
	PR          *classify.PR `json:"pr,omitempty"`
	Value       string       `json:"value,omitempty"`
	// Stale marks a value kept through a transient failure (on_retryable).
	Stale bool `json:"stale,omitempty"`
	// Rechecks counts consecutive results under Fingerprint whose merge
	// state GitHub had not computed yet (see MergeRecheck).
	Rechecks int `json:"rechecks,omitempty"`
	// Fields are the gh --json fields a validated PR result was asked with:
	// a template that needs another makes it stale at once (SPEC 5).
	Fields []string `json:"fields,omitempty"`
	// Probe is what conditional probes ask between full runs (PR chip).
	Probe *Probe `json:"probe,omitempty"`
}

// MergeRecheck is how long a result stays fresh while GitHub is still
// computing the merge state (UNKNOWN, as right after a push), for at most
// MaxRechecks results in a row: it is usually there seconds later, and a
// PR whose state GitHub never computes costs only a few extra refreshes.
const (
	MergeRecheck = 5 * time.Second
	MaxRechecks  = 3
)

// FailureCached reports whether a failure is cached for fingerprint fp:
// while it is, the chip is neither run nor shown (SPEC 4).
func (st *ChipState) FailureCached(fp string) bool {
	return st != nil && st.FailureFP != "" && st.FailureFP == fp
}

// Kind distinguishes the built-in PR chip from user shell chips.
type Kind string

const (
	KindPR    Kind = "pr"
	KindShell Kind = "shell"
)

// Policy is what the runtime needs to know about a chip kind.
type Policy struct {
	Name            string
	Kind            Kind
	Timeout         time.Duration
	RefreshInterval time.Duration
	// SettledInterval replaces RefreshInterval for a PR chip whose result
	// rarely changes: a merged or closed PR, or none (0: no difference).
	SettledInterval   time.Duration
	SuppressOnFailure bool
}

// ShouldCacheFailureFingerprint decides whether a result stops the chip
// running again under the same fingerprint: for the PR chip only an auth
// failure, never transient trouble; for a shell chip with
// suppress_on_failure, any failure or timeout.
func ShouldCacheFailureFingerprint(p Policy, o *classify.Outcome) bool {
	if p.Kind == KindPR {
		return o.Class == classify.AuthFailure
	}
	return p.SuppressOnFailure && (o.TimedOut || o.Class != classify.Validated && o.Class != classify.NotApplicable)
}

// Decision says whether a chip runs now, and if not, why.
type Decision struct {
	Run    bool
	Reason string
	Probe  bool // a conditional probe, and `gh pr view` only on a change
}

// Skip reasons.
const (
	ReasonModeOff       = "mode_off"
	ReasonSuppressed    = "suppressed"
	ReasonFailureCached = "failure_cached"
	ReasonFresh         = "fresh"
	ReasonBackoff       = "backoff"
	ReasonMissingGh     = "missing_gh"
)

// DecideInput is everything Decide looks at.
type DecideInput struct {
	Policy      Policy
	Mode        string
	Validation  Validation // effective
	State       *ChipState // nil when never run
	Fingerprint string
	Now         time.Time
	// Foreground is `prchip refresh`: freshness and backoff do not apply.
	Foreground bool
	// Force is `refresh --force`: suppression and cached failures do not apply either.
	Force bool
	// Fields are the gh --json fields the PR chip's templates need now (of
	// those the installed gh knows); nil for other chips.
	Fields []string
	// NoProbes: the host ignores conditional requests (Global.FallenBack).
	NoProbes bool
}

// Decide is the single place that says whether a chip runs: the render
// path, the background refresh and `prchip refresh` all ask it.
func Decide(in DecideInput) Decision {
	if in.Mode == "off" && !in.Force {
		return Decision{Reason: ReasonModeOff}
	}
	st := in.State
	if !in.Force {
		if in.Policy.Kind == KindPR && in.Mode != "always" && in.Validation == Suppressed {
			return Decision{Reason: ReasonSuppressed}
		}
		if st.FailureCached(in.Fingerprint) {
			return Decision{Reason: ReasonFailureCached}
		}
		// In "always" mode a missing gh is not retried until the setup
		// (and so the fingerprint) changes.
		if st != nil && st.Fingerprint == in.Fingerprint && st.Outcome != nil && st.Outcome.Class == classify.MissingGh {
			return Decision{Reason: ReasonMissingGh}
		}
	}
	if in.Foreground || st == nil || st.Fingerprint != in.Fingerprint {
		return Decision{Run: true}
	}
	// A wait longer than any prchip sets (the clock stepped back, the file
	// was edited) is not trusted; nor is a check in the future.
	if !st.NextAttempt.IsZero() && in.Now.Before(st.NextAttempt) && st.NextAttempt.Sub(in.Now) <= maxWait(st.Outcome) {
		return Decision{Reason: ReasonBackoff}
	}
	if probing(in) {
		return decideProbe(in)
	}
	if st.Outcome != nil && st.Outcome.Class != classify.Retryable && in.Now.Sub(st.CheckedAt) < freshFor(in.Policy, st) && !in.Now.Before(st.CheckedAt) &&
		hasFields(st, in.Fields) {
		return Decision{Reason: ReasonFresh}
	}
	return Decision{Run: true}
}

// hasFields reports whether st's result holds every field a template
// needs: a validated result asked with fewer (before `{review}` was added
// to the format) is stale at once.
func hasFields(st *ChipState, need []string) bool {
	return st.Outcome.Class != classify.Validated || !slices.ContainsFunc(need, func(f string) bool { return !slices.Contains(st.Fields, f) })
}

// freshFor is how long st's result stays fresh.
func freshFor(p Policy, st *ChipState) time.Duration {
	switch {
	case p.Kind != KindPR || st.Outcome.Class != classify.Validated:
	case rechecking(st):
		return min(MergeRecheck, p.RefreshInterval)
	case p.SettledInterval > 0 && settled(st):
		return p.SettledInterval
	}
	return p.RefreshInterval
}

// NextAttemptAt is when the render path will next refresh this chip on its
// own; zero when it would refresh now or never will (suppression, cached
// failure: see Decide's reason).
func NextAttemptAt(in DecideInput) time.Time {
	in.Foreground, in.Force = false, false
	switch Decide(in).Reason {
	case ReasonBackoff:
		return in.State.NextAttempt
	case ReasonFresh:
		if t, _ := NextProbe(in); !t.IsZero() {
			return t
		}
		return in.State.CheckedAt.Add(freshFor(in.Policy, in.State))
	}
	return time.Time{}
}

// Backoff bounds: 30 s doubling to at most 10 min, or 2 min for failures
// that never reached GitHub (so the chip is back soon after the network);
// a rate limit's reset time is honoured up to an hour.
const (
	BackoffBase   = 30 * time.Second
	BackoffMax    = 10 * time.Minute
	OfflineMax    = 2 * time.Minute
	RateLimitMax  = classify.RateLimitMax
	backoffJitter = 0.2
)

// maxWait is the longest wait after outcome o.
func maxWait(o *classify.Outcome) time.Duration {
	switch {
	case o == nil:
	case !o.RetryAt.IsZero():
		return RateLimitMax
	case o.Category == classify.CatOffline:
		return OfflineMax
	}
	return BackoffMax
}

// Backoff is the wait after the n-th retryable failure in a row, ending
// in o, jittered by up to ±20% so many shells do not retry in step.
func Backoff(n int, o *classify.Outcome, rnd func() float64) time.Duration {
	limit := min(maxWait(o), BackoffMax)
	d := min(BackoffBase<<min(max(n-1, 0), 5), limit) // 30 s << 5 is past BackoffMax
	if rnd == nil {
		rnd = rand.Float64
	}
	j := time.Duration(float64(d) * backoffJitter * (2*rnd() - 1))
	return min(max(d+j, BackoffBase*8/10), limit)
}

// ApplyInput is one finished run.
type ApplyInput struct {
	Policy      Policy
	Global      *Global
	State       *ChipState // updated in place
	Outcome     *classify.Outcome
	Fingerprint string
	SetupID     string
	Now         time.Time
	Rand        func() float64
	// KeepOnRetryable keeps the last value, marked stale, through transient failures.
	KeepOnRetryable bool
	// Fields are the gh --json fields the run asked for (PR chip).
	Fields []string
}

// Apply is the single place where a run's outcome changes state (the table
// in SPEC 4). It never touches validation for shell chips.
func Apply(in ApplyInput) {
	st, o, g := in.State, in.Outcome, in.Global
	failures, rechecks := st.Failures, st.Rechecks
	if st.Fingerprint != in.Fingerprint {
		failures, rechecks = 0, 0
	}
	st.Fingerprint, st.CheckedAt = in.Fingerprint, in.Now
	// The outcome is kept without its payload, which lives in PR/Value.
	stored := *o
	stored.PR, stored.Value = nil, ""
	st.Outcome = &stored
	if ShouldCacheFailureFingerprint(in.Policy, o) {
		st.FailureFP = in.Fingerprint
	} else if st.FailureCached(in.Fingerprint) && o.Class != classify.MissingGh && o.Class != classify.NotApplicable {
		st.FailureFP = ""
	}
	st.Failures, st.NextAttempt, st.Rechecks, st.Stale = 0, time.Time{}, 0, false
	switch o.Class {
	case classify.Validated:
		if in.Policy.Kind == KindPR {
			g.Validation, g.SuppressedSetup, g.SuppressedAt = SetupValidated, "", time.Time{}
		}
		st.PR, st.Value, st.Fields = o.PR, o.Value, in.Fields
		if o.PR != nil && o.PR.MergeState == "unknown" {
			st.Rechecks = rechecks + 1
		}
	case classify.Retryable:
		st.Failures = failures + 1
		st.NextAttempt = in.Now.Add(Backoff(st.Failures, o, in.Rand))
		if !o.RetryAt.IsZero() { // the rate limit's reset, up to RateLimitMax
			st.NextAttempt = in.Now.Add(min(o.RetryAt.Sub(in.Now), RateLimitMax))
		}
		st.Stale = in.KeepOnRetryable && (st.PR != nil || st.Value != "")
		if !st.Stale {
			st.PR, st.Value = nil, ""
		}
	default: // an auth failure, a missing gh, nothing to look up here
		if in.Policy.Kind == KindPR && o.Class != classify.NotApplicable {
			g.Validation, g.SuppressedSetup, g.SuppressedAt = Suppressed, in.SetupID, in.Now
		}
		st.PR, st.Value = nil, ""
	}
}

// DecodeGlobal reads a global record; one that does not decode reads as the
// zero value (the caller reports it, the next write repairs it).
func DecodeGlobal(b []byte) (Global, error) {
	g, err := decode[Global](b)
	g.GhVersion = shown(g.GhVersion, 64)
	g.GhLacks = g.GhLacks[:min(len(g.GhLacks), MaxGhLacks)]
	g.Fallbacks = g.Fallbacks[:min(len(g.Fallbacks), MaxFallbacks)]
	for i := range g.Fallbacks {
		g.Fallbacks[i].Host = shown(g.Fallbacks[i].Host, 256)
	}
	return g, err
}

// DecodeRepoState reads a repository record, likewise.
func DecodeRepoState(b []byte) (RepoState, error) {
	rs, err := decode[RepoState](b)
	// Parents become gh's arguments: only names GitHub allows survive.
	maps.DeleteFunc(rs.Parents, func(k, v string) bool {
		return len(rs.Parents) > MaxParents || len(k) > 300 || !(v == "-" || repo.ValidNWO(v))
	})
	if len(rs.Parents) == 0 {
		rs.Parents = nil
	}
	rs.Branches = bound(slices.DeleteFunc(rs.Branches, func(b *BranchState) bool { return b == nil })) // planted nulls
	for _, br := range rs.Branches {
		maps.DeleteFunc(br.Chips, func(_ string, st *ChipState) bool { return st == nil })
		for _, st := range br.Chips {
			st.clean()
		}
		if len(br.Chips) == 0 {
			br.Chips = nil
		}
	}
	if len(rs.Branches) == 0 {
		rs.Branches = nil
	}
	return rs, err
}

// The state file is text anything running as the user can plant
// (docs/threat-model.md), so decoding is where its records become
// trusted: every string ever shown is cleaned here, once, and no reader
// has to remember it. What is only compared (fingerprints, identities,
// the branch, which cleaned could never match its own record) and the
// root, never read back, are left as stored.

// clean cleans a chip's stored result.
func (st *ChipState) clean() {
	st.Value = shown(st.Value, 256)
	if len(st.Fields) > 32 { // more than gh has: only compared, but each prompt would
		st.Fields = nil
	}
	if pb := st.Probe; pb != nil {
		// Paths become gh's arguments: only what the engine builds
		// survives (ValidProbePath); ETags are sent back as a header.
		pb.Host, pb.Answer = shown(pb.Host, 256), shown(pb.Answer, 64)
		pb.Targets = slices.DeleteFunc(pb.Targets[:min(len(pb.Targets), MaxProbeTargets)], func(t ProbeTarget) bool {
			return !ValidProbePath(t.Path) || !ValidETag(t.ETag)
		})
		if len(pb.Targets) == 0 {
			pb.Targets = nil
		}
		if !validHost(pb.Host) {
			st.Probe = nil
		}
	}
	if p := st.PR; p != nil {
		p.Title, p.URL = shown(p.Title, classify.MaxTitle), shown(p.URL, 512)
		p.State, p.Review, p.Checks = shown(p.State, 32), shown(p.Review, 32), shown(p.Checks, 32)
		p.MergeState, p.Sync, p.FailingCheck = shown(p.MergeState, 32), shown(p.Sync, 32), shown(p.FailingCheck, 128)
		p.HeadOid, p.Base = shown(p.HeadOid, 64), shown(p.Base, 256)
		p.Others = p.Others[:min(len(p.Others), classify.MaxOthers)]
		if q := p.Queue; q != nil {
			q.State = shown(q.State, 32)
			q.RemovalReason, q.RemovalHeadOid = shown(q.RemovalReason, classify.MaxRemovalReason), shown(q.RemovalHeadOid, 64)
			if q.RemovalCause != "" {
				q.RemovalCause = pull.KnownCause(q.RemovalCause)
			}
		}
	}
	if o := st.Outcome; o != nil {
		o.Class, o.Category = classify.Class(shown(string(o.Class), 32)), shown(o.Category, 64)
		o.Detail = sanitize.Detail(o.Detail)
		o.LineStarts = o.LineStarts[:min(len(o.LineStarts), sanitize.MaxDetailLines)]
		o.Recovery = o.Recovery[:min(len(o.Recovery), 3)]
		for i, r := range o.Recovery {
			o.Recovery[i] = shown(r, 128)
		}
		if l := o.Lookup; l != nil {
			l.Head, l.Base, l.Why = shown(l.Head, 300), shown(l.Base, 300), shown(l.Why, 300)
			l.Exact = max(l.Exact, 0)
			l.Tried = l.Tried[:min(len(l.Tried), classify.MaxTried)]
			for i, t := range l.Tried {
				l.Tried[i] = shown(t, 300)
			}
		}
		o.SetAside = o.SetAside[:min(len(o.SetAside), classify.MaxSetAside)]
		for i := range o.SetAside {
			a := &o.SetAside[i]
			a.State, a.Reason = shown(a.State, 32), shown(a.Reason, 300)
		}
		// A stored outcome never carries its payload (Apply moves it to
		// PR and Value): nothing may show one that a file smuggled in.
		o.PR, o.Value = nil, ""
	}
}

func decode[T any](b []byte) (v T, err error) {
	if err = json.Unmarshal(b, &v); err != nil {
		v = *new(T)
	}
	return v, err
}

// shown is s fit to show: controls, escapes, bidi and format characters
// removed, tokens redacted, at most max bytes.
func shown(s string, max int) string {
	if s == "" { // most stored fields are: no redaction to look up
		return ""
	}
	return sanitize.Text(sanitize.Redact(s), max)
}

// EncodeGlobal writes a global record.
func EncodeGlobal(g *Global) ([]byte, error) { return json.Marshal(g) }

// EncodeRepoState writes a repository record.
func EncodeRepoState(rs *RepoState) ([]byte, error) { return json.Marshal(rs) }
