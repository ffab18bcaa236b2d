package main

import (
	"testing"
	"time"
)

// The simulated day through the real engine: the chip is back within the
// offline backoff's cap (and a prompt's gap) after the outage, and a
// settled repository costs a fraction of an open one.
func TestSimulatedDay(t *testing.T) {
	sc := defaultScenario()
	sc.hours = 5
	r, err := simulate(sc)
	if err != nil {
		t.Fatal(err)
	}
	if r.total == 0 || r.perHour[0] == 0 {
		t.Fatalf("no gh runs counted: %+v", r)
	}
	// About 2 minutes (SPEC 4), and a prompt's gap.
	if r.backAfter > 2*time.Minute+10*time.Second {
		t.Errorf("chip back %v after the outage, want at most about 2 min", r.backAfter)
	}
	// The outage hour costs less than a normal one, though it retries
	// sooner than a normal failure would.
	if r.perHour[3] >= r.perHour[1] {
		t.Errorf("outage hour %d runs, normal hour %d", r.perHour[3], r.perHour[1])
	}
}
