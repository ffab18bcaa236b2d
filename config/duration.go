package config

import (
	"errors"
	"time"
)

var errDuration = errors.New("invalid duration")

// parseDuration is time.ParseDuration's grammar and results: a signed
// sequence of decimal numbers, each with an optional fraction and a unit
// (ns, us, µs, μs, ms, s, m, h), or "0". It exists because calling
// time.ParseDuration links its unit table, a map built at start-up by every
// process, prompt renders included. FuzzDurationMatchesTime holds it to the
// original.
func parseDuration(s string) (time.Duration, error) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "0" {
		return 0, nil
	}
	if s == "" {
		return 0, errDuration
	}
	var total uint64
	for s != "" {
		if !(s[0] == '.' || '0' <= s[0] && s[0] <= '9') {
			return 0, errDuration
		}
		// The integer part.
		pl := len(s)
		v, rest, ok := leadingInt(s)
		if !ok {
			return 0, errDuration
		}
		s = rest
		pre := pl != len(s)
		// The fraction.
		var f uint64
		scale := 1.0
		post := false
		if s != "" && s[0] == '.' {
			s = s[1:]
			pl := len(s)
			f, scale, s = leadingFraction(s)
			post = pl != len(s)
		}
		if !pre && !post {
			return 0, errDuration // "." alone
		}
		// The unit.
		i := 0
		for ; i < len(s); i++ {
			if c := s[i]; c == '.' || '0' <= c && c <= '9' {
				break
			}
		}
		if i == 0 {
			return 0, errDuration // missing unit
		}
		unit, ok := unitOf(s[:i])
		if !ok {
			return 0, errDuration
		}
		s = s[i:]
		if v > 1<<63/unit {
			return 0, errDuration
		}
		v *= unit
		if f > 0 {
			v += uint64(float64(f) * (float64(unit) / scale))
			if v > 1<<63 {
				return 0, errDuration
			}
		}
		total += v
		if total > 1<<63 {
			return 0, errDuration
		}
	}
	if neg {
		return -time.Duration(total), nil
	}
	if total > 1<<63-1 {
		return 0, errDuration
	}
	return time.Duration(total), nil
}

func unitOf(u string) (uint64, bool) {
	switch u {
	case "ns":
		return uint64(time.Nanosecond), true
	case "us", "µs", "μs":
		return uint64(time.Microsecond), true
	case "ms":
		return uint64(time.Millisecond), true
	case "s":
		return uint64(time.Second), true
	case "m":
		return uint64(time.Minute), true
	case "h":
		return uint64(time.Hour), true
	}
	return 0, false
}

// leadingInt consumes leading digits; ok is false on overflow.
func leadingInt(s string) (x uint64, rest string, ok bool) {
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			break
		}
		if x > 1<<63/10 {
			return 0, "", false
		}
		x = x*10 + uint64(c) - '0'
		if x > 1<<63 {
			return 0, "", false
		}
	}
	return x, s[i:], true
}

// leadingFraction consumes leading digits as a fraction x/scale, ignoring
// digits beyond what fits.
func leadingFraction(s string) (x uint64, scale float64, rest string) {
	i := 0
	scale = 1
	overflow := false
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			break
		}
		if overflow {
			continue
		}
		if x > (1<<63-1)/10 {
			overflow = true
			continue
		}
		y := x*10 + uint64(c) - '0'
		if y > 1<<63 {
			overflow = true
			continue
		}
		x = y
		scale *= 10
	}
	return x, scale, s[i:]
}
