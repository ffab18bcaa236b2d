// Package state is what a chip keeps and the one place it changes:
// Decide says whether to run now, Apply what an outcome does (SPEC 4).
// Records are stored as JSON.
package state

import (
	"encoding/json"
	"math/rand/v2"
	"time"

	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/sanitize"
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
}

// Effective is the validation that applies for the current setup identity.
func (g *Global) Effective(setupID string) Validation {
	switch g.Validation {
	case Suppressed:
		if g.SuppressedSetup != setupID {
			return Unvalidated
		}
		return Suppressed
	case SetupValidated:
		return SetupValidated
	}
	return Unvalidated
}

// RepoState is what prchip keeps per repository.
type RepoState struct {
	Root          string                `json:"root"`
	Invalidations int                   `json:"invalidations,omitempty"`
	Chips         map[string]*ChipState `json:"chips,omitempty"`
}

// ChipState is one chip's last result in one repository.
type ChipState struct {
	// Branch the value belongs to: after a checkout the old value is never
	// shown, even before the refresh for the new branch finishes.
	Branch string `json:"branch"`
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
	// Stale marks a value kept after a transient failure (on_retryable =
	// "keep").
	Stale bool `json:"stale,omitempty"`
}

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
	Name              string
	Kind              Kind
	Requires          []string
	Timeout           time.Duration
	RefreshInterval   time.Duration
	SuppressOnFailure bool
}

// ShouldCacheFailureFingerprint decides, for every chip kind, whether a
// result stops the chip from running again under the same fingerprint. For
// the PR chip only an auth failure does (the classifier decided which those
// are); a timeout or any other transient trouble never does. For shell
// chips the generic rule holds: with suppress_on_failure, any failure or
// timeout is cached.
func ShouldCacheFailureFingerprint(p Policy, o *classify.Outcome) bool {
	switch p.Kind {
	case KindPR:
		return o.Class == classify.AuthFailure
	default:
		failed := o.TimedOut || (o.Class != classify.Validated && o.Class != classify.NotApplicable)
		return p.SuppressOnFailure && failed
	}
}

// Decision says whether a chip runs now, and if not, why.
type Decision struct {
	Run    bool
	Reason string
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
}

// Decide is the single place that says whether a chip runs: the render
// path, the background refresh and `prchip refresh` all ask it.
func Decide(in DecideInput) Decision {
	if in.Mode == "off" && !in.Force {
		return Decision{false, ReasonModeOff}
	}
	st := in.State
	if !in.Force {
		if in.Policy.Kind == KindPR && in.Mode != "always" && in.Validation == Suppressed {
			return Decision{false, ReasonSuppressed}
		}
		if st.FailureCached(in.Fingerprint) {
			return Decision{false, ReasonFailureCached}
		}
		// In "always" mode a missing gh is not retried until the setup
		// (and so the fingerprint) changes.
		if st != nil && st.Fingerprint == in.Fingerprint && st.Outcome != nil && st.Outcome.Class == classify.MissingGh {
			return Decision{false, ReasonMissingGh}
		}
	}
	if in.Foreground || st == nil || st.Fingerprint != in.Fingerprint {
		return Decision{true, ""}
	}
	if !st.NextAttempt.IsZero() && in.Now.Before(st.NextAttempt) {
		return Decision{false, ReasonBackoff}
	}
	if st.Outcome != nil && st.Outcome.Class != classify.Retryable && in.Now.Sub(st.CheckedAt) < in.Policy.RefreshInterval && !in.Now.Before(st.CheckedAt) {
		return Decision{false, ReasonFresh}
	}
	return Decision{true, ""}
}

// NextAttemptAt is when the render path will next refresh this chip on its
// own; zero when it would refresh now or never will (suppression, cached
// failure: see Decide's reason).
func NextAttemptAt(in DecideInput) time.Time {
	in.Foreground, in.Force = false, false
	d := Decide(in)
	switch d.Reason {
	case ReasonBackoff:
		return in.State.NextAttempt
	case ReasonFresh:
		return in.State.CheckedAt.Add(in.Policy.RefreshInterval)
	}
	return time.Time{}
}

// Backoff bounds: 30 s doubling to at most 10 min; a rate limit's reset
// time is honoured up to an hour.
const (
	BackoffBase   = 30 * time.Second
	BackoffMax    = 10 * time.Minute
	RateLimitMax  = time.Hour
	backoffJitter = 0.2
)

// Backoff is the wait after the n-th consecutive retryable failure (n>=1),
// jittered by up to ±20% so many shells do not retry in step.
func Backoff(n int, rnd func() float64) time.Duration {
	d := BackoffBase
	for i := 1; i < n && d < BackoffMax; i++ {
		d *= 2
	}
	d = min(d, BackoffMax)
	if rnd == nil {
		rnd = rand.Float64
	}
	j := time.Duration(float64(d) * backoffJitter * (2*rnd() - 1))
	return min(max(d+j, BackoffBase*8/10), BackoffMax)
}

