// Package sanitize turns untrusted text (PR titles, branch names, URLs, gh
// output) into text that is safe to store, print and place in a prompt.
//
// Everything that crosses prchip's boundary passes through Text (and, where it
// may carry credentials, Redact) before it is stored or shown; the per-shell
// escapers are the last step before text reaches a prompt variable.
package sanitize

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// MaxDetail bounds an outcome's detail: enough to diagnose, small enough to
// keep the state file tiny.
const MaxDetail = 512

// Text removes everything a terminal could interpret: invalid UTF-8 becomes
// U+FFFD, ESC sequences (CSI, OSC, DCS, SOS, PM, APC and two-byte ones) and
// their C1 forms are dropped whole, other C0/C1 controls and DEL are dropped,
// line breaks and tabs (and U+2028, U+2029) become one space, bidi overrides
// and isolates, every other format character and every other
// default-ignorable character (invisible) are dropped, and so is a
// variation selector that does not follow a non-ASCII character. The result
// is at most max bytes (max <= 0: unbounded), cut on a rune boundary.
func Text(s string, max int) string {
	if isPlain(s) {
		if max > 0 && len(s) > max {
			return s[:max]
		}
		return s
	}
	var b strings.Builder
	b.Grow(min(len(s), 4096))
	prev := rune(0) // the last rune written
	for i := 0; i < len(s); {
		if max > 0 && b.Len() >= max {
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 && s[i] == 0x9b {
			// A lone 0x9B byte is C1 CSI in 8-bit terminals: swallow its sequence.
			i = skipCSI(s, i+1)
			continue
		}
		i += size
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
		case r == '\n' || r == '\t' || r == '\r' || r == '\v' || r == '\f' || r == 0x2028 || r == 0x2029:
			if prev == ' ' || b.Len() == 0 {
				continue
			}
			r = ' ' // written below, within max
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			continue
		case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r):
			// Bidi controls, format and other invisible characters may
			// hide text or split a token. The zero-width joiner goes even
			// inside emoji: shells measure a prompt one code point at a
			// time (zsh counts man ZWJ woman ZWJ girl as 6 columns), so a
			// terminal drawing one glyph of 2 would leave the cursor 4
			// columns off; three emoji are 6 columns for everyone.
			continue
		case unicode.Is(unicode.Variation_Selector, r):
			// A variation sequence is a character and one selector (U+2764
			// U+FE0F, the emoji heart; an ideograph's variant). One after
			// ASCII or another selector only hides bytes (or splits a token).
			if prev < utf8.RuneSelf || unicode.Is(unicode.Variation_Selector, prev) {
				continue
			}
		}
		n := utf8.RuneLen(r)
		if max > 0 && b.Len()+n > max {
			break
		}
		b.WriteRune(r)
		prev = r
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

// skipCSI skips parameter and intermediate bytes (0x20-0x3F) and the
// final byte; any other byte ends a broken sequence too.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		i++
		if c < 0x20 || c >= 0x40 {
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
		case strings.HasPrefix(s[i:], "\x1b\\"), strings.HasPrefix(s[i:], "\u009c"):
			return i + 2
		case s[i] == 0x07, s[i] == 0x1b, s[i] == 0x9c:
			return i + 1
		}
		i++
	}
	return i
}

// Detail makes gh's stderr fit for storage and display: sanitized, tokens
// redacted, lines joined, at most MaxDetail bytes.
func Detail(s string) string {
	return strings.TrimSpace(Text(Redact(s), MaxDetail))
}

// MaxDetailLines bounds the lines DetailLines keeps apart.
const MaxDetailLines = 16

