package state

import (
	"testing"
	"time"

	"github.com/prchip/prchip/chip/classify"
)

// TestDecideCadence is the cadence that follows the PR: probes as often as
// results used to stay fresh for an open PR, rarely for a settled one, at
// once after the user's git command; a full run on the backstop, while the
// merge state is being computed, for missing fields, and wherever probes do
// not apply (a host that ignores conditional requests, a failed result).
func TestDecideCadence(t *testing.T) {
	pol := Policy{Name: "pr", Kind: KindPR, RefreshInterval: 30 * time.Second, SettledInterval: 5 * time.Minute}
	target := []ProbeTarget{{Path: "repos/o/r/pulls/1", ETag: `"e1"`}}
	st := func(checked, probed time.Duration, pr *classify.PR, mod func(*ChipState)) *ChipState {
		s := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-checked), Outcome: &classify.Outcome{Class: classify.Validated},
			PR: pr, Probe: &Probe{Host: "github.com", Targets: target}}
		if probed > 0 {
			s.Probe.At = t0.Add(-probed)
		}
		if mod != nil {
			mod(s)
		}
		return s
	}
	open := &classify.PR{Number: 1, State: "open"}
	pendingPR := &classify.PR{Number: 1, State: "open", Checks: "pending"}
	merged := &classify.PR{Number: 1, State: "merged"}
	unknown := &classify.PR{Number: 1, State: "open", MergeState: "unknown"}
	cases := []struct {
		name         string
		st           *ChipState
		noProbes     bool
		run, probe   bool
		reason, why  string
		nextIn       time.Duration // from t0; -1: no next probe
		fields       []string
		fingerprints string
	}{
		{"open, probed 10 s ago: fresh", st(5*time.Minute, 10*time.Second, open, nil), false, false, false, ReasonFresh, CadenceQuiet, 20 * time.Second, nil, ""},
		{"open, probed 31 s ago: probe", st(5*time.Minute, 31*time.Second, open, nil), false, true, true, "", CadenceQuiet, -31*time.Second + 30*time.Second, nil, ""},
		{"open, full 10 s ago, never probed: fresh", st(10*time.Second, 0, open, nil), false, false, false, ReasonFresh, CadenceQuiet, 20 * time.Second, nil, ""},
		{"pending checks probed as often", st(5*time.Minute, 31*time.Second, pendingPR, nil), false, true, true, "", CadencePending, -time.Second, nil, ""},
		{"open, backstop due: full", st(BackstopOpen, 5*time.Second, open, nil), false, true, false, "", CadenceQuiet, -1, nil, ""},
		{"merged, probed 1 min ago: fresh", st(10*time.Minute, time.Minute, merged, nil), false, false, false, ReasonFresh, CadenceSettled, 4 * time.Minute, nil, ""},
		{"merged, probed 5 min ago: probe", st(10*time.Minute, 5*time.Minute, merged, nil), false, true, true, "", CadenceSettled, 0, nil, ""},
		{"no PR, probed 6 min ago: probe", st(10*time.Minute, 6*time.Minute, nil, nil), false, true, true, "", CadenceSettled, -time.Minute, nil, ""},
		{"no PR, backstop due: full", st(BackstopSettled, time.Minute, nil, nil), false, true, false, "", CadenceSettled, -1, nil, ""},
		{"after git: probe at once", st(5*time.Second, 2*time.Second, open, func(s *ChipState) { s.Probe.Wanted = true }), false, true, true, "", CadenceWanted, 0, nil, ""},
		{"merge state unknown: full soon", st(6*time.Second, 2*time.Second, unknown, func(s *ChipState) { s.Rechecks = 1 }), false, true, false, "", CadencePending, -1, nil, ""},
		{"merge state unknown, checked 2 s ago: due in 3 s", st(2*time.Second, 0, unknown, func(s *ChipState) { s.Rechecks = 1 }), false, false, false, ReasonFresh, CadencePending, 3 * time.Second, nil, ""},
		{"host ignores conditional requests: plain freshness", st(31*time.Second, 0, open, nil), true, true, false, "", CadenceFallback, -1, nil, ""},
		{"host ignores conditional requests, fresh", st(10*time.Second, 0, open, nil), true, false, false, ReasonFresh, CadenceFallback, -1, nil, ""},
		{"a field the template needs: full", st(time.Minute, 10*time.Second, open, nil), false, true, false, "", CadenceQuiet, -1, []string{"reviewDecision"}, ""},
		{"new fingerprint: full", st(time.Minute, 10*time.Second, open, nil), false, true, false, "", CadenceQuiet, -1, nil, "fp2"},
		{"failed result: no probe", st(time.Minute, 10*time.Second, open, func(s *ChipState) { s.Outcome = &classify.Outcome{Class: classify.Retryable} }), false, true, false, "", "", -1, nil, ""},
		{"no probe target: today's freshness", st(time.Minute, 0, open, func(s *ChipState) { s.Probe = nil }), false, true, false, "", "", -1, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fp := "fp"
			if c.fingerprints != "" {
				fp = c.fingerprints
			}
			in := DecideInput{Policy: pol, Mode: "auto", Validation: SetupValidated, State: c.st, Fingerprint: fp, Now: t0, NoProbes: c.noProbes, Fields: c.fields}
			d := Decide(in)
			if d.Run != c.run || d.Probe != c.probe || d.Reason != c.reason {
				t.Errorf("got %+v, want run=%v probe=%v reason=%q", d, c.run, c.probe, c.reason)
			}
			if c.fingerprints != "" || c.fields != nil {
				return
			}
			next, why := NextProbe(in)
			if why != c.why {
				t.Errorf("why %q, want %q", why, c.why)
			}
			if c.nextIn >= 0 && !next.Equal(t0.Add(c.nextIn)) && !(c.run && c.probe && !next.After(t0)) {
				t.Errorf("next probe %v, want %v", next.Sub(t0), c.nextIn)
			}
		})
	}
}

