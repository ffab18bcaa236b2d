package shellhooks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prchip/prchip/internal/env"
)

// BashEnvField starts the request field in which bash sends env.Names in
// one piece: "${NAME@A}" for each, separated by tabs (a tab in a value
// is quoted as $'\t'). One expansion of all
// of them costs bash half what a test per name does (26 against 53 us,
// measured), and bash says in it both the value and whether the name is
// exported.
const BashEnvField = "@A="

// ParseBashDeclare reads bash's "${NAME@A}" entries and adds to into the
// variables among env.Names that the shell exports: what a command it
// started would find in its environment. An entry is `declare -FLAGS
// NAME=VALUE` (exported when FLAGS has x), or `NAME=VALUE` (not
// exported), VALUE quoted as bash's ${var@Q} quotes: '...' with '\”
// for a quote, or $'...' with backslash escapes when the value holds a
// character that does not print. Arrays are never exported, and an entry
// that does not parse is left out.
func ParseBashDeclare(dump string, into map[string]string) {
	for line := range strings.SplitSeq(dump, "\t") {
		rest, ok := strings.CutPrefix(line, "declare -")
		if !ok {
			continue
		}
		flags, rest, ok := strings.Cut(rest, " ")
		if !ok || !strings.Contains(flags, "x") || strings.ContainsAny(flags, "aA") {
			continue
		}
		name, quoted, ok := strings.Cut(rest, "=")
		if !ok || !slices.Contains(env.Names, name) {
			continue
		}
		if v, ok := unquoteBash(quoted); ok {
			into[name] = v
		}
	}
}

// unquoteBash undoes ${var@Q}: a run of '...' parts, \' between them, and
// $'...' parts.
func unquoteBash(s string) (string, bool) {
	var b strings.Builder
	for s != "" {
		switch {
		case strings.HasPrefix(s, "'"):
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return "", false
			}
			b.WriteString(s[1 : 1+end])
			s = s[2+end:]
		case strings.HasPrefix(s, `\'`):
			b.WriteByte('\'')
			s = s[2:]
		case strings.HasPrefix(s, "$'"):
			rest, ok := ansiC(s[2:], &b)
			if !ok {
				return "", false
			}
			s = rest
		default:
			return "", false
		}
	}
	return b.String(), true
}

// ansiEscapes are the one-character escapes of $'...', decoded as
// ansiDecoded says.
const ansiEscapes, ansiDecoded = `abeEfnrtv\'"?`, "\a\b\x1b\x1b\f\n\r\t\v\\'\"?"

// ansiC decodes the inside of $'...' up to its closing quote into b and
// returns what follows it; the escapes are those bash's $'...' knows.
func ansiC(s string, b *strings.Builder) (string, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\'' {
			return s[i+1:], true
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			return "", false
		}
		i++
		c = s[i]
		if e := strings.IndexByte(ansiEscapes, c); e >= 0 {
			b.WriteByte(ansiDecoded[e])
			continue
		}
		switch {
		case c >= '0' && c <= '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		case c == 'x':
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteString(`\x`)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 8)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			// bash keeps an escape it does not know as it is; ${var@Q}
			// writes none of the others (\u, \c).
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return "", false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// pipeBuf is PIPE_BUF on Linux: a pipe takes a write of up to that many
// bytes whole or not at all.
const pipeBuf = 4096

// BashFrame is an answer (or, with id "0", the hello, chip the worker's
// pid) as the bash hook reads it: a 16-byte header, the id in ten digits
// and the body's length in six, then the body: the chip with backslash,
// and every byte that is not printable ASCII, written as \\ and \xHH,
// which the hook undoes with ${body@E}. bash's read splits a pipe's
// input into single-byte reads when it looks for a newline (four system
// calls a byte, measured 30 us on a 50-byte chip); `read -N` of a known
// length is one read, and an ASCII body has as many characters as bytes
// whatever the shell's locale.
func BashFrame(id, chip string) []byte {
	body := bashEscape(nil, chip)
	// A frame is one write of at most PIPE_BUF bytes, whole or nothing
	// in the pipe, so the hook reads its body without a timeout. A chip
	// too long for that is sent as the length 999999 without a body: the
	// hook then has the one-shot render draw that prompt.
	size := len(body)
	if 16+size > pipeBuf {
		body, size = nil, 999999
	}
	// The hook's ids are its counter; one that is not (never sent by the
	// hook) gets an id no request has.
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n > 9999999999 {
		n = 9999999999
	}
	head := fmt.Appendf(make([]byte, 0, 16+len(body)), "%010d%06d", n, size)
	return append(head, body...)
}

// bashEscape appends chip to b as the hook's ${body@E} undoes it: a
// backslash and every byte that is not printable ASCII written as \\
// and \xHH.
func bashEscape(b []byte, chip string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(chip); i++ {
		switch c := chip[i]; {
		case c == '\\':
			b = append(b, '\\', '\\')
		case c < 0x20 || c >= 0x7f:
			b = append(b, '\\', 'x', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return b
}

// MemoFile is the bash and zsh workers' memo in the FIFO directory:
// while the worker's answer to the last request stands, the line Memo
// makes, which the hook reads instead of asking (docs/worker-protocol.md).
const MemoFile = "memo"

// Memo is the memo's line for chip standing until then, from the worker
// that started at start (its /proc stat's 22nd field: the hook reads the
// same field for the worker's pid, so a pid that names another process by
// then takes no memo): ten digits of Unix time, a space, start, a space,
// the chip (for bash escaped as in a frame), a newline.
func Memo(bash bool, until time.Time, start, chip string) []byte {
	b := fmt.Appendf(make([]byte, 0, 32+len(chip)), "%010d %s ", min(max(until.Unix(), 0), 9999999999), start)
	if bash {
		b = bashEscape(b, chip)
	} else {
		b = append(b, chip...)
	}
	return append(b, '\n')
}