// DetailLines is Detail and where s's lines begin in it (byte offsets but
// the first), so `status` can show gh's multi-line messages as lines while
// the detail stays one line elsewhere (JSON, the state file). The joined
// lines are redacted once more: a secret that spans lines (a keyword at
// one's end, its value on the next) is caught there, and the detail is
// then Detail's, with no lines.
func DetailLines(s string) (string, []int) {
	if !strings.Contains(strings.TrimSpace(s), "\n") {
		return Detail(s), nil
	}
	var b strings.Builder
	var starts []int
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimSpace(Text(Redact(line), 0))
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
			if len(starts) < MaxDetailLines-1 {
				starts = append(starts, b.Len())
			}
		}
		b.WriteString(line)
		if b.Len() >= MaxDetail {
			break
		}
	}
	d := b.String()
	if Redact(d) != d {
		return Detail(s), nil
	}
	d = strings.TrimSpace(Text(d, MaxDetail))
	for len(starts) > 0 && starts[len(starts)-1] >= len(d) {
		starts = starts[:len(starts)-1]
	}
	return d, starts
}

// SplitLines splits a detail at the line starts DetailLines gave, keeping
// only starts that it could have given (ascending, inside d, after a
// space): a planted state file cannot cut a detail elsewhere.
func SplitLines(d string, starts []int) []string {
	var lines []string
	from := 0
	for _, i := range starts {
		if i <= from || i >= len(d) || d[i-1] != ' ' || len(lines) == MaxDetailLines-1 {
			continue
		}
		lines = append(lines, strings.TrimSpace(d[from:i]))
		from = i
	}
	return append(lines, d[from:])
}

// Redacted replaces every secret Redact finds.
const Redacted = "[REDACTED]"

// Redact removes tokens and URL credentials: GitHub's token formats
// (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_, old v1. installation
// tokens), the secret in scheme://user:secret@host and long
// scheme://token@host user names, values after authorization, bearer,
// token or password, and RedactAlso's exact values. Without regexp:
// linking it builds the unicode tables at every process start (0.5 ms).
// Text goes first: a token split by a control is redacted whole, never
// joined back up by a later Text.
func Redact(s string) string {
	s = Text(s, 0)
	var exact []string
	if load := secrets.Load(); load != nil && *load != nil {
		exact = (*load)()
	}
	for _, tok := range exact {
		if tok = Text(tok, 0); len(tok) >= minTokenValue && strings.Contains(s, tok) {
			s = strings.ReplaceAll(s, tok, Redacted)
		}
	}
	if !mayHoldSecret(s) {
		return s
	}
	s = redactTokens(s)
	s = redactUserinfo(s)
	return redactAfterKeywords(s)
}

// secrets loads the exact values Redact removes, kept only in this
// process's memory.
var secrets atomic.Pointer[func() []string]

// RedactAlso makes Redact remove the exact values load returns, such as
// the token variables' and the tokens in gh's hosts.yml, which have no
// prefix to know a legacy token by. load runs at most once, on the first
// Redact, so a command that redacts nothing reads nothing (the render path
// does not call this at all: what it shows was redacted when stored).
func RedactAlso(load func() []string) {
	if load != nil {
		load = sync.OnceValue(load)
	}
	secrets.Store(&load)
}

// minTokenValue is the shortest token variable value redacted as such: a
// test's GH_TOKEN=x must not blank every x.
const minTokenValue = 8

func isTokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// redactTokens replaces GitHub tokens wherever they start.
func redactTokens(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if n := tokenAt(s, i); n > 0 {
			b.WriteString(s[last:i])
			b.WriteString(Redacted)
			i, last = i+n-1, i+n
		}
	}
	return finish(&b, s, last)
}