// ApplyInput is one finished run.
type ApplyInput struct {
	Policy      Policy
	Global      *Global
	State       *ChipState // updated in place
	Outcome     *classify.Outcome
	Fingerprint string
	SetupID     string
	Branch      string
	Now         time.Time
	Rand        func() float64
	// KeepOnRetryable keeps the last value, marked stale, through
	// transient failures.
	KeepOnRetryable bool
}

// Apply is the single place where a run's outcome changes state (the table
// in SPEC 4). It never touches validation for shell chips.
func Apply(in ApplyInput) {
	st, o, g := in.State, in.Outcome, in.Global
	sameFP := st.Fingerprint == in.Fingerprint
	sameBranch := st.Branch == in.Branch
	prevFailures := st.Failures
	if !sameFP {
		prevFailures = 0
	}
	st.Branch = in.Branch
	st.Fingerprint = in.Fingerprint
	st.CheckedAt = in.Now
	// The outcome is kept without its payload, which lives in PR/Value.
	stored := *o
	stored.PR, stored.Value = nil, ""
	st.Outcome = &stored
	if ShouldCacheFailureFingerprint(in.Policy, o) {
		st.FailureFP = in.Fingerprint
	} else if st.FailureCached(in.Fingerprint) && o.Class != classify.MissingGh && o.Class != classify.NotApplicable {
		st.FailureFP = ""
	}
	switch o.Class {
	case classify.Validated:
		if in.Policy.Kind == KindPR {
			g.Validation, g.SuppressedSetup, g.SuppressedAt = SetupValidated, "", time.Time{}
		}
		st.PR, st.Value, st.Stale = o.PR, o.Value, false
		st.Failures, st.NextAttempt = 0, time.Time{}
	case classify.AuthFailure, classify.MissingGh:
		if in.Policy.Kind == KindPR {
			g.Validation, g.SuppressedSetup, g.SuppressedAt = Suppressed, in.SetupID, in.Now
		}
		st.PR, st.Value, st.Stale = nil, "", false
		st.Failures, st.NextAttempt = 0, time.Time{}
	case classify.Retryable:
		if in.KeepOnRetryable && sameBranch && (st.PR != nil || st.Value != "") {
			st.Stale = true
		} else {
			st.PR, st.Value, st.Stale = nil, "", false
		}
		st.Failures = prevFailures + 1
		next := in.Now.Add(Backoff(st.Failures, in.Rand))
		if !o.RetryAt.IsZero() {
			next = o.RetryAt
			if next.After(in.Now.Add(RateLimitMax)) {
				next = in.Now.Add(RateLimitMax)
			}
		}
		st.NextAttempt = next
	case classify.NotApplicable:
		st.PR, st.Value, st.Stale = nil, "", false
		st.Failures, st.NextAttempt = 0, time.Time{}
	}
}

// DecodeGlobal reads a global record; one that does not decode reads as the
// zero value (the caller reports it, the next write repairs it).
func DecodeGlobal(b []byte) (Global, error) {
	g, err := decode[Global](b)
	g.GhVersion = shown(g.GhVersion, 64)
	return g, err
}

// DecodeRepoState reads a repository record, likewise.
func DecodeRepoState(b []byte) (RepoState, error) {
	rs, err := decode[RepoState](b)
	for _, st := range rs.Chips {
		if st != nil {
			st.clean()
		}
	}
	return rs, err
}

// The state file is text anything running as the user can edit or plant
// (SECURITY.md, "A planted state file or config file"), so decoding is
// where its records become trusted: every string that is ever shown (by
// the prompt, status, refresh) is cleaned here, once, and no reader has to
// remember it. What is never shown is left as stored: what is only
// compared (fingerprints, identities, the branch a value belongs to;
// cleaning the branch would stop a branch with unusual characters from ever
// matching its own record) and the root, written for people reading the
// file and never read back.

// clean cleans a chip's stored result.
func (st *ChipState) clean() {
	st.Value = shown(st.Value, 256)
	if p := st.PR; p != nil {
		p.Title, p.URL = shown(p.Title, classify.MaxTitle), shown(p.URL, 512)
		p.State, p.Review, p.Checks = shown(p.State, 32), shown(p.Review, 32), shown(p.Checks, 32)
	}
	if o := st.Outcome; o != nil {
		o.Class, o.Category = classify.Class(shown(string(o.Class), 32)), shown(o.Category, 64)
		o.Detail = sanitize.Detail(o.Detail)
		o.Recovery = o.Recovery[:min(len(o.Recovery), 3)]
		for i, r := range o.Recovery {
			o.Recovery[i] = shown(r, 128)
		}
		// A stored outcome never carries its payload (Apply moves it to
		// PR and Value): nothing may show one that a file smuggled in.
		o.PR, o.Value = nil, ""
	}
}

func decode[T any](b []byte) (T, error) {
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// shown is s fit to show: controls, escapes, bidi and format characters
// removed, tokens redacted, at most max bytes.
func shown(s string, max int) string { return sanitize.Text(sanitize.Redact(s), max) }

// EncodeGlobal writes a global record.
func EncodeGlobal(g *Global) ([]byte, error) { return json.Marshal(g) }

// EncodeRepoState writes a repository record.
func EncodeRepoState(rs *RepoState) ([]byte, error) { return json.Marshal(rs) }
