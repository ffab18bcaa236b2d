package state

import (
	"strconv"
	"testing"
	"time"

	"github.com/prchip/prchip/chip/classify"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func TestShouldCacheFailureFingerprint(t *testing.T) {
	pr := Policy{Name: "pr", Kind: KindPR}
	shell := Policy{Name: "x", Kind: KindShell}
	shellSup := Policy{Name: "x", Kind: KindShell, SuppressOnFailure: true}
	cases := []struct {
		name string
		p    Policy
		o    classify.Outcome
		want bool
	}{
		{"pr validated", pr, classify.Outcome{Class: classify.Validated}, false},
		{"pr auth failure", pr, classify.Outcome{Class: classify.AuthFailure}, true},
		{"pr retryable network", pr, classify.Outcome{Class: classify.Retryable, Category: classify.CatNetwork}, false},
		{"pr timeout", pr, classify.Outcome{Class: classify.Retryable, Category: classify.CatTimeout, TimedOut: true}, false},
		{"pr rate limit", pr, classify.Outcome{Class: classify.Retryable, Category: classify.CatRateLimited}, false},
		{"pr missing gh", pr, classify.Outcome{Class: classify.MissingGh}, false},
		{"pr not applicable", pr, classify.Outcome{Class: classify.NotApplicable}, false},
		{"shell success", shellSup, classify.Outcome{Class: classify.Validated}, false},
		{"shell failure suppress", shellSup, classify.Outcome{Class: classify.Retryable, Category: classify.CatCommandFailed}, true},
		{"shell timeout suppress", shellSup, classify.Outcome{Class: classify.Retryable, Category: classify.CatTimeout, TimedOut: true}, true},
		{"shell failure no suppress", shell, classify.Outcome{Class: classify.Retryable}, false},
		{"shell timeout no suppress", shell, classify.Outcome{Class: classify.Retryable, TimedOut: true}, false},
	}
	for _, c := range cases {
		if got := ShouldCacheFailureFingerprint(c.p, &c.o); got != c.want {
			t.Errorf("%s: got %v want %v", c.name, got, c.want)
		}
	}
}

// TestApplyTable is SPEC 4's table, row by row.
func TestApplyTable(t *testing.T) {
	pr := Policy{Name: "pr", Kind: KindPR, RefreshInterval: 30 * time.Second}
	const fp, other = "fp-now", "fp-old"
	type want struct {
		validation Validation
		failureFP  string
		pr         bool
		failures   int
		backoff    bool
	}
	cases := []struct {
		name  string
		start Global
		st    ChipState
		o     classify.Outcome
		want  want
	}{
		{"validated clears own cached failure", Global{Validation: Suppressed, SuppressedSetup: "s"},
			ChipState{FailureFP: fp, Fingerprint: fp, Failures: 3, NextAttempt: t0.Add(time.Hour)},
			classify.Outcome{Class: classify.Validated, PR: &classify.PR{Number: 1}}, want{SetupValidated, "", true, 0, false}},
		{"validated keeps another fingerprint's failure", Global{}, ChipState{FailureFP: other},
			classify.Outcome{Class: classify.Validated}, want{SetupValidated, other, false, 0, false}},
		{"auth failure suppresses and caches", Global{Validation: SetupValidated}, ChipState{PR: &classify.PR{Number: 2}},
			classify.Outcome{Class: classify.AuthFailure}, want{Suppressed, fp, false, 0, false}},
		{"retryable leaves validation, clears own failure", Global{Validation: SetupValidated}, ChipState{FailureFP: fp, Fingerprint: fp, Failures: 1, PR: &classify.PR{Number: 2}},
			classify.Outcome{Class: classify.Retryable}, want{SetupValidated, "", false, 2, true}},
		{"retryable never suppresses unvalidated", Global{}, ChipState{},
			classify.Outcome{Class: classify.Retryable}, want{"", "", false, 1, true}},
		{"retryable under a new fingerprint restarts the count", Global{}, ChipState{Fingerprint: other, Failures: 5},
			classify.Outcome{Class: classify.Retryable}, want{"", "", false, 1, true}},
		{"missing gh suppresses, failure fp unchanged", Global{Validation: SetupValidated}, ChipState{FailureFP: other},
			classify.Outcome{Class: classify.MissingGh}, want{Suppressed, other, false, 0, false}},
		{"not applicable changes nothing", Global{Validation: SetupValidated}, ChipState{FailureFP: fp, PR: &classify.PR{Number: 1}},
			classify.Outcome{Class: classify.NotApplicable}, want{SetupValidated, fp, false, 0, false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, st, o := c.start, c.st, c.o
			Apply(ApplyInput{Policy: pr, Global: &g, State: &st, Outcome: &o, Fingerprint: fp, SetupID: "setup", Now: t0, Rand: func() float64 { return 0.5 }})
			if g.Validation != c.want.validation {
				t.Errorf("validation %q want %q", g.Validation, c.want.validation)
			}
			if g.Validation == Suppressed && g.SuppressedSetup != "setup" {
				t.Errorf("suppressed without the setup identity: %q", g.SuppressedSetup)
			}
			if st.FailureFP != c.want.failureFP {
				t.Errorf("failure fp %q want %q", st.FailureFP, c.want.failureFP)
			}
			if (st.PR != nil) != c.want.pr {
				t.Errorf("pr %+v", st.PR)
			}
			if st.Failures != c.want.failures {
				t.Errorf("failures %d want %d", st.Failures, c.want.failures)
			}
			if (!st.NextAttempt.IsZero()) != c.want.backoff {
				t.Errorf("next attempt %v", st.NextAttempt)
			}
			if st.Fingerprint != fp || !st.CheckedAt.Equal(t0) {
				t.Errorf("bookkeeping %+v", st)
			}
		})
	}
}

func TestDecideTable(t *testing.T) {
	pr := Policy{Name: "pr", Kind: KindPR, RefreshInterval: 30 * time.Second, SettledInterval: 5 * time.Minute}
	fresh := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-10 * time.Second), Outcome: &classify.Outcome{Class: classify.Validated}}
	stale := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-40 * time.Second), Outcome: &classify.Outcome{Class: classify.Validated}, PR: &classify.PR{State: "open"}}
	backing := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-40 * time.Second), Outcome: &classify.Outcome{Class: classify.Retryable}, NextAttempt: t0.Add(time.Minute)}
	cached := &ChipState{Fingerprint: "fp", FailureFP: "fp", Outcome: &classify.Outcome{Class: classify.AuthFailure}}
	missing := &ChipState{Fingerprint: "fp", Outcome: &classify.Outcome{Class: classify.MissingGh}}
	// Settled results: no PR, merged, closed (an open one is stale).
	noPR := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-4 * time.Minute), Outcome: &classify.Outcome{Class: classify.Validated}}
	merged := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-4 * time.Minute), Outcome: &classify.Outcome{Class: classify.Validated}, PR: &classify.PR{State: "merged"}}
	closed := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-4 * time.Minute), Outcome: &classify.Outcome{Class: classify.Validated}, PR: &classify.PR{State: "closed"}}
	open := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-4 * time.Minute), Outcome: &classify.Outcome{Class: classify.Validated}, PR: &classify.PR{State: "open"}}
	settledLong := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-6 * time.Minute), Outcome: &classify.Outcome{Class: classify.Validated}}
	// Stored times from a clock that has since stepped back.
	farBackoff := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-40 * time.Second), Outcome: &classify.Outcome{Class: classify.Retryable}, NextAttempt: t0.Add(11 * time.Minute)}
	farOffline := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-40 * time.Second), Outcome: &classify.Outcome{Class: classify.Retryable, Category: classify.CatOffline}, NextAttempt: t0.Add(3 * time.Minute)}
	rateLimited := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-40 * time.Second), Outcome: &classify.Outcome{Class: classify.Retryable, RetryAt: t0.Add(50 * time.Minute)}, NextAttempt: t0.Add(50 * time.Minute)}
	farRateLimit := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-40 * time.Second), Outcome: &classify.Outcome{Class: classify.Retryable, RetryAt: t0.Add(3 * time.Hour)}, NextAttempt: t0.Add(3 * time.Hour)}
	withFields := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-10 * time.Second), Outcome: &classify.Outcome{Class: classify.Validated}, Fields: []string{"number", "title", "url"}}
	futureCheck := &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(time.Hour), Outcome: &classify.Outcome{Class: classify.Validated}}
	cases := []struct {
		name   string
		in     DecideInput
		run    bool
		reason string
	}{
		{"never run", DecideInput{Mode: "auto"}, true, ""},
		{"fresh", DecideInput{Mode: "auto", State: fresh}, false, ReasonFresh},
		{"stale", DecideInput{Mode: "auto", State: stale}, true, ""},
		{"new fingerprint is stale at once", DecideInput{Mode: "auto", State: fresh, Fingerprint: "fp2"}, true, ""},
		{"backoff", DecideInput{Mode: "auto", State: backing}, false, ReasonBackoff},
		{"foreground ignores freshness", DecideInput{Mode: "auto", State: fresh, Foreground: true}, true, ""},
		{"foreground ignores backoff", DecideInput{Mode: "auto", State: backing, Foreground: true}, true, ""},
		{"suppressed auto", DecideInput{Mode: "auto", Validation: Suppressed}, false, ReasonSuppressed},
		{"suppressed foreground still skips", DecideInput{Mode: "auto", Validation: Suppressed, Foreground: true}, false, ReasonSuppressed},
		{"suppressed always runs", DecideInput{Mode: "always", Validation: Suppressed}, true, ""},
		{"failure cached", DecideInput{Mode: "always", State: cached}, false, ReasonFailureCached},
		{"failure cached other fp", DecideInput{Mode: "auto", State: cached, Fingerprint: "fp2"}, true, ""},
		{"force ignores cache", DecideInput{Mode: "auto", State: cached, Validation: Suppressed, Foreground: true, Force: true}, true, ""},
		{"missing gh same setup", DecideInput{Mode: "always", State: missing}, false, ReasonMissingGh},
		{"off", DecideInput{Mode: "off"}, false, ReasonModeOff},
		{"no PR is settled", DecideInput{Mode: "auto", State: noPR}, false, ReasonFresh},
		{"merged is settled", DecideInput{Mode: "auto", State: merged}, false, ReasonFresh},
		{"closed is settled", DecideInput{Mode: "auto", State: closed}, false, ReasonFresh},
		{"open is not settled", DecideInput{Mode: "auto", State: open}, true, ""},
		{"settled runs out", DecideInput{Mode: "auto", State: settledLong}, true, ""},
		{"settled, new fingerprint", DecideInput{Mode: "auto", State: noPR, Fingerprint: "fp2"}, true, ""},
		{"backoff beyond 10 min not trusted", DecideInput{Mode: "auto", State: farBackoff}, true, ""},
		{"offline backoff beyond 2 min not trusted", DecideInput{Mode: "auto", State: farOffline}, true, ""},
		{"rate limit reset honoured", DecideInput{Mode: "auto", State: rateLimited}, false, ReasonBackoff},
		{"rate limit beyond an hour not trusted", DecideInput{Mode: "auto", State: farRateLimit}, true, ""},
		{"check in the future not trusted", DecideInput{Mode: "auto", State: futureCheck}, true, ""},
		{"fresh with the fields needed", DecideInput{Mode: "auto", State: withFields, Fields: []string{"number", "title"}}, false, ReasonFresh},
		{"fresh, a needed field not asked: stale", DecideInput{Mode: "auto", State: withFields, Fields: []string{"number", "reviewDecision"}}, true, ""},
		{"settled, a needed field not asked: stale", DecideInput{Mode: "auto", State: noPR, Fields: []string{"number"}}, true, ""},
		{"backoff holds whatever the fields", DecideInput{Mode: "auto", State: backing, Fields: []string{"reviewDecision"}}, false, ReasonBackoff},
	}
	for _, c := range cases {
		c.in.Policy, c.in.Now = pr, t0
		if c.in.Fingerprint == "" {
			c.in.Fingerprint = "fp"
		}
		if c.in.Validation == "" {
			c.in.Validation = Unvalidated
		}
		d := Decide(c.in)
		if d.Run != c.run || d.Reason != c.reason {
			t.Errorf("%s: got %+v want run=%v reason=%q", c.name, d, c.run, c.reason)
		}
	}
}

