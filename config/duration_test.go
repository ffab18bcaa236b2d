package config

import (
	"testing"
	"time"
)

var durationCases = []string{
	"0", "-0", "+0", "5s", "1m30s", "1h", "1.5s", ".5s", "5.s", "500ms", "1us", "1µs", "1μs", "1ns", "1h2m3s4ms5us6ns",
	"", " ", "s", "5", "5 s", "-5s", "+5s", "1.s5", ".", ".s", "1..5s", "1d", "1S", "9223372036854775807ns",
	"9223372036854775808ns", "-9223372036854775808ns", "-9223372036854775809ns", "2562047h47m16.854775807s",
	"2562047h47m16.854775808s", "0.000000001s", "0.0000000001s", "1.00000000000000000000000000001s", "3000000h",
	"1e3s", "0x10s", "00001s", "1h-1m",
}

func checkDuration(t *testing.T, s string) {
	want, werr := time.ParseDuration(s)
	got, gerr := parseDuration(s)
	if (werr == nil) != (gerr == nil) || got != want {
		t.Errorf("%q: time.ParseDuration %v %v, parseDuration %v %v", s, want, werr, got, gerr)
	}
}

func TestDurationMatchesTime(t *testing.T) {
	for _, s := range durationCases {
		checkDuration(t, s)
	}
}

func FuzzDurationMatchesTime(f *testing.F) {
	for _, s := range durationCases {
		f.Add(s)
	}
	f.Fuzz(checkDuration)
}