// TestApplyProbe: a probe that saw no change keeps the result, its
// backoff and validation, and counts quiet and ignored answers; the git
// command's wish is spent.
func TestApplyProbe(t *testing.T) {
	s := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-time.Minute), Outcome: &classify.Outcome{Class: classify.Validated},
		PR: &classify.PR{Number: 7, State: "open"}, Probe: &Probe{Host: "h", Targets: []ProbeTarget{{Path: "repos/o/r/pulls/7"}}, Wanted: true}}
	steps := []struct {
		answer         string
		quiet, ignored int
	}{{ProbeBaseline, 0, 0}, {ProbeUnchanged, 1, 0}, {ProbeUnchanged, 2, 0}, {ProbeIgnored, 0, 1}, {ProbeIgnored, 0, 2}, {ProbeUnchanged, 1, 0}}
	for i, step := range steps {
		ApplyProbe(ApplyProbeInput{State: s, Answer: step.answer, Now: t0.Add(time.Duration(i) * time.Second),
			Targets: []ProbeTarget{{Path: "repos/o/r/pulls/7", ETag: `"x"`}}})
		if s.Probe.Quiet != step.quiet || s.Probe.Ignored != step.ignored || s.Probe.Answer != step.answer {
			t.Errorf("step %d: %+v", i, s.Probe)
		}
	}
	if s.Probe.Wanted || s.PR == nil || s.PR.Number != 7 || !s.CheckedAt.Equal(t0.Add(-time.Minute)) || s.Probe.Targets[0].ETag != `"x"` {
		t.Errorf("probe changed the result or kept the wish: %+v %+v", s, s.Probe)
	}
}

