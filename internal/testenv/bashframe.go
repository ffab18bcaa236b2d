package testenv

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ReadBashFrame reads one shellhooks.BashFrame as the bash hook does: the id ("0" for
// the hello) and the body with its escapes undone.
func ReadBashFrame(r *bufio.Reader) (id, body string, err error) {
	head := make([]byte, 16)
	if _, err := io.ReadFull(r, head); err != nil {
		return "", "", err
	}
	n, err := strconv.Atoi(string(head[10:]))
	if err != nil {
		return "", "", fmt.Errorf("bash frame header %q: %w", head, err)
	}
	if n == 999999 { // a chip too long for one write: no body
		return "", "", fmt.Errorf("bash frame %q: chip too long for one write", head)
	}
	raw := make([]byte, n)
	if _, err := io.ReadFull(r, raw); err != nil {
		return "", "", err
	}
	// ${body@E} undoes \\ and \xHH, all BashFrame writes.
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		switch {
		case raw[i] != '\\':
			b.WriteByte(raw[i])
		case i+1 < len(raw) && raw[i+1] == '\\':
			b.WriteByte('\\')
			i++
		case i+3 < len(raw) && raw[i+1] == 'x' && isHex(raw[i+2]) && isHex(raw[i+3]):
			c, _ := strconv.ParseUint(string(raw[i+2:i+4]), 16, 8)
			b.WriteByte(byte(c))
			i += 3
		default:
			return "", "", fmt.Errorf("bash frame body %q", raw)
		}
	}
	i, _ := strconv.ParseUint(string(head[:10]), 10, 64)
	return strconv.FormatUint(i, 10), b.String(), nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
