package state

import (
	"slices"
	"strings"
	"time"

	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/internal/repo"
)

// A conditional probe (SPEC 4, "Cost to GitHub") asks with `gh api -i -H
// 'If-None-Match: ...'` whether the PR (or the branch's PR list, checks,
// status) changed since the last `gh pr view`. An unchanged resource's 304
// does not count against the user's budget, so probes come as often as
// results stay fresh while `gh pr view` runs only on a change, while
// GitHub still computes something, and as a rare backstop.

// ProbeTarget is one REST resource a probe asks about, with the ETag of
// its last answer.
type ProbeTarget struct {
	// Path is the `gh api` path (ValidProbePath), built by the engine
	// from checked names only.
	Path string `json:"path"`
	ETag string `json:"etag,omitempty"`
}

// Probe is what a chip keeps of its probes.
type Probe struct {
	// Host is the GitHub host the targets live on (gh api --hostname).
	Host    string        `json:"host"`
	Targets []ProbeTarget `json:"targets,omitempty"`
	// At is the last probe, Answer what it said (ProbeUnchanged, ...).
	At     time.Time `json:"at,omitzero"`
	Answer string    `json:"answer,omitempty"`
	// Quiet counts probes in a row that saw no change; Ignored, 200s in a
	// row with unchanged bodies (a proxy or server drops If-None-Match).
	Quiet   int `json:"quiet,omitempty"`
	Ignored int `json:"ignored,omitempty"`
	// Wanted: the user's own git command asked the next prompt to probe.
	Wanted bool `json:"wanted,omitempty"`
}

// Probe answers, as status shows them.
const (
	ProbeUnchanged = "unchanged" // 304
	ProbeChanged   = "changed"   // a new ETag or body: gh pr view ran
	ProbeBaseline  = "baseline"  // the first answer after a full refresh
	ProbeIgnored   = "conditional requests ignored"
	ProbeFailed    = "failed"
)

// Cadence: an open PR is probed every RefreshInterval, a merged or closed
// PR and no PR every SettledInterval; a full `gh pr view` runs as a
// backstop every BackstopOpen (merge state follows the base branch, which
// the PR's ETag may not show) or BackstopSettled.
const (
	BackstopOpen    = 20 * time.Minute
	BackstopSettled = time.Hour
	MaxIgnored      = 2              // Ignored answers that mean the host drops conditional requests
	FallbackFor     = 24 * time.Hour // plain refreshes for such a host before probes are tried again
	MaxProbeTargets = 4              // the PR or list, the base branch's ref, checks, status
	MaxFallbacks    = 8              // hosts Global remembers
)

// Fallback is a host whose answers to conditional requests did not come.
type Fallback struct {
	Host  string    `json:"host"`
	Since time.Time `json:"since"`
}

// FallenBack reports whether host gets plain refreshes now.
func (g *Global) FallenBack(host string, now time.Time) bool {
	return slices.ContainsFunc(g.Fallbacks, func(f Fallback) bool {
		return strings.EqualFold(f.Host, host) && now.Sub(f.Since) < FallbackFor && !now.Before(f.Since)
	})
}

// FallBack records that host ignores conditional requests.
func (g *Global) FallBack(host string, now time.Time) {
	g.Fallbacks = slices.DeleteFunc(g.Fallbacks, func(f Fallback) bool { return strings.EqualFold(f.Host, host) })
	g.Fallbacks = append([]Fallback{{Host: host, Since: now}}, g.Fallbacks...)
	g.Fallbacks = g.Fallbacks[:min(len(g.Fallbacks), MaxFallbacks)]
}

// Cadence reasons, as status shows them.
const (
	CadencePending  = "pending checks"      // checks run, or the merge state is being computed
	CadenceQuiet    = "quiet"               // an open PR that did not change
	CadenceSettled  = "settled"             // merged, closed, or no PR
	CadenceWanted   = "after a git command" // the user's own git command
	CadenceFallback = "conditional requests ignored by the host: plain refreshes"
)