// TestSetProbe: after a full run the probe asks about what that run found,
// keeps the ETags of the same resources and those the changed probe
// learned, and is dropped when the run found nothing to ask about.
func TestSetProbe(t *testing.T) {
	s := &ChipState{Outcome: &classify.Outcome{Class: classify.Validated},
		Probe: &Probe{Host: "h", Targets: []ProbeTarget{{Path: "repos/o/r/pulls/7", ETag: `"old"`}, {Path: "repos/o/r/commits/abcdef1/status", ETag: `"s"`}}}}
	SetProbe(s, "h", []string{"repos/o/r/pulls/7", "repos/o/r/commits/1234567/status"}, []ProbeTarget{{Path: "repos/o/r/pulls/7", ETag: `"new"`}}, ProbeChanged, t0)
	if got := s.Probe.Targets; len(got) != 2 || got[0].ETag != `"new"` || got[1].ETag != "" {
		t.Errorf("targets %+v", got)
	}
	SetProbe(s, "", nil, nil, "", t0)
	if s.Probe != nil {
		t.Errorf("a run with nothing to probe kept %+v", s.Probe)
	}
}

// TestFallback: a host that ignored conditional requests gets plain
// refreshes for FallbackFor, then probes again.
func TestFallback(t *testing.T) {
	var g Global
	g.FallBack("GHE.example.com", t0)
	if !g.FallenBack("ghe.example.com", t0.Add(time.Hour)) || g.FallenBack("github.com", t0) {
		t.Fatal("fallback not per host")
	}
	if g.FallenBack("ghe.example.com", t0.Add(FallbackFor)) {
		t.Error("fallback never ends")
	}
}

// TestProbePathsFromStateChecked: paths and ETags come back from a file
// anyone running as the user can edit, and become gh's arguments.
func TestProbePathsFromStateChecked(t *testing.T) {
	for _, c := range []struct {
		path string
		ok   bool
	}{
		{"repos/o/r/pulls/12", true},
		{"repos/o/r/pulls?head=o%3Afeature&state=all", true},
		{"repos/o/r/commits/0123456789abcdef0123456789abcdef01234567/check-runs", true},
		{"repos/o/r/commits/0123456789abcdef/status", true},
		{"repos/o/r/git/ref/heads/release/1.x", true},
		{"repos/o/r/git/ref/heads/a/../../../../user", false},
		{"repos/o/r/git/ref/heads/a b", false},
		{"repos/o/r/pulls/12/../../../user", false},
		{"--hostname=evil", false},
		{"repos/o/r/pulls?head=x&state=all&per_page=1", false},
		{"repos/o/r/commits/zz/status", false},
		{"repos/o/r/issues/1", false},
		{"repos/o/r/pulls/1 2", false},
		{"repos/o/r/pulls/1a", false},
		{"repos/o/r/commits/ABCDEF0/status", false},
		{"repos/o/r/git/ref/heads/a~1", false},
		{"graphql", false},
	} {
		if got := ValidProbePath(c.path); got != c.ok {
			t.Errorf("%q: %v", c.path, got)
		}
	}
	rs, _ := DecodeRepoState([]byte(`{"root":"/x","branches":[{"branch":"b","chips":{"pr":{"fingerprint":"f","probe":{"host":"h","targets":[{"path":"repos/o/r/pulls/1","etag":"\"ok\""},{"path":"-X POST"},{"path":"repos/o/r/pulls/2","etag":"bad\nline"}]}}}}]}`))
	if got := rs.Branches[0].Chips["pr"].Probe.Targets; len(got) != 1 || got[0].Path != "repos/o/r/pulls/1" {
		t.Errorf("planted targets kept: %+v", got)
	}
	for _, host := range []string{"-evil", "evil/../x"} {
		rs, _ = DecodeRepoState([]byte(`{"root":"/x","branches":[{"branch":"b","chips":{"pr":{"fingerprint":"f","probe":{"host":"` + host + `","targets":[{"path":"repos/o/r/pulls/1"}]}}}}]}`))
		if rs.Branches[0].Chips["pr"].Probe != nil {
			t.Errorf("host %q kept: it reads as an option or is no host name", host)
		}
	}
}