// finish ends a redaction: s itself when nothing was replaced, else b and s[last:].
func finish(b *strings.Builder, s string, last int) string {
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// tokenAt is the length of a token starting at s[i], or 0.
func tokenAt(s string, i int) int {
	body := func(start, min int) int {
		j := start
		for j < len(s) && isTokenChar(s[j]) {
			j++
		}
		if j-start < min {
			return 0
		}
		return j - i
	}
	rest := s[i:]
	switch {
	case len(rest) > 4 && rest[0] == 'g' && rest[1] == 'h' && strings.IndexByte("pousr", rest[2]) >= 0 && rest[3] == '_':
		return body(i+4, 8)
	case strings.HasPrefix(rest, "github_pat_"):
		return body(i+11, 8)
	case strings.HasPrefix(rest, "v1.") && (i == 0 || !isTokenChar(s[i-1])) && len(rest) >= 43 &&
		strings.Trim(rest[3:43], "0123456789abcdef") == "" && (len(rest) == 43 || !isTokenChar(rest[43])):
		return 43
	}
	return 0
}

// redactUserinfo handles scheme://userinfo@host.
func redactUserinfo(s string) string {
	var b strings.Builder
	last, from := 0, 0
	for {
		k := strings.Index(s[from:], "://")
		if k < 0 {
			break
		}
		k += from
		from = k + 3
		// The scheme: a letter, then letters, digits, + . - (digits glued
		// before its first letter are no part of it).
		letter := false
		for st := k; st > 0 && (isTokenChar(s[st-1]) && s[st-1] != '_' || strings.IndexByte("+.-", s[st-1]) >= 0); st-- {
			letter = letter || s[st-1]|0x20 >= 'a' && s[st-1]|0x20 <= 'z'
		}
		if !letter {
			continue
		}
		// The userinfo ends at the authority's last '@': a password may
		// hold one.
		stop := len(s)
		if n := strings.IndexAny(s[k+3:], "/ \t\n?#"); n >= 0 {
			stop = k + 3 + n
		}
		end := strings.LastIndexByte(s[k+3:stop], '@')
		if end <= 0 {
			continue
		}
		end += k + 3
		user := s[k+3 : end]
		// A bare short user name such as ssh's "git@" is no secret.
		if user == Redacted || !strings.Contains(user, ":") && len(user) < 20 && !strings.Contains(user, Redacted) {
			continue
		}
		b.WriteString(s[last : k+3])
		b.WriteString(Redacted)
		last, from = end, end
	}
	return finish(&b, s, last)
}

var secretKeywords = []string{"authorization", "bearer", "token", "password"}

// redactAfterKeywords replaces a long credential-like word that follows
// one of secretKeywords (and a ':' or '=' or spaces, and optionally a
// "token", "bearer" or "basic" scheme word).
func redactAfterKeywords(s string) string {
	low := strings.ToLower(s)
	var b strings.Builder
	last := 0
	for i := 0; i < len(low); i++ {
		k := slices.IndexFunc(secretKeywords, func(k string) bool { return strings.HasPrefix(low[i:], k) })
		if k < 0 {
			continue
		}
		// Separator: spaces with an optional ':' or '='.
		sep := i + len(secretKeywords[k])
		j := skipBlanks(s, sep)
		if j < len(s) && (s[j] == ':' || s[j] == '=') {
			j = skipBlanks(s, j+1)
		}
		if j == sep {
			continue
		}
		// Optional scheme word.
		for _, w := range []string{"token", "bearer", "basic"} {
			if strings.HasPrefix(low[j:], w) && skipBlanks(s, j+len(w)) > j+len(w) {
				j = skipBlanks(s, j+len(w))
				break
			}
		}
		v := j
		for v < len(s) && (isTokenChar(s[v]) || strings.IndexByte("-.=+/", s[v]) >= 0) {
			v++
		}
		if v-j < 20 || strings.HasPrefix(s[j:], Redacted) {
			continue
		}
		b.WriteString(s[last:j])
		b.WriteString(Redacted)
		last, i = v, v-1
	}
	return finish(&b, s, last)
}

// skipBlanks skips spaces and tabs from s[j].
func skipBlanks(s string, j int) int {
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	return j
}

func mayHoldSecret(s string) bool {
	l := strings.ToLower(s)
	return strings.ContainsAny(l, "_@") || strings.Contains(l, "v1.") || slices.ContainsFunc(secretKeywords, func(k string) bool { return strings.Contains(l, k) })
}