// Probed reports whether a probe stands in for st's result: a validated
// result (a PR or none) with a probe target.
func (st *ChipState) Probed() bool {
	return st != nil && st.Probe != nil && len(st.Probe.Targets) > 0 && st.Outcome != nil && st.Outcome.Class == classify.Validated
}

// probing reports whether probes stand in for in's result now, on a host
// that answers conditional requests.
func probing(in DecideInput) bool {
	return in.Policy.Kind == KindPR && in.State.Probed() && !in.NoProbes
}

// settled reports whether st's result rarely changes: a merged or closed PR, or none.
func settled(st *ChipState) bool {
	return st.PR == nil || st.PR.State == "merged" || st.PR.State == "closed"
}

// rechecking reports whether st's result is fetched again in full within
// seconds, GitHub still computing its merge state (MergeRecheck).
func rechecking(st *ChipState) bool {
	return st.PR != nil && st.PR.MergeState == "unknown" && st.Rechecks <= MaxRechecks
}

// probeDue is when a result probes stand in for is next run in full (the
// backstop, or soon while the merge state is computed) and next probed,
// and why at that pace: Decide and NextProbe both read it, so they agree.
func probeDue(in DecideInput) (full, probe time.Time, why string) {
	st, p := in.State, in.Policy
	full = st.CheckedAt.Add(max(BackstopOpen, p.RefreshInterval))
	if settled(st) {
		full = st.CheckedAt.Add(max(BackstopSettled, p.SettledInterval))
	}
	if rechecking(st) { // MergeRecheck is far below either backstop
		full = st.CheckedAt.Add(min(MergeRecheck, p.RefreshInterval))
	}
	last := st.CheckedAt
	if st.Probe.At.After(last) && !in.Now.Before(st.Probe.At) { // a probe in the future is not trusted
		last = st.Probe.At
	}
	every, why := p.RefreshInterval, CadenceQuiet
	switch {
	case settled(st):
		every, why = max(p.SettledInterval, p.RefreshInterval), CadenceSettled
	case st.PR.Checks == "pending" || st.PR.MergeState == "unknown":
		why = CadencePending
	}
	return full, last.Add(every), why
}

// decideProbe is Decide for a result probes stand in for: a full run when
// due, the clock stepped back or the template needs more fields; a probe
// when due or the user's git command asked for one; else fresh.
func decideProbe(in DecideInput) Decision {
	full, probe, _ := probeDue(in)
	switch {
	case in.Now.Before(in.State.CheckedAt) || !in.Now.Before(full) || !hasFields(in.State, in.Fields):
		return Decision{Run: true}
	case in.State.Probe.Wanted || !in.Now.Before(probe):
		return Decision{Run: true, Probe: true}
	}
	return Decision{Reason: ReasonFresh}
}

// NextProbe is when the render path will next probe or refresh st, and
// why (a cadence reason); zero when probes do not apply.
func NextProbe(in DecideInput) (time.Time, string) {
	st := in.State
	if !probing(in) {
		if in.NoProbes && in.Policy.Kind == KindPR && st != nil && st.Probe != nil {
			return time.Time{}, CadenceFallback
		}
		return time.Time{}, ""
	}
	if st.Probe.Wanted {
		return in.Now, CadenceWanted
	}
	full, probe, why := probeDue(in)
	if full.Before(probe) {
		probe = full
	}
	return probe, why
}

// ApplyProbeInput is one finished probe that saw no change, or whose
// answer was a baseline: the result stands, and the probe is recorded.
type ApplyProbeInput struct {
	State *ChipState
	// Targets are the ETags the probe learned (in the stored order).
	Targets []ProbeTarget
	Answer  string
	Now     time.Time
}

// ApplyProbe records a probe that did not need `gh pr view`: the chip's
// result is unchanged, and so are its backoff and validation.
func ApplyProbe(in ApplyProbeInput) {
	p := in.State.Probe
	if p == nil {
		return
	}
	p.At, p.Answer, p.Wanted = in.Now, in.Answer, false
	if in.Targets != nil {
		p.Targets = in.Targets
	}
	quiet, ignored := p.Quiet, p.Ignored // answers in a row
	p.Quiet, p.Ignored = 0, 0
	switch in.Answer {
	case ProbeUnchanged:
		p.Quiet = quiet + 1
	case ProbeIgnored:
		p.Ignored = ignored + 1
	}
}

