package cache

import (
	"errors"
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
// failing refreshes back off even then). Dirs are private per-user
// directories (RuntimeDirs), tried in turn; a record is
// "unix-nanoseconds failures".
type Holdoff struct{ Dirs []string }

// RuntimeDirs are where hold-offs may live, in order: $XDG_RUNTIME_DIR/prchip
// (the user's, emptied at logout, which suits a wait of minutes),
// prchip-UID in the temporary directory, and ~/.cache/prchip for when
// another user made that name first (privdir refuses a directory that is
// not the user's private one).
func RuntimeDirs() []string {
	var dirs []string
	if d := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(d) {
		dirs = append(dirs, filepath.Join(d, "prchip"))
	}
	dirs = append(dirs, filepath.Join(os.TempDir(), "prchip-"+strconv.Itoa(os.Geteuid())))
	cache := os.Getenv("XDG_CACHE_HOME")
	if !filepath.IsAbs(cache) {
		if home := os.Getenv("HOME"); filepath.IsAbs(home) {
			cache = filepath.Join(home, ".cache")
		}
	}
	if cache != "" {
		dirs = append(dirs, filepath.Join(cache, "prchip"))
	}
	return dirs
}

// Until is when key may be refreshed again and how many refreshes in a
// row could not record their outcome; zero when nothing holds it off. A
// time further ahead than max (a stepped-back clock, an edited file) is
// not trusted. It reads one small file, and only when a refresh is due.
func (h Holdoff) Until(key string, now time.Time, max time.Duration) (time.Time, int) {
	for _, dir := range h.Dirs {
		if t, n, ok := readHoldoff(dir, key, now, max); ok {
			return t, n
		}
	}
	return time.Time{}, 0
}

// readHoldoff reads key's record in dir; ok is false when there is none.
func readHoldoff(dir, key string, now time.Time, max time.Duration) (time.Time, int, bool) {
	d, err := privdir.Open(dir)
	if err != nil {
		return time.Time{}, 0, false
	}
	defer d.Close()
	f, err := d.OpenFile(holdoffName(key), os.O_RDONLY, 0)
	if err != nil {
		return time.Time{}, 0, false
	}
	defer f.Close()
	var buf [64]byte
	n, _ := f.Read(buf[:])
	ns, count, _ := strings.Cut(strings.TrimSpace(string(buf[:n])), " ")
	u, err1 := strconv.ParseInt(ns, 10, 64)
	c, err2 := strconv.Atoi(count)
	if err1 != nil || err2 != nil || c < 0 {
		return time.Time{}, 0, true
	}
	t := time.Unix(0, u)
	if t.Sub(now) > max {
		return time.Time{}, c, true
	}
	return t, c, true
}

// Set holds key off until until, after failures refreshes in a row that
// could not record their outcome.
// It writes in the first of Dirs that is private, or can be made so.
func (h Holdoff) Set(key string, until time.Time, failures int) error {
	err := errors.New("no runtime directory")
	for _, dir := range h.Dirs {
		if err = writeHoldoff(dir, key, until, failures); err == nil {
			return nil
		}
	}
	return err
}

func writeHoldoff(dir, key string, until time.Time, failures int) error {
	d, err := privdir.Make(dir)
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
	for _, dir := range h.Dirs {
		if d, err := privdir.Open(dir); err == nil {
			d.Remove(holdoffName(key))
			d.Close()
		}
	}
}

func holdoffName(key string) string { return "holdoff-" + key }
