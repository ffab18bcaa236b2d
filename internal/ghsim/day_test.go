package main

import (
	"slices"
	"testing"
	"time"
)

// TestDayWithinBudget runs the simulated day (seed 1) with both templates
// and holds it to issue #26's limits: GraphQL points an hour (60 default,
// 90 rich), at most 60 counted REST requests an hour, the chip back within
// 2 minutes after the outage, every git/gh command line refreshed for at
// the next prompt, and a title change by someone else shown within the
// freshness period (median). The clock is virtual: nothing here is timed.
func TestDayWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("a simulated day takes seconds")
	}
	for _, c := range []struct {
		format string
		points float64
	}{{"", 60}, {richFormat, 90}} {
		sc := defaultScenario()
		sc.format = c.format
		r, err := simulate(sc)
		if err != nil {
			t.Fatal(err)
		}
		per := func(n int) float64 { return float64(n) / float64(sc.hours) }
		if per(r.points) > c.points || per(r.restCounted) > 60 {
			t.Errorf("format %q: %.0f GraphQL points and %.0f counted REST requests an hour, want at most %.0f and 60",
				c.format, per(r.points), per(r.restCounted), c.points)
		}
		if r.backAfter > 2*time.Minute {
			t.Errorf("format %q: chip back %v after the outage", c.format, r.backAfter)
		}
		if r.atOnce+r.inBackoff != r.commands || r.inBackoff != 0 {
			t.Errorf("format %q: of %d git/gh command lines %d refreshed at once, %d waited for a backoff", c.format, r.commands, r.atOnce, r.inBackoff)
		}
		late := slices.Clone(r.late["title changed by someone else"])
		slices.Sort(late)
		if len(late) == 0 || late[len(late)/2] > 30*time.Second {
			t.Errorf("format %q: title changes shown after %v", c.format, late)
		}
	}
}