// While GitHub has not computed the merge state (UNKNOWN, as right after
// a push), an open PR's result stays fresh for MergeRecheck only, for at
// most MaxRechecks results in a row; then the usual interval holds.
func TestMergeStateUnknownRecheckedSoon(t *testing.T) {
	pr := Policy{Name: "pr", Kind: KindPR, RefreshInterval: 30 * time.Second, SettledInterval: 5 * time.Minute}
	st := func(age time.Duration, merge string, rechecks int) *ChipState {
		return &ChipState{Fingerprint: "fp", CheckedAt: t0.Add(-age), Outcome: &classify.Outcome{Class: classify.Validated},
			PR: &classify.PR{State: "open", MergeState: merge}, Rechecks: rechecks}
	}
	for _, c := range []struct {
		name string
		st   *ChipState
		run  bool
	}{
		{"unknown, checked 6 s ago", st(6*time.Second, "unknown", 1), true},
		{"unknown, checked 3 s ago", st(3*time.Second, "unknown", 1), false},
		{"unknown the third time", st(6*time.Second, "unknown", MaxRechecks), true},
		{"unknown too often: the usual interval", st(6*time.Second, "unknown", MaxRechecks+1), false},
		{"known, checked 6 s ago", st(6*time.Second, "clean", 0), false},
	} {
		d := Decide(DecideInput{Policy: pr, Mode: "auto", Validation: Unvalidated, State: c.st, Fingerprint: "fp", Now: t0})
		if d.Run != c.run {
			t.Errorf("%s: run %v, want %v", c.name, d.Run, c.run)
		}
	}
	// Apply counts unknown results in a row, under one fingerprint.
	s := &ChipState{}
	apply := func(fp, merge string) {
		Apply(ApplyInput{Policy: pr, Global: &Global{}, State: s, Fingerprint: fp, Now: t0,
			Outcome: &classify.Outcome{Class: classify.Validated, PR: &classify.PR{Number: 1, State: "open", MergeState: merge}}})
	}
	for i, step := range []struct {
		fp, merge string
		want      int
	}{{"fp", "unknown", 1}, {"fp", "unknown", 2}, {"fp", "clean", 0}, {"fp", "unknown", 1}, {"fp2", "unknown", 1}, {"fp2", "", 0}} {
		apply(step.fp, step.merge)
		if s.Rechecks != step.want {
			t.Errorf("step %d (%s %q): rechecks %d, want %d", i, step.fp, step.merge, s.Rechecks, step.want)
		}
	}
}

