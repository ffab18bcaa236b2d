// Package sanitize turns untrusted text (PR titles, branch names, URLs, gh
// output) into text that is safe to store, print and place in a prompt.
//
// Everything that crosses prchip's boundary passes through Text (and, where it
// may carry credentials, Redact) before it is stored or shown; the per-shell
// escapers are the last step before text reaches a prompt variable.
package sanitize

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// MaxDetail bounds an outcome's detail: enough to diagnose, small enough to
// keep the state file tiny.
const MaxDetail = 512

// Text removes everything a terminal could interpret: invalid UTF-8 becomes
// U+FFFD, ESC sequences (CSI, OSC, DCS, SOS, PM, APC and two-byte ones) and
// their C1 forms are dropped whole, other C0/C1 controls and DEL are dropped,
// line breaks and tabs become one space, bidi overrides and isolates are
// dropped. The result is at most max bytes (max <= 0: unbounded), cut on a
// rune boundary.
func Text(s string, max int) string {
	if isPlain(s) {
		if max > 0 && len(s) > max {
			return s[:max]
		}
		return s
	}
	var b strings.Builder
	b.Grow(min(len(s), 4096))
	lastSpace := false
	for i := 0; i < len(s); {
		if max > 0 && b.Len() >= max {
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			// A lone 0x9B byte is C1 CSI in 8-bit terminals: swallow its sequence.
			if s[i] == 0x9b {
				i = skipCSI(s, i+1)
				continue
			}
			i += size
			if size == 0 {
				i++
			}
			r = utf8.RuneError
			size = 0
		} else {
			i += size
		}
		switch {
		case r == 0x1b:
			i = skipEscape(s, i)
			continue
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i)
			continue
		case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // C1 OSC, DCS, SOS, PM, APC
			i = skipString(s, i)
			continue
		case r == '\n' || r == '\t' || r == '\r' || r == '\v' || r == '\f':
			if !lastSpace && b.Len() > 0 {
				if max > 0 && b.Len()+1 > max {
					i = len(s)
					continue
				}
				b.WriteByte(' ')
				lastSpace = true
			}
			continue
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			continue
		case isBidiControl(r):
			continue
		}
		n := utf8.RuneLen(r)
		if max > 0 && b.Len()+n > max {
			break
		}
		b.WriteRune(r)
		lastSpace = r == ' '
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII only, the overwhelmingly
// common case, which then needs no copy.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

func isBidiControl(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, // LRE RLE PDF LRO RLO
		r >= 0x2066 && r <= 0x2069,                // LRI RLI FSI PDI
		r == 0x200e || r == 0x200f || r == 0x061c: // LRM RLM ALM
		return true
	}
	return false
}

// skipEscape skips the sequence that follows an ESC at s[i-1].
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// Intermediate bytes (0x20-0x2F) then one final byte, e.g. ESC ( B.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips parameter and intermediate bytes and the final byte.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		i++
		if c >= 0x40 && c <= 0x7e {
			return i
		}
		if c < 0x20 || c > 0x3f && c < 0x40 || c >= 0x7f {
			// Not a CSI byte: the sequence is broken; stop here.
			return i
		}
	}
	return i
}

// skipString skips an OSC/DCS/SOS/PM/APC body up to BEL, ESC \ or C1 ST,
// or to the end of the text when it is unterminated.
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i + 1
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c: // U+009C ST
			return i + 2
		case s[i] == 0x9c:
			return i + 1
		}
		i++
	}
	return i
}

// Detail makes gh's stderr fit for storage and display: sanitized, tokens
// redacted, lines joined, at most MaxDetail bytes.
func Detail(s string) string {
	s = strings.TrimSpace(Redact(s))
	return strings.TrimSpace(Text(s, MaxDetail))
}

// Redacted replaces every secret Redact finds.
const Redacted = "[REDACTED]"

var (
	redactOnce sync.Once
	tokenRE    *regexp.Regexp
	userinfoRE *regexp.Regexp
	authzRE    *regexp.Regexp
)

func compileRedactors() {
	// GitHub's token formats (classic, OAuth, user-to-server, server-to-server,
	// refresh, fine-grained) plus old-style installation tokens.
	tokenRE = regexp.MustCompile(`(?:gh[pousr]_[A-Za-z0-9_]{8,}|github_pat_[A-Za-z0-9_]{8,}|\bv1\.[0-9a-f]{40}\b)`)
	// Credentials inside URLs: scheme://user:secret@host or scheme://token@host.
	userinfoRE = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)([^/\s@]+)@`)
	authzRE = regexp.MustCompile(`(?i)((?:authorization|bearer|token|password)(?:\s*[:=]\s*|\s+))(?:(?:token|bearer|basic)\s+)?[A-Za-z0-9_\-.=+/]{20,}`)
}

// Redact removes tokens and URL credentials. It is cheap enough for every
// stored string but is kept off the render path, which only prints text that
// was redacted when it was stored.
func Redact(s string) string {
	if !mayHoldSecret(s) {
		return s
	}
	redactOnce.Do(compileRedactors)
	s = tokenRE.ReplaceAllString(s, Redacted)
	s = userinfoRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := userinfoRE.FindStringSubmatch(m)
		user := sub[2]
		// A bare short user name such as ssh's "git@" is no secret.
		if !strings.Contains(user, ":") && len(user) < 20 && !strings.Contains(user, Redacted) {
			return m
		}
		return sub[1] + Redacted + "@"
	})
	s = authzRE.ReplaceAllString(s, "${1}"+Redacted)
	return s
}

func mayHoldSecret(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "_") || strings.Contains(l, "@") || strings.Contains(l, "v1.") ||
		strings.Contains(l, "token") || strings.Contains(l, "authorization") || strings.Contains(l, "bearer") || strings.Contains(l, "password")
}
