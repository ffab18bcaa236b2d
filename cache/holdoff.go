package cache

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/prchip/prchip/internal/privdir"
)

// Holdoff keeps, outside the state directory, when a repository may be
// refreshed again after a refresh that could not record its outcome. The
// state file is where backoff lives; when it cannot be written (a full or
// read-only disk, a directory in its place) every prompt would otherwise
// start a refresh that runs gh and fails to record it again (SPEC 4:
// failing refreshes back off even then). Dir is a private per-user
// directory (RuntimeDir); a record is "unix-nanoseconds failures".
type Holdoff struct{ Dir string }

// RuntimeDir is prchip's per-user runtime directory: $XDG_RUNTIME_DIR/prchip
// (the user's, emptied at logout, which suits a wait of minutes), else
// prchip-UID in the temporary directory; privdir refuses either when it is
// not the user's private directory.
func RuntimeDir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(d) {
		return filepath.Join(d, "prchip")
	}
	return filepath.Join(os.TempDir(), "prchip-"+strconv.Itoa(os.Geteuid()))
}

// Until is when key may be refreshed again and how many refreshes in a
// row could not record their outcome; zero when nothing holds it off. A
// time further ahead than max (a stepped-back clock, an edited file) is
// not trusted. It reads one small file, and only when a refresh is due.
func (h Holdoff) Until(key string, now time.Time, max time.Duration) (time.Time, int) {
	d, err := privdir.Open(h.Dir)
	if err != nil {
		return time.Time{}, 0
	}
	defer d.Close()
	f, err := d.OpenFile(holdoffName(key), os.O_RDONLY, 0)
	if err != nil {
		return time.Time{}, 0
	}
	defer f.Close()
	var buf [64]byte
	n, _ := f.Read(buf[:])
	ns, count, _ := strings.Cut(strings.TrimSpace(string(buf[:n])), " ")
	u, err1 := strconv.ParseInt(ns, 10, 64)
	c, err2 := strconv.Atoi(count)
	if err1 != nil || err2 != nil || c < 0 {
		return time.Time{}, 0
	}
	t := time.Unix(0, u)
	if t.Sub(now) > max {
		return time.Time{}, c
	}
	return t, c
}

// Set holds key off until until, after failures refreshes in a row that
// could not record their outcome.
func (h Holdoff) Set(key string, until time.Time, failures int) error {
	d, err := privdir.Make(h.Dir)
	if err != nil {
		return err
	}
	defer d.Close()
	f, tmp, err := d.CreateTemp(".holdoff-")
	if err != nil {
		return err
	}
	_, err = f.WriteString(strconv.FormatInt(until.UnixNano(), 10) + " " + strconv.Itoa(failures) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = d.Rename(tmp, holdoffName(key))
	}
	if err != nil {
		d.Remove(tmp)
	}
	return err
}

// Clear forgets key's hold-off, once a refresh recorded its outcome.
func (h Holdoff) Clear(key string) {
	if d, err := privdir.Open(h.Dir); err == nil {
		d.Remove(holdoffName(key))
		d.Close()
	}
}

func holdoffName(key string) string { return "holdoff-" + key }