func TestBackoffBounds(t *testing.T) {
	for _, r := range []float64{0, 0.5, 0.999} {
		prev := time.Duration(0)
		for n := 1; n <= 12; n++ {
			d := Backoff(n, nil, func() float64 { return r })
			if d < 24*time.Second || d > BackoffMax {
				t.Fatalf("n=%d r=%v: %v out of bounds", n, r, d)
			}
			if r == 0.5 && d < prev {
				t.Fatalf("backoff shrank at n=%d", n)
			}
			prev = d
		}
	}
	if d := Backoff(1, nil, func() float64 { return 0.5 }); d != BackoffBase {
		t.Errorf("first backoff %v", d)
	}
	if d := Backoff(20, nil, func() float64 { return 0.5 }); d != BackoffMax {
		t.Errorf("capped backoff %v", d)
	}
	// Failures that cost GitHub nothing come back within about 2 minutes.
	offline := &classify.Outcome{Class: classify.Retryable, Category: classify.CatOffline}
	for n := 1; n <= 12; n++ {
		for _, r := range []float64{0, 0.999} {
			if d := Backoff(n, offline, func() float64 { return r }); d > OfflineMax {
				t.Fatalf("offline n=%d: %v", n, d)
			}
		}
	}
	if d := Backoff(20, offline, func() float64 { return 0.5 }); d != OfflineMax {
		t.Errorf("offline cap %v", d)
	}
	// SPEC 4: failures that cost GitHub nothing wait at most about 2
	// minutes, the others up to 10.
	if OfflineMax > 2*time.Minute || BackoffMax != 10*time.Minute {
		t.Errorf("bounds %v and %v, the spec says about 2 min and 10 min", OfflineMax, BackoffMax)
	}
}

