package chip

import (
	"testing"
	"time"
)

// Relative rounds to one unit and says which way.
func TestRelative(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                           "now",
		400 * time.Millisecond:      "now",
		9 * time.Second:             "in 9 s",
		-99 * time.Second:           "99 s ago",
		100 * time.Second:           "in 2 min",
		9*time.Minute - time.Second: "in 9 min",
		-2 * time.Minute:            "2 min ago",
		3 * time.Hour:               "in 3 h",
		-72 * time.Hour:             "3 days ago",
	} {
		if got := Relative(d); got != want {
			t.Errorf("Relative(%v) = %q, want %q", d, got, want)
		}
	}
}