// SetProbe records, after a full run, what the next probes ask about:
// targets, with the ETags kept for the same resources or learned by the
// probe that saw the change (none for a new resource: the first probe
// learns it). A run that found no probe target drops the probe.
func SetProbe(st *ChipState, host string, paths []string, learned []ProbeTarget, answer string, now time.Time) {
	if host == "" || len(paths) == 0 || st.Outcome == nil || st.Outcome.Class != classify.Validated {
		if st.Outcome == nil || st.Outcome.Class != classify.Retryable {
			st.Probe = nil
		}
		return
	}
	old := st.Probe
	p := &Probe{Host: host, At: now, Answer: answer}
	if answer == "" { // no probe ran before this full run
		p.At = time.Time{}
		if old != nil {
			p.At, p.Answer = old.At, old.Answer
		}
	}
	etags := map[string]string{}
	if old != nil && strings.EqualFold(old.Host, host) {
		p.Ignored = old.Ignored
		if answer != ProbeChanged {
			p.Quiet = old.Quiet
		}
		for _, o := range old.Targets {
			etags[o.Path] = o.ETag
		}
	}
	for _, l := range learned {
		if l.ETag != "" {
			etags[l.Path] = l.ETag
		}
	}
	for _, path := range paths[:min(len(paths), MaxProbeTargets)] {
		p.Targets = append(p.Targets, ProbeTarget{Path: path, ETag: etags[path]})
	}
	st.Probe = p
}

// ValidProbePath accepts the paths the engine builds, repos/OWNER/REPO/
// then pulls/N, pulls?head=OWNER:BRANCH&state=all (query-escaped),
// git/ref/heads/BRANCH or commits/SHA/check-runs or /status, so a planted
// state file can put nothing else on gh's command line.
func ValidProbePath(p string) bool {
	if len(p) > 600 || !strings.HasPrefix(p, "repos/") ||
		strings.ContainsFunc(p, func(c rune) bool { return c <= ' ' || c > '~' || c == '\\' || c == '#' }) {
		return false
	}
	parts := strings.SplitN(p, "/", 4)
	if len(parts) != 4 || !repo.ValidNWO(parts[1]+"/"+parts[2]) {
		return false
	}
	rest := parts[3]
	switch {
	case strings.HasPrefix(rest, "pulls/"):
		n := rest[len("pulls/"):]
		return n != "" && len(n) <= 12 && only(n, digits)
	case strings.HasPrefix(rest, "pulls?head="):
		return strings.HasSuffix(rest, "&state=all") && !strings.Contains(strings.TrimSuffix(rest[len("pulls?head="):], "&state=all"), "&")
	case strings.HasPrefix(rest, "git/ref/heads/"):
		name := rest[len("git/ref/heads/"):]
		return name != "" && !strings.Contains(name, "..") && !strings.HasPrefix(name, "/") && !strings.HasSuffix(name, "/") &&
			only(name, letters+digits+"-_./")
	case strings.HasPrefix(rest, "commits/"):
		sha, tail, _ := strings.Cut(rest[len("commits/"):], "/")
		return len(sha) >= 7 && len(sha) <= 64 && only(sha, digits+"abcdef") && (tail == "check-runs" || tail == "status")
	}
	return false
}

// ValidETag accepts an entity tag as servers send them ("…" or W/"…"),
// printable and short: it goes back to gh as a header.
func ValidETag(s string) bool {
	return len(s) <= 200 && !strings.ContainsFunc(s, func(c rune) bool { return c < ' ' || c > '~' })
}

// validHost accepts a host name gh could be given with --hostname.
func validHost(h string) bool {
	return h != "" && len(h) <= 253 && !strings.HasPrefix(h, "-") && only(h, letters+digits+"-.:")
}

const (
	digits  = "0123456789"
	letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
)

// only reports whether every character of s is in set.
func only(s, set string) bool { return strings.Trim(s, set) == "" }