func TestSuppressionLiftedBySetupChange(t *testing.T) {
	g := Global{Validation: Suppressed, SuppressedSetup: "a"}
	if g.Effective("a") != Suppressed || g.Effective("b") != Unvalidated {
		t.Fatal("suppression not tied to the setup identity")
	}
}

// Results are kept per auth setup: a second setup's result does not push
// the first's out, a setup without one sees the latest of another (shown
// while it is checked again), shell chips are found under any setup, and
// the bounds hold (MaxAuthSetups per branch, MaxBranches branches).
func TestResultsPerAuthSetup(t *testing.T) {
	var rs RepoState
	rs.PutChip("feature", "", "auth-a", "pr").Fingerprint = "fp-a"
	rs.PutChip("feature", "", "auth-b", "pr").Fingerprint = "fp-b"
	rs.PutChip("feature", "", "auth-a", "k8s").Value = "ctx"
	for _, c := range []struct {
		auth, name, want string
	}{
		{"auth-a", "pr", "fp-a"},
		{"auth-b", "pr", "fp-b"},
		{"auth-c", "pr", "fp-a"}, // none of its own: the most recent entry (auth-a, written last) stands in
		{"auth-b", "k8s", ""},    // checked by Value below
	} {
		st := rs.Chip("feature", "", c.auth, c.name)
		if st == nil || st.Fingerprint != c.want {
			t.Errorf("Chip(%s, %s) = %+v, want fingerprint %q", c.auth, c.name, st, c.want)
		}
	}
	if st := rs.Chip("feature", "", "auth-b", "k8s"); st == nil || st.Value != "ctx" {
		t.Errorf("the shell chip under another setup: %+v", st)
	}
	if st := rs.ExactChip("feature", "", "auth-c", "pr"); st != nil {
		t.Errorf("ExactChip found %+v for a setup with no result", st)
	}
	if st := rs.Chip("other", "", "auth-a", "pr"); st != nil {
		t.Errorf("another branch has %+v", st)
	}

	for i := range MaxAuthSetups + 2 {
		rs.PutChip("feature", "", "auth-"+strconv.Itoa(i), "pr")
	}
	n := 0
	for _, b := range rs.Branches {
		if b.Branch == "feature" {
			n++
		}
	}
	if n != MaxAuthSetups {
		t.Errorf("%d setups kept for one branch, want %d", n, MaxAuthSetups)
	}
	for i := range MaxBranches + 2 {
		for _, auth := range []string{"a", "b"} {
			rs.PutChip("b"+strconv.Itoa(i), "", auth, "pr")
		}
	}
	branches := map[string]bool{}
	for _, b := range rs.Branches {
		branches[b.Branch] = true
	}
	if len(branches) != MaxBranches || len(rs.Branches) != 2*MaxBranches || rs.Branches[0].Branch != "b"+strconv.Itoa(MaxBranches+1) {
		t.Errorf("%d branches in %d entries kept, first %q", len(branches), len(rs.Branches), rs.Branches[0].Branch)
	}
	// Decoding applies the same bounds to a record written by hand.
	b, _ := EncodeRepoState(&RepoState{Branches: append(rs.Branches, &BranchState{Branch: "b0", Auth: "x"}, &BranchState{Branch: "b1", Auth: "y"})})
	back, err := DecodeRepoState(b)
	if err != nil || len(back.Branches) != 2*MaxBranches {
		t.Errorf("decoded %d entries (%v), want %d", len(back.Branches), err, 2*MaxBranches)
	}
}
